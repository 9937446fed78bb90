"""`trnready fix --write` on hostile trees (issue 18): each case is built in a temporary directory,
run through the real CLI (or the plan/write API for races), and nothing outside the tree may change."""
import json
import os
from pathlib import Path

import pytest

from conftest import run_cli

CUDA = 'import torch\nx = torch.zeros(2, device="cuda")\n'
NEURON = 'import torch\nx = torch.zeros(2, device="neuron")\n'


def snapshot(top: Path) -> dict:
    """Every file under `top` (links not followed): bytes, mode, owner, mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in filenames + dirnames:
            p = Path(dirpath) / name
            st = p.lstat()
            body = os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file() else None
            out[str(p.relative_to(top))] = (body, st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns)
    return out


@pytest.fixture
def hostile(tmp_path):
    """tmp/repo (scanned) and tmp/elsewhere (must never change), with one honest file in the repo."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (repo / "honest.py").write_text(CUDA)
    (elsewhere / "victim.py").write_text(CUDA)
    return repo, elsewhere


def test_a_file_symlink_out_of_the_tree_is_reported_not_followed(hostile):
    repo, elsewhere = hostile
    (repo / "link.py").symlink_to(Path("..") / "elsewhere" / "victim.py")
    before = snapshot(elsewhere)
    proc = run_cli("fix", "--write", repo)
    assert proc.returncode == 1, proc.stderr
    assert "link.py: not fixed: a symbolic link (to ../elsewhere/victim.py)" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert snapshot(elsewhere) == before
    assert (repo / "honest.py").read_text() == NEURON  # the rest of the run goes on
    assert (repo / "link.py").is_symlink()


def test_a_symlink_inside_the_tree_is_not_edited_either(hostile):
    repo, _ = hostile
    (repo / "alias.py").symlink_to("honest.py")
    proc = run_cli("fix", "--write", repo)
    assert "alias.py: not fixed: a symbolic link" in proc.stderr
    assert (repo / "alias.py").is_symlink() and (repo / "honest.py").read_text() == NEURON


def test_a_directory_symlink_out_of_the_tree_is_not_written_through(hostile):
    repo, elsewhere = hostile
    (repo / "sub").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(elsewhere)
    proc = run_cli("fix", "--write", repo)
    assert "victim.py: not fixed: resolves outside the scanned paths" in proc.stderr, proc.stderr
    assert snapshot(elsewhere) == before
    assert (repo / "honest.py").read_text() == NEURON


def test_a_file_swapped_for_a_symlink_after_planning_is_not_written(hostile):
    from trnready.fix import plan, write_fix

    repo, elsewhere = hostile
    target = repo / "honest.py"
    [ff] = plan([repo]).changed
    target.unlink()
    target.symlink_to(elsewhere / "victim.py")  # same bytes as what was planned
    before = snapshot(elsewhere)
    assert "symbolic link" in write_fix(ff)
    assert snapshot(elsewhere) == before and target.is_symlink()


def test_a_directory_swapped_for_a_symlink_after_planning_is_not_written(hostile):
    from trnready.fix import plan, write_fix

    repo, elsewhere = hostile
    sub = repo / "pkg"
    sub.mkdir()
    (sub / "victim.py").write_text(CUDA)
    p = plan([repo])
    ff = next(f for f in p.changed if f.rel == "pkg/victim.py")
    sub.rename(repo / "pkg_old")
    sub.symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(elsewhere)
    assert write_fix(ff) == "resolves outside the scanned paths; not edited"
    assert snapshot(elsewhere) == before


def test_a_hard_link_is_split_and_said_so(hostile):
    repo, elsewhere = hostile
    os.link(elsewhere / "victim.py", repo / "shared.py")
    before = snapshot(elsewhere)
    proc = run_cli("fix", "--write", repo)
    assert proc.returncode == 0, proc.stderr
    assert ("shared.py: note: had 2 hard links: this name now has its own rewritten copy; "
            "the other 1 keep the old content") in proc.stderr
    assert (repo / "shared.py").read_text() == NEURON and (repo / "shared.py").stat().st_nlink == 1
    assert snapshot(elsewhere) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file another owner needs root")
def test_owner_group_and_mode_are_kept(hostile):
    repo, _ = hostile
    src = repo / "owned.py"
    src.write_text(CUDA)
    os.chown(src, 12345, 23456)
    src.chmod(0o2750)  # set-group-id too: changing the owner clears it unless it is restored
    assert run_cli("fix", "--write", repo).returncode == 0
    st = src.stat()
    assert src.read_text() == NEURON
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (12345, 23456, 0o2750)


def test_no_temporary_file_is_left_and_nothing_is_written_beside_the_tree(hostile):
    repo, elsewhere = hostile
    outside_before = snapshot(repo.parent / "elsewhere")
    assert run_cli("fix", "--write", repo).returncode == 0
    assert sorted(p.name for p in repo.iterdir()) == ["honest.py"]
    assert sorted(p.name for p in repo.parent.iterdir()) == ["elsewhere", "repo"]
    assert snapshot(elsewhere) == outside_before


def test_a_notebook_with_a_non_string_source_line_is_one_file_diagnostic(hostile):
    repo, elsewhere = hostile
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nb = {"cells": [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": ["import torch\n", 5]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": ['y = torch.ones(2, device="cuda")\n']},
    ], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    (repo / "odd.ipynb").write_text(text)
    before = snapshot(elsewhere)
    proc = run_cli("fix", "--write", repo)
    assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
    assert (repo / "honest.py").read_text() == NEURON  # the run went on
    out = json.loads((repo / "odd.ipynb").read_text())
    assert out["cells"][0]["source"] == ["import torch\n", 5]  # the malformed cell is left as it was
    assert out["cells"][1]["source"] == ['y = torch.ones(2, device="neuron")\n']  # the other is fixed
    assert snapshot(elsewhere) == before


def test_an_editor_failure_is_that_file_s_diagnostic(hostile, monkeypatch):
    """Whatever goes wrong inside one file's editor stays that file's problem (in-process run)."""
    import sys

    from trnready.fix import plan

    plan_mod = sys.modules["trnready.fix.plan"]  # the module; `trnready.fix.plan` is the function
    repo, _ = hostile
    (repo / "second.py").write_text(CUDA)

    def broken(path, rel, *args):
        if rel == "honest.py":
            raise TypeError("boom")
        return real(path, rel, *args)

    real = plan_mod.EDITORS["python"]
    monkeypatch.setitem(plan_mod.EDITORS, "python", broken)
    p = plan([repo])
    by_rel = {ff.rel: ff for ff in p.files}
    assert by_rel["honest.py"].error == "internal error while rewriting (TypeError: boom); left unchanged"
    assert by_rel["second.py"].changed
