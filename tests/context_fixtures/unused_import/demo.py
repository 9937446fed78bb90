import torch
from detectron2.layers import Conv2d, DeformConv, ModulatedDeformConv

try:
    import apex
except ImportError:
    print("No APEX!")

try:
    from apex import amp
except ImportError:
    amp = None


def build(c):
    conv = Conv2d(c, c, 3)
    dcn = ModulatedDeformConv(c, c, 3)
    if amp is not None:
        conv = amp.initialize(conv)
    return conv, dcn
