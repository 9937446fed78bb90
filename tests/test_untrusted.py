"""Hostile repositories (issue 18): each test builds the attack in a temporary directory and checks
that trnready runs nothing the repository configures, writes nothing outside, and turns the bad
input into a diagnostic or a one-line error."""
import json
import os
import shutil
import stat
import subprocess
import textwrap

import pytest

from conftest import run_cli

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                    "-c", "core.hooksPath=/dev/null", *args], cwd=cwd, check=True, capture_output=True)


# -- item 3: --changed-since runs nothing the scanned repository configures --------------------

@needs_git
def test_changed_since_runs_no_command_from_the_repository_config(tmp_path):
    marker = tmp_path / "marker"
    hook = tmp_path / "hook.sh"
    hook.write_text(f'#!/bin/sh\necho "$0 $*" >> {marker}\ncat\n')
    hook.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("post-index-change", "post-checkout", "pre-commit", "reference-transaction", "fsmonitor-watchman"):
        shutil.copy(hook, hooks / name)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "a.py").write_text("import torch\n")
    (repo / "b.py").write_text("x = 1\n")
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n*.py filter=Other.Name\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    h = str(hook)
    for key, value in [("core.fsmonitor", h), ("filter.evil.clean", h), ("filter.evil.smudge", h),
                       ("filter.evil.process", h), ("filter.evil.required", "true"),
                       ("filter.Other.Name.clean", h), ("diff.external", h), ("diff.evil.textconv", h),
                       ("diff.evil.command", h), ("core.pager", h), ("pager.diff", h), ("core.hooksPath", str(hooks)),
                       ("core.sshCommand", h), ("credential.helper", h), ("core.askPass", h)]:
        git(repo, "config", key, value)
    (repo / "a.py").write_text("import torch\nimport flash_attn\n")  # changed, same directory
    os.utime(repo / "b.py", (1, 1))  # stat-dirty, content unchanged: git would re-hash it through the filter
    (repo / "new.py").write_text("import flash_attn\n")
    proc = run_cli("scan", "--format", "json", "--no-config", "--no-cache", repo, "--changed-since", "base")
    assert proc.returncode == 1, proc.stderr
    assert sorted({f["path"] for f in json.loads(proc.stdout)["findings"]}) == ["a.py", "new.py"]
    assert not marker.exists(), marker.read_text()
