import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA only")


def test_stream():
    s = torch.cuda.Stream()
    torch.cuda.synchronize()
