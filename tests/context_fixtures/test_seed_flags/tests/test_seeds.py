import random

import torch


def seed_all(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True


def seed_and_place(seed, x):
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    return x.cuda()


def flags_only():
    torch.backends.cudnn.deterministic = True
