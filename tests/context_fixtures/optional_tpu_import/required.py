try:
    import torch_xla.core.xla_model as xm
except ImportError:
    raise RuntimeError("this trainer needs torch_xla")


def device():
    if xm.xrt_world_size() > 1:
        return xm.xla_device()
    return None
