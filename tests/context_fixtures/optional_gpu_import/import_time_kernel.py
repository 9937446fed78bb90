import torch

WITH_TRITON = True
try:
    import triton
except ImportError:
    WITH_TRITON = False


@triton.jit
def cross_scan_kernel(x_ptr, y_ptr, n):
    pass


def cross_scan(x):
    return torch.flip(x, dims=(-1,))
