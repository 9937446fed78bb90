import torch

WITH_TRITON = True
try:
    import triton
except ImportError:
    WITH_TRITON = False


def block_count(n, block):
    return triton.cdiv(n, block) if WITH_TRITON else (n + block - 1) // block


def cross_scan(x):
    return torch.flip(x, dims=(-1,))


try:
    from xformers.ops import SwiGLU
except ImportError:
    SwiGLU = torch.nn.Module


class SwiGLUFused(SwiGLU):
    pass
