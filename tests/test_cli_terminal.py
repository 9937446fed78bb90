"""The terminal report on big trees, colour, and the --output-format spellings (issue 16, section 3)."""
import json
import re

from conftest import run_cli

FILES = {
    # an advisory and a change in a file sorting first, a blocker in a file sorting last; an optional import
    # with a working path without the package (a change, medium confidence)
    "a_utils.py": 'import torch\nx = torch.zeros(2, dtype=torch.float64)\nd = torch.device("cuda")\n',
    "z_model.py": "import torch\nm = torch.compile(m, dynamic=True, backend=\"neuron\")\n",
    # optional, but one path insists on it: a change to check (optional-gpu-import does not guard it)
    "pkg/guarded.py": "try:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n\n"
                      "def attn(q):\n    assert flash_attn is not None\n    return q\n",
}


def project(tmp_path):
    for rel, body in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    return tmp_path


def finding_lines(stdout: str) -> list[str]:
    return [ln.strip() for ln in stdout.splitlines() if re.match(r"\s*\S+:\d+:\d+:? TRN\d+", ln)]


def test_findings_are_ordered_by_severity_then_path_relative_to_the_cwd(tmp_path):
    root = project(tmp_path / "repo")
    proc = run_cli("scan", "repo", cwd=tmp_path)
    assert proc.returncode == 1
    lines = finding_lines(proc.stdout)
    assert [ln.split()[0] for ln in lines] == [
        "repo/z_model.py:2:5", "repo/a_utils.py:3:18", "repo/pkg/guarded.py:2:5", "repo/a_utils.py:2:26",
        "repo/z_model.py:2:5"]
    assert proc.stdout.index("Blockers (1)") < proc.stdout.index("Changes (2)") < proc.stdout.index("Advisories (2)")
    # from inside the tree the same findings read relative to there
    proc = run_cli("scan", ".", cwd=root / "pkg")
    assert finding_lines(proc.stdout)[0].startswith("guarded.py:2:5 TRN281")
    proc = run_cli("scan", root, cwd=root / "pkg")
    assert "guarded.py:2:5 TRN281" in proc.stdout
    assert "../z_model.py:2:5 TRN101" in proc.stdout


def test_concise_is_one_line_per_finding(tmp_path):
    project(tmp_path)
    proc = run_cli("scan", ".", "--format", "concise", cwd=tmp_path)
    body = proc.stdout.split("\n\n")[0].splitlines()
    assert body == [
        "z_model.py:2:5: TRN101 [blocker] torch.compile with dynamic=True: `torch.compile`",
        'a_utils.py:3:18: TRN242 [change] [*] "cuda" device string: `cuda`',
        "pkg/guarded.py:2:5: TRN281 [change] flash-attn (CUDA-only kernels): `flash_attn` (optional import: "
        "guarded by try/except or an availability check)",
        "a_utils.py:2:26: TRN121 [advisory] float64 or complex128 dtype: `torch.float64`",
        "z_model.py:2:5: TRN701 [advisory] torch.compile without a shared NEFF cache (TORCH_NEURONX_NEFF_CACHE_DIR): "
        "`torch.compile` (1 use in 1 file, first here); TORCH_NEURONX_NEFF_CACHE_DIR appears in no scanned file",
    ]
    assert proc.returncode == 1 and proc.stdout.rstrip().endswith("Verdict: not ready: 1 blocker")
    # ruff's spelling
    assert run_cli("scan", ".", "--output-format", "concise", cwd=tmp_path).stdout == proc.stdout


def test_statistics_count_per_rule(tmp_path):
    project(tmp_path)
    # (the second pick in a block of its own: neighbouring statements of one rule would be one finding)
    (tmp_path / "b.py").write_text('import torch\na = torch.device("cuda")\nif a:\n    b = torch.device("cuda:1")\n')
    proc = run_cli("scan", ".", "--statistics", cwd=tmp_path)
    assert proc.returncode == 1
    rows = [ln for ln in proc.stdout.splitlines() if re.match(r"\s*\d+\s+TRN", ln)]
    assert [ln.split()[:2] for ln in rows] == [["1", "TRN101"], ["3", "TRN242"], ["1", "TRN281"], ["1", "TRN121"],
                                               ["1", "TRN701"]]
    assert rows[1].split()[2] == "[*]" and "change" in rows[1]
    assert not finding_lines(proc.stdout) and "Verdict: not ready: 1 blocker" in proc.stdout


