"""A variable of the project's own that a child process copies into CUDA_VISIBLE_DEVICES is the CUDA device list:
the parent's lines setting it are TRN245 (project/relayed_env.py)."""
import json

from conftest import run_cli

CHILD = """import os

if "_GPU_LIST" in os.environ:
    os.environ["CUDA_VISIBLE_DEVICES"] = os.environ["_GPU_LIST"]

import torch
"""

PARENT = """import os
import subprocess
import sys


def start_worker(gpus, part):
    os.environ["_GPU_LIST"] = gpus
    env = dict(os.environ, **{"_GPU_LIST": gpus, "PART": str(part)})
    os.environ.update(_GPU_LIST=gpus)
    if "_GPU_LIST" in os.environ:
        print(os.environ["_GPU_LIST"])
    os.environ["_OTHER"] = gpus
    return subprocess.Popen([sys.executable, "worker.py"], env=env)
"""


def _scan(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"]) for f in json.loads(proc.stdout)["findings"]
            if f["rule"] == "TRN245"]


def test_the_parent_lines_that_set_the_relay_are_reported(tmp_path):
    (tmp_path / "worker.py").write_text(CHILD)
    (tmp_path / "launcher.py").write_text(PARENT)
    # set (7), a dict key (8), an update keyword (9); a membership test and a read (10, 11) and another name (12)
    # set nothing
    assert _scan(tmp_path) == [
        ("launcher.py", 7, 17, "TRN245"),
        ("launcher.py", 8, 32, "TRN245"),
        ("launcher.py", 9, 23, "TRN245"),
        ("worker.py", 4, 16, "TRN245"),
    ]


def test_no_relay_no_finding(tmp_path):
    (tmp_path / "worker.py").write_text(CHILD.replace('os.environ["_GPU_LIST"]', '"0"'))
    (tmp_path / "launcher.py").write_text(PARENT)
    assert _scan(tmp_path) == [("worker.py", 4, 16, "TRN245")]
