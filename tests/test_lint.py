"""ruff and mypy run on the code with zero errors (configured in pyproject.toml), so CI runs them."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("cmd", [["ruff", "check", "trnready", "bench", "scripts"], ["mypy"]], ids=["ruff", "mypy"])
def test_tool_reports_no_errors(cmd):
    exe = BIN / cmd[0]
    assert exe.exists(), f"{exe} missing: install the test extra (pip install -e '.[test]')"
    proc = subprocess.run([str(exe), *cmd[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"
