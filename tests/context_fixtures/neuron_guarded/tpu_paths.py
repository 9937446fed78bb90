import torch

from .utils import is_torch_xla_available, is_xla_installed

if is_torch_xla_available():
    import torch_xla.core.xla_model as xm


def sync(device):
    if is_xla_installed():
        import torch_xla
        torch_xla.sync()
    elif device.type == "cuda":
        torch.cuda.synchronize()
