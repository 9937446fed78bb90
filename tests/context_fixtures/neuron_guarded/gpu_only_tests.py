import sys
import unittest

import pytest
import torch

from .testing import gpu_test, requires_cuda, withPackage


@unittest.skipIf(not torch.cuda.is_available(), "needs CUDA")
def test_skipif_unittest():
    torch.cuda.synchronize()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_skipif_pytest():
    x = torch.ones(2).cuda()


@gpu_test(2)
def test_two_gpus():
    torch.cuda.set_device(1)


@requires_cuda
def test_requires():
    torch.cuda.synchronize()


@withPackage("cudf")
def test_cudf_loader():
    torch.cuda.synchronize()


class TestKernels(unittest.TestCase):
    def setUp(self):
        if not torch.cuda.is_available():
            self.skipTest("CUDA not available")

    def test_kernel(self):
        torch.cuda.synchronize()


def test_skip_inside():
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    torch.cuda.synchronize()


@pytest.mark.skipif(sys.platform == "win32", reason="not on Windows")
def test_not_windows():
    torch.cuda.synchronize()


@withPackage("pandas")
def test_pandas_loader():
    torch.cuda.synchronize()


class TestPlain(unittest.TestCase):
    def setUp(self):
        self.x = torch.ones(2)

    def test_it(self):
        torch.cuda.synchronize()
