import os
import subprocess
import unittest
from unittest.mock import patch

from proj.gpus import child_env, visible_ids


def test_reads_the_mask(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1,3")
    assert visible_ids() == [1, 3]


def test_no_mask(monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    assert visible_ids() == []


def test_child_env_hides_gpus():
    env = {"PATH": "/usr/bin"}
    child_env(env)
    assert env["CUDA_VISIBLE_DEVICES"] == "-1"


def test_scrub_keeps_the_mask():
    raw = {"HF_TOKEN": "x", "CUDA_VISIBLE_DEVICES": "0"}
    assert "HF_TOKEN" not in child_env(raw)


class TestMask(unittest.TestCase):
    @patch.dict(os.environ, {"CUDA_VISIBLE_DEVICES": "2"})
    def test_decorated(self):
        self.assertEqual(visible_ids(), [2])

    def test_message(self):
        self.assertIn("CUDA_VISIBLE_DEVICES", child_env({}).get("hint", ""))


def test_runs_on_gpu_zero():
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"
    subprocess.run(["python", "train.py"], env={"CUDA_VISIBLE_DEVICES": "0"}, check=True)


def test_launches_two_gpus():
    env = {"CUDA_VISIBLE_DEVICES": "0,1"}
    subprocess.run(["torchrun", "train.py"], env=env, check=True)
    os.environ.update({"CUDA_VISIBLE_DEVICES": "0"})
