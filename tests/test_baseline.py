"""Baselines: create, then scan --baseline reports and gates only new findings."""
import json

from conftest import run_cli

SCHEMA = json.loads((__import__("conftest").REPO / "trnready" / "schema" / "report.schema.json").read_text())


def make(tmp_path):
    src = tmp_path / "proj"
    src.mkdir()
    (src / "train.py").write_text("import torch\nimport flash_attn\nm = torch.compile(m, dynamic=True, backend='neuron')\n")
    (src / "util.py").write_text('import torch\nd = torch.device("cuda")\n')
    return src


def test_round_trip_survives_inserted_lines_and_gates_only_new_findings(tmp_path):
    proj = make(tmp_path)
    base = tmp_path / "trnready-baseline.json"
    proc = run_cli("baseline", "create", proj, "--output", base, "--no-config")
    assert proc.returncode == 0, proc.stderr
    assert "4 finding(s)" in proc.stdout
    data = json.loads(base.read_text())
    assert data["trnready_baseline"] == 1
    assert sorted(e["rule"] for e in data["findings"]) == ["TRN101", "TRN242", "TRN281", "TRN701"]

    proc = run_cli("scan", proj, "--baseline", base, "--no-config")
    assert proc.returncode == 0
    assert "Baseline: 4 known finding(s)" in proc.stdout and "Verdict: ready" in proc.stdout

    # unrelated lines inserted above: still known
    (proj / "train.py").write_text("\n\n# header\nimport os\nimport torch\nimport flash_attn\n\n"
                                   "m = torch.compile(m, dynamic=True, backend='neuron')\n")
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config")
    assert proc.returncode == 0
    report = json.loads(proc.stdout)
    __import__("jsonschema").validate(report, SCHEMA)
    assert report["findings"] == []
    assert report["summary"]["baseline"] == {"path": str(base), "known": 4, "resolved": 0}

    # a new blocker is reported and gates
    with open(proj / "train.py", "a") as fh:
        fh.write("n = torch.compile(n, dynamic=True, backend='neuron')\n")
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert [(f["rule"], f["line"]) for f in report["findings"]] == [("TRN101", 9)]
    assert report["summary"]["by_severity"]["blocker"] == 1


def test_a_finding_moved_to_another_file_is_new_and_fixed_ones_are_counted(tmp_path):
    proj = make(tmp_path)
    base = tmp_path / "b.json"
    run_cli("baseline", "create", proj, "-o", base, "--no-config")
    (proj / "util.py").write_text("import torch\n")
    (proj / "other.py").write_text('import torch\nd = torch.device("cuda")\n')
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config", "--fail-on", "change")
    report = json.loads(proc.stdout)
    assert [(f["path"], f["rule"]) for f in report["findings"]] == [("other.py", "TRN242")]
    assert report["summary"]["baseline"]["known"] == 3 and report["summary"]["baseline"]["resolved"] == 1
    assert proc.returncode == 1
    text = run_cli("scan", proj, "--baseline", base, "--no-config").stdout
    assert "1 no longer found" in text


def test_baseline_honours_config_and_suppressions(tmp_path):
    proj = make(tmp_path)
    (proj / "trnready.toml").write_text("ignore = ['cuda-device']\n")
    (proj / "train.py").write_text("import flash_attn  # trnready: ignore[TRN281] vendored\n")
    base = tmp_path / "b.json"
    run_cli("baseline", "create", proj, "-o", base)
    assert json.loads(base.read_text())["findings"] == []


def test_bad_baseline_files_are_exit_2(tmp_path):
    proj = make(tmp_path)
    for body in ("{not json", '{"findings": []}', '{"trnready_baseline": 1, "findings": [1]}'):
        bad = tmp_path / "bad.json"
        bad.write_text(body)
        proc = run_cli("scan", proj, "--baseline", bad)
        assert proc.returncode == 2 and str(bad) in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("scan", proj, "--baseline", tmp_path / "missing.json")
    assert proc.returncode == 2 and "cannot read baseline" in proc.stderr


def test_a_baseline_from_another_root_is_rebased(tmp_path):
    proj = make(tmp_path)
    base = tmp_path / "b.json"
    run_cli("baseline", "create", proj, "-o", base, "--no-config")
    proc = run_cli("scan", proj / "train.py", "--baseline", base, "--no-config")  # root is still proj
    assert proc.stderr == "" and proc.returncode == 0
    # the parent as root: paths now start with proj/, yet the four findings are still known
    (tmp_path / "extra.py").write_text('import torch\nd = torch.device("cuda")\n')
    proc = run_cli("scan", "--format", "json", tmp_path, "--baseline", base, "--no-config", "--fail-on", "change")
    assert proc.stderr == "" and proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["root"] == str(tmp_path)
    assert [(f["path"], f["rule"]) for f in report["findings"]] == [("extra.py", "TRN242")]
    assert report["summary"]["baseline"]["known"] == 4 and report["summary"]["baseline"]["resolved"] == 0
    # a baseline made at the parent, used for a scan of the subfolder
    run_cli("baseline", "create", tmp_path, "-o", base, "--no-config")
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config", "--fail-on", "change")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["findings"] == [] and report["summary"]["baseline"]["known"] == 4
    # a baseline for an unrelated tree still warns: nothing can match
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.py").write_text("import flash_attn\n")
    run_cli("baseline", "create", other, "-o", base, "--no-config")
    proc = run_cli("scan", proj, "--baseline", base, "--no-config")
    assert "matched none of this scan's findings" in proc.stderr and proc.returncode == 1


def test_a_copied_baseline_whose_root_is_gone_compares_from_the_scan_root(tmp_path):
    proj = make(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run_cli("baseline", "create", proj, "-o", elsewhere / "b.json", "--no-config")
    (proj / "b.json").write_text((elsewhere / "b.json").read_text())  # its relative root now points nowhere
    proc = run_cli("scan", proj, "--baseline", proj / "b.json", "--no-config")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "Baseline: 4 known finding(s)" in proc.stdout


def test_a_known_finding_that_gains_places_is_reported_again(tmp_path):
    proj = tmp_path / "p"
    proj.mkdir()
    (proj / "feed.py").write_text("import torch\n\n\ndef feed(a, b):\n    a = a.cuda()\n    return a, b\n")
    base = tmp_path / "trnready-baseline.json"
    assert run_cli("baseline", "create", proj, "--output", base, "--no-config").returncode == 0
    assert [e["places"] for e in json.loads(base.read_text())["findings"]] == [1]
    # a second move joins the run of the known one: the finding now covers two places, one of them new
    (proj / "feed.py").write_text("import torch\n\n\ndef feed(a, b):\n    a = a.cuda()\n    b = b.cuda()\n"
                                  "    return a, b\n")
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config", "--fail-on", "change")
    report = json.loads(proc.stdout)
    assert [(f["line"], f["rule"], f["occurrences"]) for f in report["findings"]] == [
        (5, "TRN241", [{"line": 6, "column": 9, "rule": "TRN241"}])]
    assert report["findings"][0]["message"].endswith("(1 new place since the baseline)")
    assert proc.returncode == 1
    # an entry without `places` (a baseline written before the key) matches by fingerprint alone
    data = json.loads(base.read_text())
    for e in data["findings"]:
        del e["places"]
    base.write_text(json.dumps(data))
    proc = run_cli("scan", "--format", "json", proj, "--baseline", base, "--no-config", "--fail-on", "change")
    assert json.loads(proc.stdout)["findings"] == [] and proc.returncode == 0
