from unittest import mock

import torch

from proj.accelerators import CUDAAccelerator, Connector


@mock.patch("proj.accelerators.cuda.num_cuda_devices", return_value=2)
def test_two_pretend_gpus(_):
    assert Connector(accelerator="cuda", devices=2).parallel_devices == [torch.device("cuda", 0),
                                                                        torch.device("cuda", 1)]


def test_available_patched_object():
    with mock.patch.object(CUDAAccelerator, "is_available", return_value=True):
        assert Connector(accelerator="cuda").accelerator == "cuda"


def test_with_fixture(cuda_count_4):
    assert Connector(accelerator="cuda", devices=4).num_devices == 4


def test_patched_unrelated():
    with mock.patch("proj.accelerators.cuda.log_memory"):
        torch.ones(2, device="cuda")


def test_real_gpu():
    x = torch.ones(3).cuda()
    assert x.is_cuda
