"""Notebook cells that loop with `enumerate` and bind the loop's names again in later cells are read without an
internal error (host-built-value binds the count of `for k, x in enumerate(xs)` to the call, a node with a
position), and their `.cuda()` calls are reported."""
import json

from conftest import FIXTURES, run_cli


def test_enumerate_loops_across_cells_scan_cleanly():
    proc = run_cli("scan", FIXTURES / "notebook_enumerate", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    got = sorted((f["path"], f["rule"]) for f in report["findings"] if f["rule"] == "TRN241")
    assert got and all(p == "plots.ipynb" for p, _ in got)
