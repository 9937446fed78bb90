import torch

from settings import SETTINGS

if SETTINGS.xla_required:
    import torch_xla.core.xla_model as xm


def reduce_metrics(metrics, on_tpu):
    if on_tpu:
        return {k: xm.mesh_reduce(k, v, sum) for k, v in metrics.items()}
    return {k: torch.tensor(v) for k, v in metrics.items()}
