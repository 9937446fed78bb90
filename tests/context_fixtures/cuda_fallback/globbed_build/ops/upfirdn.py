"""A reference path beside the kernel (an advisory), but setup.py also builds every .cu it globs."""
import os

import torch
from torch.utils.cpp_extension import load

_plugin = None


def _init():
    global _plugin
    if _plugin is None:
        _plugin = load("upfirdn_plugin", sources=[os.path.join(os.path.dirname(__file__), "upfirdn.cu")])  # expect: TRN302
    return True


def upfirdn(x, f):
    if x.is_cuda and _init():
        return _plugin.upfirdn(x, f)
    return torch.nn.functional.conv2d(x, f)
