"""--changed-since REF in a throwaway git repository."""
import json
import subprocess

import pytest

from conftest import run_cli


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                    *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "old.py").write_text("import flash_attn\n")
    (tmp_path / "edited.py").write_text("x = 1\n")
    (tmp_path / "gone.py").write_text("import flash_attn\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "staged.py").write_text("x = 1\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    git(tmp_path, "tag", "base")
    (tmp_path / "edited.py").write_text("import flash_attn\n")
    (tmp_path / "gone.py").unlink()
    (tmp_path / "sub" / "staged.py").write_text('import torch\nd = torch.device("cuda")\n')
    git(tmp_path, "add", "sub/staged.py")
    (tmp_path / "new.py").write_text("import flash_attn\n")
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "ignored.py").write_text("import flash_attn\n")
    return tmp_path


def paths(proc):
    assert proc.returncode in (0, 1), proc.stderr
    return sorted({f["path"] for f in json.loads(proc.stdout)["findings"]})


def status(repo):
    return subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout


def test_only_changed_and_untracked_files_are_scanned(repo):
    before = status(repo)
    proc = run_cli("scan", "--format", "json", "--no-config", repo, "--changed-since", "base")
    assert paths(proc) == ["edited.py", "new.py", "sub/staged.py"]
    assert status(repo) == before  # read-only
    # paths stay relative to the scan root, so fingerprints match a full scan's
    full = json.loads(run_cli("scan", "--format", "json", "--no-config", repo).stdout)
    part = json.loads(proc.stdout)
    fp = {f["fingerprint"] for f in full["findings"]}
    assert {f["fingerprint"] for f in part["findings"]} <= fp


def test_after_commit_nothing_changed_since_head(repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    proc = run_cli("scan", "--format", "json", "--no-config", repo, "--changed-since", "HEAD")
    assert paths(proc) == []
    assert json.loads(proc.stdout)["summary"]["files_scanned"] == 0
    proc = run_cli("scan", "--format", "json", "--no-config", repo, "--changed-since", "HEAD~1")
    assert paths(proc) == ["edited.py", "new.py", "sub/staged.py"]


def test_subdirectory_scan_and_exit_code(repo):
    proc = run_cli("scan", "--format", "json", "--no-config", repo / "sub", "--changed-since", "base")
    assert paths(proc) == ["staged.py"]
    assert run_cli("scan", "--no-config", repo / "sub", "--changed-since", "base").returncode == 0
    assert run_cli("scan", "--no-config", repo, "--changed-since", "base").returncode == 1


def test_unknown_ref_is_exit_2(repo):
    proc = run_cli("scan", "--no-config", repo, "--changed-since", "no-such-ref")
    assert proc.returncode == 2 and "unknown git ref 'no-such-ref'" in proc.stderr
    proc = run_cli("scan", "--no-config", repo, "--changed-since=--output=/tmp/x")
    assert proc.returncode == 2 and "not a git ref" in proc.stderr


def test_outside_a_git_repo_falls_back_to_a_full_scan_with_a_warning(tmp_path):
    (tmp_path / "a.py").write_text("import flash_attn\n")
    proc = run_cli("scan", "--format", "json", "--no-config", tmp_path, "--changed-since", "main",
                   env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert "warning: --changed-since ignored" in proc.stderr and "scanning everything" in proc.stderr
    assert paths(proc) == ["a.py"]


def test_changed_since_with_a_baseline(repo):
    base = repo.parent / "base.json"
    run_cli("baseline", "create", repo, "-o", base, "--no-config")
    # A new library: a further import of flash_attn would fold into the known finding (one per library per file).
    (repo / "edited.py").write_text("import flash_attn\nimport apex\n")
    proc = run_cli("scan", "--format", "json", "--no-config", repo, "--changed-since", "base", "--baseline", base)
    data = json.loads(proc.stdout)
    assert [(f["path"], f["line"]) for f in data["findings"]] == [("edited.py", 2)]
    assert "resolved" not in data["summary"]["baseline"]  # a partial scan cannot tell what was fixed
