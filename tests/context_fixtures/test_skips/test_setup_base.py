import unittest

import torch


class MultiGpuCase(unittest.TestCase):
    def setUp(self):
        if torch.cuda.device_count() < 2:
            raise unittest.SkipTest("needs two GPUs")

    @staticmethod
    def _step(model):
        return model(torch.ones(2, device="cuda"))


class TestInherited(MultiGpuCase):
    def test_step(self):
        self._step(torch.nn.Identity().cuda())


class TestCallsBase(MultiGpuCase):
    def setUp(self):
        super().setUp()
        self.size = 4

    def test_step(self):
        torch.cuda.synchronize()


class TestOverrides(MultiGpuCase):
    def setUp(self):
        self.size = 4

    def test_step(self):
        torch.cuda.synchronize()
