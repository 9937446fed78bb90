import numpy as np
import torch


def read_ratings(path):
    table = torch.from_numpy(np.loadtxt(path))
    users = torch.unique(table[:, 0])
    return users, table.to(torch.float64)


def keep_boxes(target):
    boxes = torch.as_tensor(target["boxes"])
    keep = (boxes[:, 3] > boxes[:, 1]) & (boxes[:, 2] > boxes[:, 0])
    return boxes[keep]
