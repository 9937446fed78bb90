"""Hostile inputs, read-only trees, interrupted runs: trnready must never crash, hang or write into the tree."""
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import REPO, run_cli

GOOD = "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bilinear')\n"


def build_hostile_tree(root: Path) -> dict:
    """Every kind of bad input the issue lists, each mentioning `cuda` so the prefilter lets it through.

    Returns the expected diagnostic kind per relative path.
    """
    expected = {}
    (root / "good.py").write_text(GOOD)
    (root / "syntax.py").write_text("def f(:\n    x.cuda()\n")
    expected["syntax.py"] = "syntax-error"
    # (print statements alone are read as calls: test_python2_scripts.py; backticks are not)
    (root / "py2.py").write_text('print `hi`\nx.cuda()\n')
    expected["py2.py"] = "syntax-error"
    (root / "undecodable.py").write_bytes(b"x = '\xff\xfe\xfa'\ny.cuda()\n")
    expected["undecodable.py"] = "undecodable"
    (root / "latin1.py").write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\nm = model.cuda()\n")
    (root / "bom.py").write_bytes(b"\xef\xbb\xbfm = model.cuda()\n")
    (root / "nul.py").write_bytes(b"m = model.cuda()\x00\n")
    expected["nul.py"] = "binary"
    (root / "binary.py").write_bytes(bytes(range(256)) * 64 + b"cuda")
    expected["binary.py"] = "binary"
    with open(root / "huge.py", "wb") as fh:  # 50 MB generated file
        line = b"x = model.cuda()  # generated\n"
        fh.write(line * (50 * 1024 * 1024 // len(line) + 1))
    expected["huge.py"] = "too-large"
    (root / "deep_parens.py").write_text("y = " + "(" * 10000 + "x.cuda()" + ")" * 10000 + "\n")
    expected["deep_parens.py"] = "syntax-error"
    (root / "deep_ops.py").write_text("y = " + " + ".join(["x.cuda()"] * 10000) + "\n")
    (root / "deep_blocks.py").write_text(
        "".join("    " * i + "if x:\n" for i in range(95)) + "    " * 95 + "x.cuda()\n")
    (root / "empty.py").write_text("")
    os.symlink(root / "missing-target.py", root / "broken_link.py")
    expected["broken_link.py"] = "broken-symlink"
    (root / "loop").mkdir()
    os.symlink(root / "loop", root / "loop" / "again")
    expected["loop/again"] = "symlink-loop"
    (root / "notjson.ipynb").write_text("not json { x.cuda()")
    expected["notjson.ipynb"] = "malformed-notebook"
    (root / "strsource.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                   "source": "import torch\nx = torch.zeros(2).cuda()\n"}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    (root / "sub").mkdir()
    (root / "sub" / "pyproject.toml").write_text('[project\nname = "x"\ndependencies = ["flash-attn"]\n')
    expected["sub/pyproject.toml"] = "syntax-error"
    return expected


def tree_state(root: Path) -> dict:
    state = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            digest = ""
            if stat.S_ISREG(st.st_mode):
                digest = hashlib.sha256(p.read_bytes()).hexdigest()
            state[str(p.relative_to(root))] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return state


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    return root, build_hostile_tree(root)


def _json(proc):
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.strip(), f"no output (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(proc.stdout)


def test_every_bad_file_is_a_diagnostic_and_the_rest_is_scanned(hostile):
    root, expected = hostile
    before = tree_state(root)
    proc = run_cli("scan", root, "--format", "json", "--no-cache")
    data = _json(proc)
    diags = {d["path"]: d for d in data["diagnostics"]}
    for rel, kind in expected.items():
        assert rel in diags, f"{rel}: no diagnostic; got {sorted(diags)}"
        assert diags[rel]["kind"] == kind, diags[rel]
        assert diags[rel]["message"]
    # Good files, including the latin-1 cookie, BOM, deeply nested and empty ones, are scanned.
    paths = {f["path"] for f in data["findings"]}
    assert {"good.py", "latin1.py", "bom.py", "deep_blocks.py", "strsource.ipynb"} <= paths
    assert "deep_ops.py" in paths or diags.get("deep_ops.py", {}).get("kind") == "too-complex"
    latin = next(f for f in data["findings"] if f["path"] == "latin1.py")
    assert latin["line"] == 3
    # Exit code is decided by findings only: the bilinear blocker in good.py.
    assert proc.returncode == 1
    assert tree_state(root) == before, "scanning changed the tree"


def test_diagnostics_do_not_change_the_exit_code_but_strict_does(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def f(:\n  t.cuda()\n")
    assert run_cli("scan", tmp_path).returncode == 0
    proc = run_cli("scan", tmp_path, "--strict")
    assert proc.returncode == 2 and "could not be scanned" in proc.stderr


def test_same_findings_for_every_jobs_value_and_with_cache(hostile):
    root, _ = hostile
    outs = []
    for args in (["--jobs", "1", "--no-cache"], ["--jobs", "2", "--no-cache"], ["--jobs", "2"], ["--jobs", "2"]):
        outs.append(_json(run_cli("scan", root, "--format", "json", "--exclude", "huge.py", *args)))
    first = outs[0]
    for other in outs[1:]:
        assert other["findings"] == first["findings"]
        assert other["diagnostics"] == first["diagnostics"]


def test_read_only_tree(hostile, tmp_path):
    root, _ = hostile
    copy = tmp_path / "ro"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns("huge.py"))
    for dirpath, dirnames, filenames in os.walk(copy):
        for name in filenames:
            p = Path(dirpath) / name
            if not p.is_symlink():
                os.chmod(p, 0o444)
        os.chmod(dirpath, 0o555)
    try:
        before = tree_state(copy)
        proc = run_cli("scan", copy, "--format", "json")
        data = _json(proc)
        assert any(f["path"] == "good.py" for f in data["findings"])
        assert tree_state(copy) == before
    finally:
        for dirpath, _, _ in os.walk(copy):
            os.chmod(dirpath, 0o755)


def _nobody_can_run_trnready(tmp: Path) -> bool:
    probe = subprocess.run(["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", sys.executable,
                            "-c", "import trnready.cli"], env=dict(os.environ, PYTHONPATH=str(REPO)),
                           capture_output=True, cwd=tmp)
    return probe.returncode == 0


def test_permission_denied_file_and_directory():
    """Unreadable files and directories become diagnostics.

    As root, permissions do not apply, so the scan runs as `nobody` (setpriv) when
    that user can run this checkout; otherwise the unreadable file is one that
    fails to read for any user (/proc/self/mem, EIO), which exercises the same path.
    """
    tmp = Path(tempfile.mkdtemp(prefix="trnready-perm-"))
    os.chmod(tmp, 0o755)
    try:
        (tmp / "ok.py").write_text(GOOD)
        (tmp / "secret.py").write_text("x.cuda()\n")
        os.chmod(tmp / "secret.py", 0o000)
        (tmp / "private").mkdir()
        (tmp / "private" / "a.py").write_text("x.cuda()\n")
        os.chmod(tmp / "private", 0o000)
        os.chmod(tmp / "ok.py", 0o644)
        cmd = [sys.executable, "-m", "trnready", "scan", str(tmp), "--format", "json", "--no-cache"]
        env = dict(os.environ, PYTHONPATH=str(REPO))
        expect_dir = True
        if os.geteuid() == 0:
            if shutil.which("setpriv") and _nobody_can_run_trnready(tmp):
                cmd = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] + cmd
            else:
                os.symlink("/proc/self/mem", tmp / "mem.py")
                expect_dir = False
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp, timeout=300)
        data = _json(proc)
        diags = {d["path"]: d for d in data["diagnostics"]}
        assert any(f["path"] == "ok.py" for f in data["findings"])
        if expect_dir:
            assert diags["secret.py"]["kind"] == "unreadable" and "permission" in diags["secret.py"]["message"]
            assert diags["private"]["kind"] == "unreadable"
        else:
            assert diags["mem.py"]["kind"] == "unreadable"
        assert proc.returncode == 1
    finally:
        for p in (tmp / "private", tmp / "secret.py"):
            os.chmod(p, 0o755)
        shutil.rmtree(tmp, ignore_errors=True)


def test_terminal_output_never_prints_control_characters(tmp_path):
    (tmp_path / "evil.py").write_text("x.cuda()  # \x1b[2J\x1b]0;pwned\x07 \u202e reversed\n")
    (tmp_path / "ev\x1bil.py").write_text("y.cuda()\n")
    proc = run_cli("scan", tmp_path, "--color")
    assert "\x1b[2J" not in proc.stdout and "\x1b]0" not in proc.stdout and "\u202e" not in proc.stdout
    assert "\\x1b[2J" in proc.stdout
    assert "ev\\x1bil.py" in proc.stdout


def _big_tree(root: Path, n: int = 1500) -> None:
    body = GOOD * 300  # ~600 lines: the whole tree takes several seconds to scan
    for i in range(n):
        (root / f"m{i:04d}.py").write_text(body)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_exits_130_and_keeps_the_previous_report(tmp_path, sig):
    src = tmp_path / "src"
    src.mkdir()
    _big_tree(src)
    out = tmp_path / "report.json"
    out.write_text("PREVIOUS")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "trnready", "scan", str(src), "--format", "json", "--no-cache",
                             "--jobs", "2", "--output", str(out)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    assert proc.poll() is None, "the scan finished before it could be interrupted; make the tree bigger"
    proc.send_signal(sig)
    start = time.monotonic()
    stdout, stderr = proc.communicate(timeout=60)
    elapsed = time.monotonic() - start
    assert proc.returncode == 130, (proc.returncode, stderr[-2000:])
    assert stderr.strip() == "trnready: interrupted", stderr[-2000:]
    assert out.read_text() == "PREVIOUS"
    assert elapsed < 10
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


_SWALLOWED_STOP = """
import os, signal, sys, time
from trnready import cli
cli._install_stop_handlers()

class Dropper:
    def __del__(self):  # exceptions raised here are printed and dropped by the interpreter
        os.kill(os.getpid(), signal.SIG{name})
        for _ in range(100000):
            pass

try:
    d = Dropper()
    del d
    time.sleep(3)
    print("kept running")
except KeyboardInterrupt:
    print("stopped")
"""


@pytest.mark.parametrize("name", ["INT", "TERM"])
def test_a_stop_signal_in_code_whose_exceptions_are_dropped_still_stops_the_run(name):
    # CI met this in the pool's at-fork callback: the KeyboardInterrupt was printed as a traceback and lost.
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", _SWALLOWED_STOP.replace("{name}", name)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert (proc.stdout, proc.stderr) == ("stopped\n", "")


def test_unexpected_internal_error_is_a_diagnostic_and_the_scan_continues(tmp_path, monkeypatch):
    from trnready import api
    from trnready.readers import python as python_reader

    (tmp_path / "a.py").write_text("x.cuda()\n")
    (tmp_path / "b.py").write_text("boom = y.cuda()\n")
    real = python_reader.scan_python

    def flaky(text, rel, engine, cell=None, tree=None):
        if "boom" in text:
            raise KeyError("simulated bug")
        return real(text, rel, engine, cell=cell, tree=tree)

    monkeypatch.setattr(python_reader, "scan_python", flaky)
    report = api.scan([tmp_path], api.Config(cache=False, jobs=1))
    kinds = {d.path: d for d in report.diagnostics}
    assert kinds["b.py"].kind == "internal-error" and "python reader" in kinds["b.py"].message
    assert [f.path for f in report.findings] == ["a.py"]


def test_large_nested_file_does_not_crash_the_process(tmp_path):
    depth = 3000
    (tmp_path / "lists.py").write_text("x = " + "[" * 90 + "t.cuda()" + "]" * 90 + "\n")
    (tmp_path / "calls.py").write_text("y = " + "f(" * 150 + "t.cuda()" + ")" * 150 + "\n")
    (tmp_path / "chain.py").write_text("z = t" + ".cuda()" * depth + "\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    data = _json(proc)
    seen = {f["path"] for f in data["findings"]} | {d["path"] for d in data["diagnostics"]}
    assert seen == {"lists.py", "calls.py", "chain.py"}


def test_directory_symlink_into_the_scanned_tree_is_scanned_once(tmp_path):
    """`docs/examples -> ../examples` lists the same notebooks again: each file is scanned under its real
    path only. A symlink to a folder outside what is scanned is still followed."""
    import json

    from conftest import run_cli

    (tmp_path / "repo" / "examples").mkdir(parents=True)
    (tmp_path / "repo" / "examples" / "xla.py").write_text("import torch_xla\n")
    (tmp_path / "repo" / "docs").mkdir()
    os.symlink("../examples", tmp_path / "repo" / "docs" / "examples")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "gpu.py").write_text("import torch_xla\n")
    os.symlink("../shared", tmp_path / "repo" / "shared")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path / "repo")
    assert sorted(f["path"] for f in json.loads(proc.stdout)["findings"]) == ["examples/xla.py", "shared/gpu.py"]


def test_a_stop_signal_arms_a_bounded_exit_for_a_clean_up_that_hangs():
    # SIGTERM / Ctrl-C raise KeyboardInterrupt for the clean-up, and arm SIGALRM: if that clean-up hangs (a pool's
    # manager thread waiting on a half-sent result), the process still exits with 130 a few seconds later
    from trnready import cli

    previous = signal.getsignal(signal.SIGALRM)
    try:
        with pytest.raises(KeyboardInterrupt):
            cli._on_stop_signal(signal.SIGTERM, None)
        remaining = signal.alarm(0)
        assert 0 < remaining <= cli._STOP_GRACE
        assert signal.getsignal(signal.SIGALRM) is cli._on_grace_over
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
