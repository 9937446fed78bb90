"""Files trnready wrote are never read back as input (issue 16, section 2)."""
import json

from conftest import run_cli

# torch.compile without a NEFF cache setting: the repository-level advisory TRN701, which any
# file mentioning TORCH_NEURONX_NEFF_CACHE_DIR silences.
SOURCE = 'import torch\nimport flash_attn\nm = torch.compile(m)\nd = torch.device("cuda")\n'


def scan_json(*args, cwd=None):
    proc = run_cli("scan", "--format", "json", "--fail-on", "never", *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_baseline_and_reports_in_the_tree_change_nothing(tmp_path):
    (tmp_path / "train.py").write_text(SOURCE)
    before = scan_json(tmp_path)
    rules = sorted(f["rule"] for f in before["findings"])
    assert "TRN701" in rules and before["summary"]["files_scanned"] == 1
    # every format trnready writes, under names a user might pick, inside the scanned tree
    assert run_cli("baseline", "create", tmp_path, "-o", tmp_path / "trnready-baseline.json").returncode == 0
    proc = run_cli("scan", tmp_path, "--fail-on", "never", "--write-format", "json=report.json",
                   "--write-format", "sarif=results.sarif.json", "--write-format", "markdown=summary.md",
                   "--output", tmp_path / "scan.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "data.json").write_text((tmp_path / "report.json").read_text())  # renamed: still ours
    for name in ("trnready-baseline.json", "report.json", "results.sarif.json", "summary.md", "scan.txt"):
        assert "TORCH_NEURONX_NEFF_CACHE_DIR" in (tmp_path / name).read_text(), name
    after = scan_json(tmp_path)
    assert sorted(f["rule"] for f in after["findings"]) == rules
    assert after["summary"]["files_scanned"] == 1 and after["summary"]["files_by_kind"] == {"python": 1}
    # and a baseline scan right after creating it: nothing new, nothing "no longer found"
    proc = run_cli("scan", tmp_path, "--baseline", tmp_path / "trnready-baseline.json")
    assert proc.returncode == 0 and "no longer found" not in proc.stdout, proc.stdout
    assert f"Baseline: {len(rules)} known finding(s)" in proc.stdout
    # named on the command line (as pre-commit does), a report is still skipped
    data = scan_json(tmp_path / "train.py", tmp_path / "report.json", tmp_path / "trnready-baseline.json")
    assert data["summary"]["files_scanned"] == 1


def test_a_users_own_json_that_mentions_trnready_is_still_read(tmp_path):
    (tmp_path / "train.py").write_text(SOURCE)
    job = {"containerProperties": {"environment": [{"name": "TORCH_NEURONX_NEFF_CACHE_DIR", "value": "/c"}]},
           "comment": "checked with trnready"}
    (tmp_path / "job.json").write_text(json.dumps(job, indent=2))
    data = scan_json(tmp_path)
    assert "TRN701" not in {f["rule"] for f in data["findings"]}  # the job definition sets the variable
    assert data["summary"]["files_by_kind"] == {"json": 1, "python": 1}
