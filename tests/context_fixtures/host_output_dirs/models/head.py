import torch


def forward(x, mask):
    return torch.unique(x[mask])
