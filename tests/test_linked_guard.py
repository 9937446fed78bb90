"""A linked finding (placed at the call where the value enters) is guarded by the guards of that place."""
import json

from conftest import run_cli

OPS = '''import torch.nn.functional as F


def resize(x, size, mode="nearest"):
    return F.interpolate(x, size, mode=mode)
'''
TEST = '''import pytest
import torch

from pkg.ops import resize


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_resize_gpu():
    x = torch.randn(1, 3, 8, 8, device="cuda")
    assert resize(x, 16, mode="bilinear").shape[-1] == 16


def test_resize(device):
    x = torch.randn(1, 3, 8, 8, device=device)
    assert resize(x, 16, mode="bicubic").shape[-1] == 16
'''


def test_a_linked_finding_in_a_test_skipped_without_cuda_is_guarded(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ops.py").write_text(OPS)
    # (a check script outside the tests: an operation in a test file beside project code is guarded whatever its
    # skips, policy s23, and this test is about the skip)
    (tmp_path / "checks").mkdir()
    (tmp_path / "checks" / "ops_checks.py").write_text(TEST)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["guarded"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]
           if f["rule"] == "TRN191"]
    assert got == [(10, True, "neuron-guarded"), (15, False, None)]


def test_the_guard_of_a_linked_finding_is_remembered_across_runs_and_follows_an_edit(tmp_path):
    """The answer is kept in the result cache under the file's text: a warm re-scan gives the same guards,
    and an edit that removes the skip makes the finding unguarded again."""
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "ops.py").write_text(OPS)
    (repo / "checks").mkdir()
    test = repo / "checks" / "ops_checks.py"
    test.write_text(TEST)

    def guards():
        proc = run_cli("scan", ".", "--format", "json", "--cache-dir", cache, "--show-guarded", cwd=repo)
        assert proc.returncode in (0, 1), proc.stderr
        return [(f["line"], f["guarded"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN191"]

    assert guards() == [(10, True), (15, False)]
    assert guards() == [(10, True), (15, False)]
    # the same places, the skip gone: a remembered answer keyed by place alone would still say guarded
    test.write_text(TEST.replace('@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")', ""))
    assert guards() == [(10, False), (15, False)]
