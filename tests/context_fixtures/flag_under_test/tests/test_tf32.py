import unittest

import torch
from torch.backends import cudnn

from mypkg.precision import tf32_context


def test_context_restores_flag(tf32):
    original = torch.backends.cudnn.allow_tf32
    try:
        torch.backends.cudnn.allow_tf32 = not tf32
        with tf32_context(tf32):
            assert torch.backends.cudnn.allow_tf32 is tf32
    finally:
        torch.backends.cudnn.allow_tf32 = original


def test_benchmark_without_assert(model):
    torch.backends.cudnn.benchmark = True
    assert model(torch.ones(2)).shape == (2,)


class TestFlags(unittest.TestCase):
    def test_alias_checked(self):
        cudnn.deterministic = True
        tf32_context(True)
        self.assertTrue(torch.backends.cudnn.deterministic)

    def test_other_flag_checked(self):
        cudnn.benchmark = True
        self.assertTrue(cudnn.deterministic)
