import torch

use_cuda = torch.cuda.is_available()
on_gpu = torch.cuda.is_available()


def test_forward():
    device = "cuda" if on_gpu else "cpu"
    assert torch.zeros(1, device=device).sum() == 0
