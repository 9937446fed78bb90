"""The real command line on real fixture files."""
import json
from pathlib import Path

import jsonschema
import pytest

from conftest import FIXTURES, REPO, run_cli
from expectations import actual_findings, expected_findings

SCHEMA = json.loads((REPO / "trnready" / "schema" / "report.schema.json").read_text())


def scan_json(*args, cwd=None):
    proc = run_cli("scan", "--format", "json", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, SCHEMA)
    return proc, data


def test_resolution_fixture_matches_inline_expectations():
    root = FIXTURES / "resolution"
    proc, data = scan_json(root)
    assert actual_findings(data) == expected_findings(root)


def test_syntax_errors_are_diagnostics_and_the_scan_goes_on():
    proc, data = scan_json(FIXTURES / "resolution")
    diags = {d["path"]: d for d in data["diagnostics"]}
    assert diags["pkg/broken.py"]["kind"] == "syntax-error"
    assert "line 1" in diags["pkg/broken.py"]["message"]
    assert diags["pkg/py2.py"]["kind"] == "syntax-error"
    assert "Python 2" in diags["pkg/py2.py"]["message"]
    assert data["summary"]["files_scanned"] == 4
    assert data["summary"]["files_skipped"] == 2


def test_json_fields_and_paths_are_relative_posix():
    _, data = scan_json(FIXTURES / "resolution")
    f = next(f for f in data["findings"] if f["path"] == "constants.py" and f["rule"] == "TRN242")
    assert f["line"] == 8 and f["column"] == 10 and f["end_column"] == 18
    assert f["snippet"] == 'DEVICE = "cuda:0"  # expect: TRN242'
    assert f["category"] == "cuda-device" and f["severity"] == "change" and f["confidence"] == "high"
    assert f["docs"].startswith("https://") and f["fix"] and f["source"]


def test_exit_codes_follow_fail_on(tmp_path):
    src = tmp_path / "a.py"
    src.write_text("import torch\nx = torch.zeros(2, dtype=torch.float64)\n")  # one advisory
    assert run_cli("scan", tmp_path).returncode == 0  # default gate: blocker
    assert run_cli("scan", tmp_path, "--fail-on", "advisory").returncode == 1
    assert run_cli("scan", tmp_path, "--fail-on", "change").returncode == 0
    src.write_text("import torch\nm = torch.compile(m, dynamic=True)\n")  # a blocker
    assert run_cli("scan", tmp_path).returncode == 1
    assert run_cli("scan", tmp_path, "--exit-zero").returncode == 0
    assert run_cli("scan", tmp_path, "--fail-on", "never").returncode == 0
    bad = run_cli("scan", tmp_path, "--fail-on", "sometimes")
    assert bad.returncode == 2


def test_clean_project_is_ready(tmp_path):
    (tmp_path / "ok.py").write_text('import torch\nx = torch.zeros(2).to("neuron")\n')
    proc = run_cli("scan", tmp_path)
    assert proc.returncode == 0
    assert "Verdict: ready" in proc.stdout


def test_select_and_ignore_by_id_prefix_and_category():
    root = FIXTURES / "resolution"
    _, data = scan_json(root, "--select", "upsampling")
    assert {f["rule"] for f in data["findings"]} == {"TRN191"}
    _, data = scan_json(root, "--ignore", "TRN19,cuda-device")
    rules = {f["rule"] for f in data["findings"]}
    assert "TRN191" not in rules and "TRN242" not in rules and "TRN121" in rules


def test_exclude_and_gitignore(tmp_path):
    (tmp_path / "keep.py").write_text("import flash_attn\n")
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "skip.py").write_text("import flash_attn\n")
    (tmp_path / "tools").mkdir()  # (a vendor/ directory would be guarded as vendored code)
    (tmp_path / "tools" / "lib.py").write_text("import flash_attn\n")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "x.py").write_text("import flash_attn\n")
    (tmp_path / ".gitignore").write_text("gen/\n")
    _, data = scan_json(tmp_path, "--exclude", "tools")
    assert {f["path"] for f in data["findings"]} == {"keep.py"}
    _, data = scan_json(tmp_path, "--no-gitignore")
    assert {f["path"] for f in data["findings"]} == {"keep.py", "gen/skip.py", "tools/lib.py"}


def test_build_and_dist_folders_are_skipped_unless_they_are_packages(tmp_path):
    for folder, package in (("dist", False), ("build", False), ("lib/dist", True), ("lib/build", True)):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "m.py").write_text("import flash_attn\n")
        if package:
            (tmp_path / folder / "__init__.py").write_text("")
    # (the packages are imported: a nested package nothing imports is dead code, project/unimported.py)
    (tmp_path / "train.py").write_text("import lib.dist.m\nimport lib.build.m\n")
    _, data = scan_json(tmp_path)
    assert {f["path"] for f in data["findings"]} == {"lib/dist/m.py", "lib/build/m.py"}


