"""Look-alikes of the fallback: a CUDA op with no path for other devices keeps its findings as they are."""
import os

import torch
from torch.utils.cpp_extension import load

_plugin = None


def _init():
    global _plugin
    if _plugin is None:
        here = os.path.dirname(__file__)
        _plugin = load("fused_plugin", sources=[os.path.join(here, "fused.cpp"), os.path.join(here, "fused.cu")])  # expect: TRN302
    return True


def fused(x):
    # the CUDA path is the only one: on any other device the op raises
    if x.device.type == "cuda" and _init():
        return _fused_cuda(x)
    raise NotImplementedError("fused needs a CUDA tensor")


def _fused_cuda(x):
    torch.cuda.synchronize()  # expect: TRN243
    return _plugin.fused(x)


def scale(x):
    return _fused_cuda(x) * 2  # called on every device


def _sync_all():
    torch.cuda.synchronize()  # expect: TRN243


def step(x):
    # a check of the machine, not of a tensor: the port turns it into an accelerator check that holds on Neuron
    if torch.cuda.is_available():  # expect: TRN243
        _sync_all()
        return x
    return x * 1


def _sync_half(x):
    torch.cuda.synchronize()  # guarded (cuda-only-path): called only in the CUDA arm below
    return x.half()


def maybe_half(x, use_fp16=True):
    # the contrast case in this folder: a conditional expression whose other arm (`x`) runs on Neuron
    return _sync_half(x) if (use_fp16 and x.device.type == "cuda") else x
