import torch_xla.core.xla_model as xm


def step(optimizer):
    optimizer.step()
    xm.mark_step()
