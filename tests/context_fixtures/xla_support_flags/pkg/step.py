import torch

try:
    import torch_xla.core.xla_model as xm

    _XLA_OK = True
except ImportError:
    _XLA_OK = False

_WITH_GPU = torch.cuda.device_count() >= 0


def place(x):
    if _XLA_OK:
        return x.to("xla")
    if _WITH_GPU:
        return x.to("xla")
    return x
