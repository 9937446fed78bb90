import torch
import torch.distributed as dist


def get_backend():
    if torch.cuda.is_available():
        return "nccl"
    return "gloo"


def get_comm_backend():
    if dist.is_nccl_available():
        return "nccl"
    return "gloo"
