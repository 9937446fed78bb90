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


# -- item 2: the cache key holds every input of a file's result -------------------------------

def scan_json(*args, env=None):
    proc = run_cli("scan", "--format", "json", "--no-config", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    data.pop("generated_at", None)
    return proc.returncode, data


def test_cache_sees_a_change_in_an_included_requirements_file(tmp_path):
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    (repo / "deps").mkdir(parents=True)
    (repo / "requirements.txt").write_text("-r deps/common.pip\n-c constraints/pins.txt\nnumpy\n")
    (repo / "deps" / "common.pip").write_text("requests\n")
    env = {"TRNREADY_CACHE_DIR": str(cache)}
    assert scan_json(repo, env=env)[0] == 0
    (repo / "deps" / "common.pip").write_text("requests\nflash-attn==2.5.0\n")
    code, warm = scan_json(repo, env=env)
    cold_code, cold = scan_json(repo, "--no-cache")
    assert (code, warm["findings"]) == (cold_code, cold["findings"]) and code == 1
    # a constraints file that was missing appears: the missing-include diagnostic goes away
    assert any(d["kind"] == "missing-include" for d in warm["diagnostics"])
    (repo / "constraints").mkdir()
    (repo / "constraints" / "pins.txt").write_text("requests<3\n")
    code, warm = scan_json(repo, env=env)
    assert not any(d["kind"] == "missing-include" for d in warm["diagnostics"])
    assert warm["diagnostics"] == scan_json(repo, "--no-cache")[1]["diagnostics"]
    # an edit two includes deep is seen too
    (repo / "deps" / "common.pip").write_text("-r more.pip\n")
    (repo / "deps" / "more.pip").write_text("requests\n")
    assert scan_json(repo, env=env)[0] == 0
    (repo / "deps" / "more.pip").write_text("flash-attn\n")
    assert scan_json(repo, env=env)[0] == 1


def test_cache_entries_of_the_wrong_shape_are_misses(tmp_path):
    import sqlite3

    repo, cache = tmp_path / "repo", tmp_path / "cache"
    repo.mkdir()
    (repo / "train.py").write_text('import torch\nx = torch.randn(2).cuda()\n')
    (repo / "requirements.txt").write_text("flash-attn\n")
    env = {"TRNREADY_CACHE_DIR": str(cache)}
    expected = scan_json(repo, "--no-cache")
    shapes = ['{"findings": [{"rule": 1}], "diag": null}', '[]', '{"findings": 5, "diag": null}',
              '{"findings": [], "diag": {"path": 1, "kind": [], "message": null}}', '"text"', 'null',
              ]
    for shape in shapes:
        assert scan_json(repo, env=env) == expected  # fills the cache
        (db,) = cache.glob("results-v*.sqlite")
        with sqlite3.connect(db) as con:
            rows = con.execute("SELECT key, data FROM results").fetchall()
            for key, data in rows:
                entry = json.loads(data)
                if entry["findings"]:  # the same entry with one field of the wrong type
                    entry["findings"][0]["line"] = "3"
                    con.execute("UPDATE results SET data = ? WHERE key = ?", (json.dumps(entry), key))
                    break
            con.execute("UPDATE results SET data = ? WHERE key <> ?", (shape, key))
            con.execute("UPDATE stats SET data = ?", ('{"digest": 7, "mentions": [[1]]}',))
        assert scan_json(repo, env=env) == expected
