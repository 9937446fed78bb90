import sys

import torch


def test_matmul_on_the_gpu():
    x = torch.randn(4, 4).cuda()
    assert sys.modules["torch"] is torch
    assert (x @ x).device.type == "cuda"
