"""test-cpu-fallback and the test-reference-dtype link step (policies of sessions 22, 23): no migration items."""
import json

from conftest import run_cli
from trnready import context


def test_registered_as_a_guard():
    p = context.get("test-cpu-fallback")
    assert p.effect == "guard"


def _scan(tmp_path, files):
    for rel, code in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]


PICKS = '''import pytest
import torch

DEV = "cuda" if torch.cuda.is_available() else "cpu"
BOTH = torch.device("cuda:0") if torch.cuda.is_available() else torch.device("cuda:1")


def needs_gpu(fn):
    return pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU")(fn)


def test_count():
    if torch.cuda.device_count() >= 2:
        ids = [0, 1]
    else:
        ids = [-1]
    assert ids


def test_refuses():
    if not torch.cuda.is_available():
        raise RuntimeError("needs a GPU")
    assert torch.cuda.device_count() > 0
'''


def test_picks_in_tests_are_guarded_and_requirements_stay(tmp_path):
    got = _scan(tmp_path, {"tests/test_picks.py": PICKS})
    by_line = {(line, rule): guard for _, line, rule, guard in got}
    assert {guard for (line, _), guard in by_line.items() if line == 4} == {"test-cpu-fallback"}
    assert by_line[(9, "TRN243")] == "test-cpu-fallback"  # the condition of the project's own skip helper
    assert by_line[(13, "TRN243")] != ""  # a count with a CPU arm
    assert by_line[(21, "TRN243")] == ""  # the test raises without CUDA: it fails on Neuron
    assert by_line[(23, "TRN243")] == ""  # asserted, not a pick
    assert by_line.get((5, "TRN242")) != "test-cpu-fallback"  # two CUDA layouts: no CPU arm


def test_same_pick_in_a_program_stays(tmp_path):
    code = 'import torch\nDEV = "cuda" if torch.cuda.is_available() else "cpu"\nnet = torch.nn.Linear(2, 2).to(DEV)\n'
    got = _scan(tmp_path, {"train.py": code})
    assert [g for path, line, _, g in got if line == 2] and all(g == "" for _, line, _, g in got if line == 2)


def test_a_notebook_named_like_a_test_is_no_test(tmp_path):
    # PyTorch-Architectures' `test_sample_ResNet18.ipynb` (blind81) trains the model: no runner collects a notebook,
    # so its pick silently trains on the CPU on Neuron and stays a finding; the same cell in a test module is guarded
    cell = 'import torch\ndevice = torch.device("cuda" if torch.cuda.is_available() else "cpu")\nnet = torch.nn.Linear(2, 2).to(device)\n'
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": cell.splitlines(keepends=True)}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    got = _scan(tmp_path, {"modeling_ResNet/test_sample_ResNet18.ipynb": json.dumps(nb),
                           "tests/test_resnet.py": cell})
    assert {(path, rule, guard) for path, _, rule, guard in got} == {
        ("modeling_ResNet/test_sample_ResNet18.ipynb", "TRN242", ""),
        ("tests/test_resnet.py", "TRN242", "test-cpu-fallback")}


DOUBLE = 'import torch\n\n\ndef test_ref():\n    x = torch.ones(3, dtype=torch.float64, device="cuda")\n    assert x.sum()\n'


def test_float64_in_tests_guarded_beside_project_code(tmp_path):
    got = _scan(tmp_path, {"tests/test_ref.py": DOUBLE, "pkg/model.py": "import torch\n\nW = torch.ones(2)\n"})
    assert ("tests/test_ref.py", 5, "TRN121", "test-reference-dtype") in got


def test_float64_stays_when_tests_are_the_only_code(tmp_path):
    got = _scan(tmp_path, {"tests/test_ref.py": DOUBLE})
    assert ("tests/test_ref.py", 5, "TRN121", "") in got


# session 23: the operation categories of a test exercise the project's own function, reported where it lives
OPERATIONS = '''import torch
import torch.nn.functional as F


def test_ops(batch):
    x = batch.to("cuda")
    idx = torch.nonzero(x > 1)
    s = torch.sparse_coo_tensor(idx.t(), x[:2], (4,))
    y = F.interpolate(x, scale_factor=2, mode="bilinear")
    assert idx.numel() and s is not None and y is not None
'''


def test_operations_in_tests_guarded_beside_project_code(tmp_path):
    got = _scan(tmp_path, {"tests/test_ops.py": OPERATIONS, "pkg/model.py": "import torch\n\nW = torch.ones(2)\n"})
    mine = {(line, rule): guard for path, line, rule, guard in got if path == "tests/test_ops.py"}
    assert mine[(7, "TRN104")] == "test-exercised-operation"
    assert mine[(8, "TRN141")] == "test-exercised-operation"
    assert mine[(9, "TRN191")] == "test-exercised-operation"
    assert mine[(6, "TRN242")] == ""  # the unconditional "cuda" fails on Neuron: still a finding


def test_operations_stay_when_tests_are_the_only_code(tmp_path):
    got = _scan(tmp_path, {"tests/test_ops.py": OPERATIONS})
    mine = {(line, rule): guard for path, line, rule, guard in got}
    assert mine[(7, "TRN104")] == "" and mine[(8, "TRN141")] == "" and mine[(9, "TRN191")] == ""
