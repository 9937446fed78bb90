import sys

import torch


def test_matmul_on_the_gpu():
    x = torch.randn(4, 4).cuda()
    assert sys.modules["torch"] is torch
    assert (x @ x).device.type == "cuda"


def test_reports_the_capability(monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda: (8, 0))
    assert torch.cuda.get_device_capability() == (8, 0)


def test_second_matmul():
    y = torch.ones(2).cuda()
    assert y.sum() == 2
