import os
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest

# Keep the suite's result cache out of the user's cache directory (and fresh per run).
os.environ.setdefault("TRNREADY_CACHE_DIR", tempfile.mkdtemp(prefix="trnready-test-cache-"))

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run_cli(*args, cwd=None, env=None):
    """Run the real command line in a subprocess, as a user would."""
    full_env = dict(os.environ)
    full_env.pop("FORCE_COLOR", None)
    # Always run this checkout's package, whatever the working directory or installed copies.
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "trnready", *map(str, args)], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def cli():
    return run_cli


CONTEXT_FIXTURES = Path(__file__).resolve().parent / "context_fixtures"


def write(root, rel, text):
    """Write a dedented fixture file under `root` (parents created); the path."""
    import textwrap
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


def scan_findings(path, *args):
    """Scan `path` with the real CLI (JSON); (path, line, column, rule, message, guarded) per finding."""
    import json
    proc = run_cli("scan", path, "--format", "json", "--no-cache", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f["guarded"])
            for f in json.loads(proc.stdout)["findings"]]

# Fixture sources are scanned, never collected (some are named like the test files they imitate).
collect_ignore_glob = ["context_fixtures/*", "fixtures/*"]


def guard_reasons(path) -> set:
    """The `guarded_by` values of a scan of `path` with guarded findings listed ("" for findings not guarded)."""
    import json

    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return {f.get("guarded_by", "") for f in json.loads(proc.stdout)["findings"]}


def guarded_rows(tree, *args):
    """Scan `tree` through the CLI with guarded findings listed: sorted (path, line, column, rule, guarded_by)."""
    import json

    proc = run_cli("scan", tree, "--format", "json", "--no-cache", "--show-guarded", *args)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return sorted((f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by", "")) for f in report["findings"])
