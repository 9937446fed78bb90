import torch

try:
    import torch_xla
    import torch_xla.core.xla_model as xm

    has_xla_support = True
except ImportError:
    has_xla_support = False


if has_xla_support:

    def xla_device():
        return xm.xla_device()

    def sync():
        torch_xla.sync()
