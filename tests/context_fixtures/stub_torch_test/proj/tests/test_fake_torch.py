import os
import sys
import types

from proj.device import pick_device


def _fake_torch(available):
    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(is_available=lambda: available)
    return torch


def test_picks_the_gpu(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", _fake_torch(True))
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"
    assert pick_device() == "cuda"
