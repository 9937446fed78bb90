import random

import torch


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import torch_xla.core.xla_model as xm
    except ImportError:
        pass
    else:
        xm.set_rng_state(seed)


def xla_ready():
    try:
        import torch_xla  # noqa: F401

        return True
    except ModuleNotFoundError:
        return False


def sync_all():
    try:
        import torch_xla.core.xla_model as xm
    except ImportError:
        xm = None
    xm.mark_step()
