import torch
import torch.distributed as dist

from .base import BaseAccelerator


class CudaAccelerator(BaseAccelerator):
    def __init__(self):
        super().__init__(name="cuda", communication_backend="nccl")

    def set_device(self, index):
        torch.cuda.set_device(index)

    def autocast(self):
        return torch.cuda.amp.autocast()


class CudaHelper:
    def move(self, x):
        return x.cuda()


class CudaAttentionBackend(BaseAccelerator):
    def attend(self, q, k, v):
        from flash_attn import flash_attn_func
        return flash_attn_func(q, k, v)
