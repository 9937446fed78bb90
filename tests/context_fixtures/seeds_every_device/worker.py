import torch
from torch import manual_seed

manual_seed(1)
torch.cuda.manual_seed_all(1)


def reseed(seed):
    torch.cuda.seed_all()
