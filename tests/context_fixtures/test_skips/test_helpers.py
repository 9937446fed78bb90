import pytest
import torch

cuda_only = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


def run_inner(n):
    x = torch.ones(n, device="cuda")
    return _inner(x)


def _inner(x):
    torch.cuda.synchronize()
    return x


class DummyWorker:
    def __init__(self):
        self.model = torch.nn.Linear(2, 2).cuda()


def shared(n):
    torch.cuda.synchronize()
    return n


def unused():
    torch.cuda.synchronize()


class TestThings:
    @cuda_only
    def test_a(self):
        run_inner(2)
        shared(2)
        DummyWorker()
        self._check()

    def _check(self):
        torch.cuda.synchronize()

    def _never_called(self):
        torch.cuda.synchronize()

    def test_b(self):
        shared(3)
