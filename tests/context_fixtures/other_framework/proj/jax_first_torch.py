try:
    # torch first, so its CUDA libraries load before JAX's
    import torch
    del torch
except ImportError:
    torch = None
import jax.numpy as jnp


def rays(dirs):
    keep = jnp.isfinite(dirs)
    return dirs[keep]
