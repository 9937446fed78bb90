"""Slow tier: the whole standard library of the running Python, end to end through the CLI."""
import json
import sysconfig
from pathlib import Path

import pytest

from conftest import run_cli


@pytest.mark.slow
def test_scan_the_standard_library(tmp_path):
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out = tmp_path / "stdlib.json"
    proc = run_cli("scan", stdlib, "--no-gitignore", "--no-cache", "--no-prefilter", "--format", "json",
                   "--output", out, "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    data = json.loads(out.read_text())
    py_files = [p for p in stdlib.rglob("*.py")
                if not any(part in {"site-packages", "__pycache__", "dist-packages", "build", "dist"}
                           or part.startswith(".") for part in p.relative_to(stdlib).parts[:-1])]
    accounted = data["summary"]["files_scanned"] + data["summary"]["files_skipped"]
    assert data["summary"]["files_scanned"] > 1000
    assert accounted >= len(py_files) * 0.95, (accounted, len(py_files))
    assert not [d for d in data["diagnostics"] if d["kind"] == "internal-error"]
    # Bad-syntax test files in lib2to3/test data are expected to be diagnosed, not to crash.
    assert all(d["message"] for d in data["diagnostics"])
