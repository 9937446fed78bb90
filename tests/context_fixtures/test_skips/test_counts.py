import pytest
import torch
from ray import remote

from .conftest import _RunIf


@_RunIf(min_cuda_gpus=1)
def test_one_gpu():
    torch.cuda.synchronize()


@_RunIf(min_cuda_gpus=0)
def test_no_gpu_needed():
    torch.cuda.synchronize()


# Only the parameter set that carries the GPU requirement is guarded; the other sets of the list still run.
@pytest.mark.parametrize("device", [torch.device("cpu"), pytest.param(torch.device("cuda"), marks=_RunIf(min_cuda_gpus=1))])
def test_devices(device):
    torch.ones(2, device=device)


@pytest.mark.parametrize("device", [pytest.param(torch.device("cuda"), marks=[pytest.mark.xfail, _RunIf(min_cuda_gpus=1)])])
def test_devices_marks_list(device):
    torch.ones(2, device=device)


@pytest.mark.parametrize("device", [pytest.param(torch.device("cuda"), marks=pytest.mark.xfail(raises=AssertionError))])
def test_devices_xfail_only(device):
    torch.ones(2, device=device)


@pytest.mark.parametrize("device", [torch.device("cuda")])
def test_devices_plain(device):
    torch.ones(2, device=device)


# A requirement keyword naming a CUDA-only package or a GPU feature, set True, skips without it; other keywords do not.
@_RunIf(deepspeed=True)
def test_needs_deepspeed():
    torch.cuda.synchronize()


@_RunIf(bf16_cuda=True)
def test_needs_bf16_cuda():
    torch.cuda.synchronize()


@_RunIf(skip_windows=True)
def test_not_on_windows():
    torch.cuda.synchronize()


@_RunIf(deepspeed=False)
def test_deepspeed_false():
    torch.cuda.synchronize()


# A ray actor asking for a GPU is a resource request, not a test condition: its name says nothing of a skip.
@remote(num_cpus=1, num_gpus=1)
class Worker:
    def __init__(self):
        self.model = torch.nn.Linear(2, 2).cuda()


def test_worker():
    Worker.remote()
