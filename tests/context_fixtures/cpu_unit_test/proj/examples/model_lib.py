import torch


def table(xs):
    return torch.tensor(xs, dtype=torch.float64)
