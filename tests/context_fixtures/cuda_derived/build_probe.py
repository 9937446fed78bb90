import torch
from torch import _C


def restore_rng(state, device=-1):
    if hasattr(_C, "_cuda_setRNGState") and callable(_C._cuda_setRNGState):
        with torch.cuda.device(device):
            _C._cuda_setRNGState(state)
    else:
        torch.cuda.default_generators[0].set_state(state)


def compiled_for_gpu():
    if hasattr(torch._C, "_cuda_getDeviceCount"):
        torch.cuda.init()
    if hasattr(torch._C, "_get_tracing_state"):
        torch.cuda.init()
    if hasattr(torch, "_cuda_getDeviceCount"):
        torch.cuda.synchronize()
