try:
    import torch_xla.core.xla_model as xm
except ImportError:
    xm = None


def step(optimizer):
    optimizer.step()
    xm.mark_step()