def test_quiet_prints_the_summary_and_verdict_only(tmp_path):
    project(tmp_path)
    proc = run_cli("scan", ".", "-q", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0].startswith("Scanned 3 file(s)")
    assert proc.stdout.splitlines()[-1] == "Verdict: not ready: 1 blocker"
    assert not finding_lines(proc.stdout)


def test_display_filters_do_not_change_the_gate(tmp_path):
    project(tmp_path)
    proc = run_cli("scan", ".", "--format", "concise", "--min-severity", "change", cwd=tmp_path)
    assert [ln.split()[1] for ln in finding_lines(proc.stdout)] == ["TRN101", "TRN242", "TRN281"]
    assert "Shown: 3 of 5" in proc.stdout and proc.returncode == 1
    proc = run_cli("scan", ".", "--format", "concise", "--min-confidence", "high", cwd=tmp_path)
    # the guarded import is medium, and so is the float64 advisory (TRN121: audited precision, docs/scope.md)
    assert "TRN281" not in proc.stdout and "TRN121" not in proc.stdout and "Shown: 3 of 5" in proc.stdout
    # hidden findings still gate, and machine-readable output is complete
    (tmp_path / "pkg" / "guarded.py").unlink()
    (tmp_path / "z_model.py").unlink()
    proc = run_cli("scan", ".", "--min-severity", "blocker", "--fail-on", "change", cwd=tmp_path)
    assert not finding_lines(proc.stdout) and proc.returncode == 1
    proc = run_cli("scan", ".", "--format", "json", "--min-severity", "blocker", cwd=tmp_path)
    assert len(json.loads(proc.stdout)["findings"]) == 2


def test_colour_follows_no_color_and_force_color(tmp_path):
    project(tmp_path)
    esc = "\x1b["
    assert esc not in run_cli("scan", ".", cwd=tmp_path).stdout  # not a terminal
    assert esc in run_cli("scan", ".", cwd=tmp_path, env={"FORCE_COLOR": "1"}).stdout
    assert esc not in run_cli("scan", ".", cwd=tmp_path, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert esc in run_cli("scan", ".", "--color", cwd=tmp_path, env={"NO_COLOR": "1"}).stdout  # the flag wins
    assert esc not in run_cli("scan", ".", "--no-color", cwd=tmp_path, env={"FORCE_COLOR": "1"}).stdout
    # a file written with --output never holds escapes
    run_cli("scan", ".", "-o", tmp_path / "out.txt", cwd=tmp_path, env={"FORCE_COLOR": "1"})
    assert esc not in (tmp_path / "out.txt").read_text()


def test_output_format_reads_as_in_ruff_and_the_old_form_is_deprecated(tmp_path):
    project(tmp_path)
    proc = run_cli("scan", ".", "--output-format", "json", cwd=tmp_path)
    assert json.loads(proc.stdout)["summary"]["by_severity"] == {"blocker": 1, "change": 2, "advisory": 2}
    assert proc.stderr == ""
    proc = run_cli("scan", ".", "--output-format", "json", "-o", "r.json", cwd=tmp_path)  # ruff: -o FILE
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["verdict"] == "not ready: 1 blocker"
    proc = run_cli("scan", ".", "--output-format", "sarif=old.sarif", cwd=tmp_path)
    assert proc.stderr.splitlines() == [
        "trnready: warning: `--output-format sarif=old.sarif` is deprecated; write `--write-format sarif=old.sarif` "
        "(--output-format FMT now selects the stdout format, as in ruff)"]
    assert json.loads((tmp_path / "old.sarif").read_text())["version"] == "2.1.0"
    assert "Verdict: not ready" in proc.stdout
    proc = run_cli("scan", ".", "--write-format", "sarif=new.sarif", "--write-format", "markdown=s.md", cwd=tmp_path)
    assert proc.stderr == "" and (tmp_path / "new.sarif").exists() and (tmp_path / "s.md").exists()
    proc = run_cli("scan", ".", "--format", "json", "--output-format", "sarif", cwd=tmp_path)
    assert proc.returncode == 2 and "conflicting stdout formats: json, sarif" in proc.stderr
    proc = run_cli("scan", ".", "--output-format", "jsn", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown format 'jsn' in --output-format; did you mean json?" in proc.stderr


def test_shell_completion_script_is_generated(tmp_path):
    proc = run_cli(env={"_TRNREADY_COMPLETE": "bash_source"})
    assert proc.returncode == 0 and "_trnready_completion()" in proc.stdout
    assert "complete -o nosort -F _trnready_completion trnready" in proc.stdout
