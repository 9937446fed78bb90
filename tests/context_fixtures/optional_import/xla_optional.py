import torch

from .utils import is_torch_xla_available

if is_torch_xla_available():
    import torch_xla.core.xla_model as xm
    XLA_AVAILABLE = True
else:
    XLA_AVAILABLE = False


def step(optimizer):
    optimizer.step()
    if XLA_AVAILABLE:
        xm.mark_step()
