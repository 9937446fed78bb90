import numpy as np
import torch as th
import torch.nn as nn


def count_flops_attn(model, _x, y):
    """A counter for the `thop` package: custom_ops={QKVAttention: QKVAttention.count_flops}."""
    b, c, *spatial = y[0].shape
    num_spatial = int(np.prod(spatial))
    matmul_ops = 2 * b * (num_spatial**2) * c
    model.total_ops += th.DoubleTensor([matmul_ops])


class QKVAttention(nn.Module):
    @staticmethod
    def count_flops(model, _x, y):
        return count_flops_attn(model, _x, y)


def accumulate(model, y):
    total = th.DoubleTensor([y.numel()])  # expect: TRN121
    model.total = total
    return total


def scale(counter, x):
    counter.total_ops = x.to(th.float64)  # expect: TRN121
    return counter
