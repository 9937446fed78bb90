import pytest
import torch

from pkg.xla_model import has_xla_support


@pytest.mark.skipif(not has_xla_support, reason="Skip if no PyTorch XLA package")
def test_save_on_device():
    device = "xla"
    assert torch.ones(2, device=device).sum() == 2


def test_save_default():
    device = "xla"
    assert torch.ones(2, device=device).sum() == 2
