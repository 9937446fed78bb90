import torch


def seed_all(seed):
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
