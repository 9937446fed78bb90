import unittest

import torch
import torch.distributed as dist


def setup(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)


def demo_basic(rank, world_size):
    setup(rank, world_size)
    torch.cuda.set_device(rank)


def run_demo(demo_fn, world_size):
    demo_fn(0, world_size)


class GradientCheckFSDP(unittest.TestCase):
    @unittest.skipIf(torch.cuda.device_count() < 2, "Need at least 2 GPUs")
    def test_gradient(self):
        run_demo(demo_basic, 2)
