import jax.numpy as jnp


def rays(dirs):
    keep = jnp.isfinite(dirs)
    return dirs[keep]  # a JAX array: no PyTorch path
