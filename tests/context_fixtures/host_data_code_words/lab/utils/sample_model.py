import torch


def weights(sizes):
    return torch.tensor(sizes, dtype=torch.float64)
