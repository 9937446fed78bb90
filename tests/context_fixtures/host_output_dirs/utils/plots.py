import torch


def plot_images(targets, i):
    ti = targets[targets[:, 0] == i]
    return torch.unique(ti[:, 1])
