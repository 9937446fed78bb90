import torch
from helpers import skipifnocuda, skipifcuda


@skipifnocuda
def test_memory():
    assert torch.cuda.max_memory_allocated() >= 0


@skipifcuda
def test_cpu_memory():
    assert torch.cuda.max_memory_allocated() == 0


def setup(module):
    torch.zeros(1).cuda()
