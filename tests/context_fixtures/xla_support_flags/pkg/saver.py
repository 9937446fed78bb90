import torch

from pkg import xla_model as dist


def save(obj, path):
    if dist.has_xla_support:
        import torch_xla.core.xla_model as xm

        xm.save(obj, path)
    else:
        torch.save(obj, path)


def move(x):
    return x.to(torch.device("cuda"))
