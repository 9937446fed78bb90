import unittest

import pytest

import torch


class PipelineTest(unittest.TestCase):
    def setUp(self):
        torch.backends.cuda.matmul.allow_tf32 = True

    @unittest.skipIf(not torch.cuda.is_available(), "needs CUDA")
    def test_one(self):
        pass

    @unittest.skipIf(torch.cuda.device_count() < 2, "needs two GPUs")
    def test_two(self):
        self._run_multi_process_test(callable=self._run, world_size=2)

    @classmethod
    def _run(cls, rank, world_size):
        torch.distributed.init_process_group(rank=rank, world_size=world_size, backend="nccl")


class MixedTest(unittest.TestCase):
    def setUp(self):
        torch.backends.cuda.matmul.allow_tf32 = True

    @unittest.skipIf(not torch.cuda.is_available(), "needs CUDA")
    def test_gpu(self):
        self._run_multi_process_test(callable=self._shared, world_size=2)

    def test_cpu(self):
        self._run_multi_process_test(callable=self._shared, world_size=1)

    @classmethod
    def _shared(cls, rank, world_size):
        torch.distributed.init_process_group(rank=rank, world_size=world_size, backend="nccl")


class BaseGpuTest(unittest.TestCase):
    def setUp(self):
        torch.backends.cuda.matmul.allow_tf32 = False

    @unittest.skipIf(not torch.cuda.is_available(), "needs CUDA")
    def test_gpu(self):
        pass


class DerivedTest(BaseGpuTest):
    def test_cpu(self):
        pass


@pytest.mark.skip(reason="flaky")
class TestFlaky:
    def test_gpu(self):
        torch.cuda.synchronize()


@unittest.skip("broken")
def test_broken():
    torch.cuda.synchronize()


@pytest.mark.skipif(False, reason="never")
def test_runs():
    torch.cuda.synchronize()
