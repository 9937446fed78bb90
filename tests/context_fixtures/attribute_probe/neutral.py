"""timm's validate.py: a version probe of torch.cuda.amp beside a device-neutral autocast."""
from functools import partial

import torch

has_native_amp = False
try:
    if getattr(torch.cuda.amp, "autocast") is not None:
        has_native_amp = True
except AttributeError:
    pass


def autocast_for(device):
    assert has_native_amp
    return partial(torch.autocast, device_type=device.type, dtype=torch.bfloat16)
