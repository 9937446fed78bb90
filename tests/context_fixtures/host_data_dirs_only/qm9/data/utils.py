import torch


def species(charges):
    return torch.unique(charges, sorted=True)
