import torch

from .cuda_accelerator import CudaAccelerator
from .cpu_accelerator import CpuAccelerator


def auto_set_accelerator():
    if torch.cuda.is_available():
        return CudaAccelerator()
    return CpuAccelerator()
