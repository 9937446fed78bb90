import pytest
import torch

from .testing_utils import (_requires_cuda, require_bitsandbytes, require_non_cpu, require_torch,
                            require_torch_accelerator, require_torch_non_multi_gpu, require_torch_up_to_2_gpus,
                            require_torchao, skip_if_cuda, skip_if_no_triton, slow, sm80_or_better_only)


@require_bitsandbytes
def test_bnb():
    torch.cuda.synchronize()


@_requires_cuda
def test_private_requires():
    torch.cuda.synchronize()


@skip_if_no_triton
def test_triton_kernel():
    torch.cuda.synchronize()


@sm80_or_better_only
def test_ampere():
    torch.cuda.synchronize()


@pytest.mark.multi_gpu_tests
def test_multi_gpu_marker():
    torch.cuda.synchronize()


@pytest.mark.gpu
def test_gpu_marker():
    torch.cuda.synchronize()


@require_non_cpu
@require_bitsandbytes
class TestBnbClass:
    def test_it(self):
        torch.cuda.synchronize()


# Look-alikes: none of these says the test needs a GPU (or it may run on Neuron, or also on the CPU).
@require_torch
def test_requires_torch():
    torch.cuda.synchronize()


@slow
def test_slow():
    torch.cuda.synchronize()


@require_torchao
def test_torchao():
    torch.cuda.synchronize()


@require_torch_accelerator
def test_any_accelerator():
    torch.cuda.synchronize()


@require_non_cpu
def test_non_cpu():
    torch.cuda.synchronize()


@require_torch_non_multi_gpu
def test_not_multi_gpu():
    torch.cuda.synchronize()


@require_torch_up_to_2_gpus
def test_up_to_two():
    torch.cuda.synchronize()


@skip_if_cuda
def test_skipped_with_cuda():
    torch.cuda.synchronize()


@pytest.mark.bitsandbytes
def test_package_label():
    torch.cuda.synchronize()


@pytest.mark.slow
def test_slow_marker():
    torch.cuda.synchronize()
