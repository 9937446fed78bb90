import types
import unittest

import torch
from transformers import AutoModelForCausalLM

from proj import planner


def _target(device="cpu"):
    return types.SimpleNamespace(device=device, backend="native")


def test_plans_for_a_gpu_target():
    assert planner.plan(_target(device="cuda")).offload is False


def test_namespace_input():
    target = types.SimpleNamespace(device="cuda", free_mib=4000)
    assert planner.fits(target)


def test_policy_with_mocks(monkeypatch):
    monkeypatch.setattr(planner, "free_bytes", lambda device: 10**9)
    assert planner.scheme(dtype=torch.bfloat16, device="cuda") == "int8"


def test_stored_config():
    cfg = {"model": "m", "device": "cuda", "load_in_4bit": True}
    assert planner.validate(cfg)


class TestNames(unittest.TestCase):
    def test_names(self):
        for name in ("a", "b"):
            with self.subTest(name=name, load_in_4bit=True):
                self.assertTrue(planner.name_for(name, True))


def test_places_a_tensor():
    x = torch.ones(2, device="cuda")
    assert planner.fits(types.SimpleNamespace(device="cuda", tensor=x))


def test_loads_a_model(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = AutoModelForCausalLM.from_pretrained("m", load_in_4bit=True)
    assert model is not None


def test_spreads_the_config():
    cfg = {"device_map": "cuda", "load_in_4bit": True}
    assert AutoModelForCausalLM.from_pretrained("m", **cfg)


def test_project_loader_without_mocks():
    assert planner.load("m", device="cuda")


def _move(device):
    return torch.zeros(1).to(device)


def test_helper_moves():
    assert _move(device="cuda").sum() == 0
