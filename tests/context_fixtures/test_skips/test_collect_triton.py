import torch
import triton


def test_kernel():
    torch.cuda.synchronize()
