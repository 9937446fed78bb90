import torch_xla.core.xla_model as xm


def device():
    return xm.xla_device()
