import torch


def warm_cache(path):
    return torch.load(path).cuda()
