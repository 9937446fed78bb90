import numpy as np
import torch


def read_ratings(path):
    table = torch.from_numpy(np.loadtxt(path))
    users = torch.unique(table[:, 0])
    return users, table.to(torch.float64)