def test_fingerprint_survives_inserted_lines(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("import torch.nn.functional as F\ny = F.interpolate(x, mode='bilinear')\n")
    _, before = scan_json(tmp_path)
    src.write_text("import torch.nn.functional as F\n\n# a comment\nz = 1\ny = F.interpolate(x, mode='bilinear')\n")
    _, after = scan_json(tmp_path)
    assert [f["fingerprint"] for f in before["findings"]] == [f["fingerprint"] for f in after["findings"]]
    assert before["findings"][0]["line"] == 2 and after["findings"][0]["line"] == 5


def test_the_same_line_in_two_notebook_cells_has_two_fingerprints(tmp_path):
    """Repeats of identical code are numbered through the whole notebook, as in a .py file; the first copy keeps
    the fingerprint a notebook of that cell alone gives it."""
    cell = {"cell_type": "code", "metadata": {}, "source": ["import torch\n", "m = torch.nn.Linear(2, 2).cuda()\n"]}
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": [cell, cell, cell], "metadata": {}, "nbformat": 4,
                                                   "nbformat_minor": 5}))
    _, data = scan_json(tmp_path)
    prints = [f["fingerprint"] for f in data["findings"]]
    assert len(prints) == 3 and len(set(prints)) == 3
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                                   "nbformat_minor": 5}))
    _, alone = scan_json(tmp_path)
    assert [f["fingerprint"] for f in alone["findings"]] == prints[:1]


def test_output_files_and_summary(tmp_path):
    (tmp_path / "a.py").write_text("import flash_attn\n")
    out = tmp_path / "out" / "r.json"
    proc = run_cli("scan", tmp_path, "--write-format", f"json={out}", "--fail-on", "never")
    assert proc.returncode == 0
    assert "Verdict: not ready: 1 blocker" in proc.stdout
    data = json.loads(out.read_text())
    assert data["summary"]["by_severity"] == {"blocker": 1, "change": 0, "advisory": 0}
    assert data["summary"]["by_category"] == {"cuda-library": 1}


def test_rules_and_explain():
    proc = run_cli("rules", "--format", "json")
    data = json.loads(proc.stdout)
    ids = [r["id"] for r in data["rules"]]
    assert len(ids) == len(set(ids)) and "TRN191" in ids
    proc = run_cli("explain", "TRN191")
    assert proc.returncode == 0
    for heading in ("What it flags", "Why it matters", "Fix", "Example", "Use instead", "Source", "Reference"):
        assert heading in proc.stdout
    proc = run_cli("explain", "TRN000")
    assert proc.returncode == 2 and "unknown rule id" in proc.stderr


def test_version():
    proc = run_cli("--version")
    assert proc.returncode == 0 and "trnready" in proc.stdout


@pytest.mark.parametrize("body,needle", [
    ("[catalogue]\nversion = '1'\n[[rule]]\nid = 'TRN999'\n", "missing required key"),
    ("[[rule]]\nid = 'TRN999'\n", "needs a version"),
    ("[catalogue]\nversion = '1'\n[[rule]]\nid = 'TRN999'\nname='x'\ncategory='gpu'\n", "unknown category"),
    ("[catalogue\n", "invalid TOML"),
    ("[catalogue]\nversion='1'\nbogus = 1\n", None),
])
def test_bad_catalogue_is_one_clear_error(tmp_path, body, needle):
    cat = tmp_path / "bad.toml"
    cat.write_text(body)
    proc = run_cli("scan", tmp_path, "--catalogue", cat)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert str(cat) in proc.stderr
    if needle:
        assert needle in proc.stderr


def test_bad_catalogue_names_entry_key_and_line(tmp_path):
    src = (REPO / "blockers.toml").read_text()
    cat = tmp_path / "c.toml"
    cat.write_text(src.replace('category = "upsampling"', 'category = "upsampling"\ncolour = "red"', 1))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2
    line = next(i for i, l in enumerate(cat.read_text().splitlines(), 1) if l.startswith("colour"))
    assert f"{cat}:{line}" in proc.stderr and "TRN191" in proc.stderr and "'colour'" in proc.stderr


def test_reports_get_normal_file_permissions(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    out = tmp_path / "r.json"
    assert run_cli("scan", tmp_path, "--format", "json", "-o", out).returncode == 0
    assert oct(out.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    import os
    m = os.umask(0)
    os.umask(m)
    return m
