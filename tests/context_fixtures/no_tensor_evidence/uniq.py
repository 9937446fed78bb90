import numpy as np
import torch


def nodes(src, dst, frame):
    both = torch.cat([src, dst])
    first = both.unique()
    second = torch.tensor([1, 2, 2], device=src.device).unique()
    labels = frame["label"].unique()
    values = np.asarray(frame).unique()
    other = src.unique()
    return first, second, labels, values, other
