try:
    import torch_xla.core.xla_model as xm
except ImportError as err:
    raise RuntimeError("this trainer needs torch_xla") from err


def step():
    xm.mark_step()
