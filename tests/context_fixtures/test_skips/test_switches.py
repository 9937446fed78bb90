import pytest
import torch

requires_cuda = pytest.mark.skipif(torch.cuda.device_count() < 1, reason="needs CUDA")


@pytest.mark.parametrize(
    "alibi, cuda",
    [(True, False), (False, False), pytest.param(False, True, marks=(pytest.mark.gpu, requires_cuda))],
)
def test_forward(alibi, cuda):
    device = torch.device("cuda" if cuda else "cpu")
    if cuda:
        init_device = "cuda"
    else:
        init_device = "cpu"
    with torch.autocast(device_type="cuda" if cuda else "cpu"):
        pass
    return device, init_device


# look-alike: the True set runs too


@pytest.mark.parametrize("cuda", [False, True])
def test_both(cuda):
    if cuda:
        init_device = "cuda"
    else:
        init_device = "cpu"
    return init_device
