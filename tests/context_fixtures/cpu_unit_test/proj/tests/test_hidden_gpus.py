import os

import torch

os.environ["CUDA_VISIBLE_DEVICES"] = ""


def seed_all(seed=0):
    torch.backends.cudnn.deterministic = True
    torch.manual_seed(seed)


def test_runs_on_cpu():
    x = torch.randn(2, device="cuda" if torch.cuda.is_available() else "cpu")
    assert x.unique().numel() <= 2
