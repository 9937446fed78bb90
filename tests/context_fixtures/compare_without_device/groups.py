import datetime

import torch
import torch.distributed as dist


def gloo_group():
    if dist.get_backend() == "nccl":
        return dist.new_group(backend="gloo", timeout=datetime.timedelta(seconds=43200))
    return dist.group.WORLD


def broadcast_device(group):
    if dist.get_backend(group) == "nccl":
        return torch.device("cuda")
    else:
        return torch.device("cpu")


def reduce_device():
    backend = torch.distributed.get_backend()
    if backend == torch.distributed.Backend.NCCL:
        device = torch.device("cuda")
    elif backend == torch.distributed.Backend.GLOO:
        device = torch.device("cpu")
    else:
        raise RuntimeError("Unsupported distributed backend")
    return device
