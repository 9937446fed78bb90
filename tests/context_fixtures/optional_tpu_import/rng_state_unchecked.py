"""The same optional import, but one helper reads the XLA generator without testing that the import worked."""
import torch

try:
    import torch_xla.core.xla_model as xm
except ImportError:
    xm = None


def capture_rng():
    state = {"torch": torch.get_rng_state()}
    if xm is not None:
        state["xla"] = xm.get_rng_state()
    return state


def accelerator_seed(seed):
    xm.set_rng_state(seed)
