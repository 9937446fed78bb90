import pytest
import torch

DEVICES = ["cpu", "cuda"]


def _make(n):
    return torch.arange(n).to("cuda")


def test_unique_on_cpu():
    x = torch.tensor([1, 1, 2])
    assert x.unique().numel() == 2


@pytest.mark.parametrize("device", DEVICES)
def test_unique_on_device(device):
    x = torch.tensor([1, 1, 2], device=device)
    assert x.unique().numel() == 2


def test_unique_through_helper():
    x = _make(3) + torch.tensor([1, 1, 2])
    assert x.unique().numel() == 3


def helper_reference():
    return torch.zeros(2, dtype=torch.float64)


class TestOnDevice:
    def setUp(self):
        self.device = torch.device("cuda")

    def test_nonzero(self):
        x = torch.ones(3).to(self.device)
        assert x.nonzero().numel() == 3


class TestPlain:
    def helper(self):
        return torch.ones(1).cuda()

    def test_nonzero(self):
        x = torch.ones(3)
        assert x.nonzero().numel() == 3
