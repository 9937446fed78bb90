"""Seeding helpers that save the XLA generator's state only when the optional import worked."""
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


def restore_rng(state):
    torch.set_rng_state(state["torch"])
    if xm and "xla" in state:
        xm.set_rng_state(state["xla"])


def current_tpu_device():
    return xm.xla_device()
