"""Usage errors and scans that check nothing: never a silent "ready" (issue 16, section 1)."""
import json
import textwrap

from conftest import run_cli

BLOCKER_AND_CHANGE = 'import torch\nimport flash_attn\nd = torch.device("cuda")\n'


def project(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "a.py").write_text(BLOCKER_AND_CHANGE)
    (tmp_path / "tests" / "test_a.py").write_text("import flash_attn\n")
    return tmp_path


def usage_error(proc) -> str:
    """Exit 2 with exactly one line on stderr, no traceback, nothing on stdout."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "Verdict" not in proc.stdout
    return lines[0]


def test_a_missing_path_is_a_usage_error_with_the_nearest_name(tmp_path):
    project(tmp_path)
    assert usage_error(run_cli("scan", "nosuchdir", cwd=tmp_path)) == "trnready: error: path does not exist: nosuchdir"
    line = usage_error(run_cli("scan", "srcc", cwd=tmp_path))
    assert line == "trnready: error: path does not exist: srcc; did you mean src?"
    assert "did you mean src/a.py?" in usage_error(run_cli("scan", "src/b.py", cwd=tmp_path))
    usage_error(run_cli("fix", "nosuchdir", cwd=tmp_path))
    usage_error(run_cli("baseline", "create", "nosuchdir", cwd=tmp_path))


def test_unknown_selectors_on_the_command_line_name_the_closest_valid_one(tmp_path):
    project(tmp_path)
    cases = {
        ("--select", "cuda-devic"): "trnready: error: --select: unknown rule selector 'cuda-devic'; did you mean cuda-device?",
        ("--select", "cuda_device"): "trnready: error: --select: unknown rule selector 'cuda_device'; did you mean cuda-device?",
        ("--ignore", "TRN242,Cuda Library"): "trnready: error: --ignore: unknown rule selector 'Cuda Library'; did you mean cuda-library?",
    }
    for args, expected in cases.items():
        assert usage_error(run_cli("scan", tmp_path, *args)) == expected
    line = usage_error(run_cli("scan", tmp_path, "--select", "TRN999"))
    assert line.startswith("trnready: error: --select: unknown rule selector 'TRN999'; did you mean TRN")
    usage_error(run_cli("fix", tmp_path, "--select", "cuda-devic"))
    usage_error(run_cli("baseline", "create", tmp_path, "--ignore", "nonsense-category", "-o", tmp_path / "b.json"))
    assert not (tmp_path / "b.json").exists()
    # prefixes, categories and ALL stay valid
    assert run_cli("scan", tmp_path, "--select", "TRN2,cuda-library", "--ignore", "TRN9").returncode == 1


def test_an_empty_selection_is_a_usage_error(tmp_path):
    project(tmp_path)
    line = usage_error(run_cli("scan", tmp_path, "--select", "TRN242", "--ignore", "cuda-device"))
    assert line == "trnready: error: no rules left to check: select TRN242 with ignore cuda-device selects no rule"
    usage_error(run_cli("scan", tmp_path, "--ignore", "ALL"))


def test_unknown_selectors_in_config_files_name_file_line_and_key(tmp_path):
    project(tmp_path)
    cfg = tmp_path / "trnready.toml"
    cfg.write_text('fail-on = "change"\nselect = ["cuda_device"]\n')
    assert usage_error(run_cli("scan", tmp_path)) == (
        f"trnready: error: {cfg}:2: key 'select': unknown rule selector 'cuda_device'; did you mean cuda-device?")
    cfg.write_text('[per-file-ignores]\n"tests/*.py" = ["cuda-library"]\n"src/*.py" = ["TRN24", "cuda-devise"]\n')
    assert usage_error(run_cli("scan", tmp_path)) == (
        f"trnready: error: {cfg}:3: key 'per-file-ignores.\"src/*.py\"': unknown rule selector 'cuda-devise'; "
        "did you mean cuda-device?")
    cfg.write_text('[severity]\nTRN242 = "blocker"\nTRN2420 = "advisory"\n')
    assert usage_error(run_cli("scan", tmp_path)) == (
        f"trnready: error: {cfg}:3: key 'severity.TRN2420': unknown rule id 'TRN2420'; did you mean TRN242?")
    cfg.unlink()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n\n[tool.trnready]\nignore = ["TRN", "cuda-library"]\n')
    line = usage_error(run_cli("scan", tmp_path))
    assert line == f"trnready: error: {pyproject}: no rules left to check: ignore TRN,cuda-library selects no rule"
    # a flag replaces the file's list, so a valid flag wins over a bad file value
    pyproject.write_text('[tool.trnready]\nselect = ["cuda_device"]\n')
    assert run_cli("scan", tmp_path, "--select", "cuda-device", "--fail-on", "change").returncode == 1


def test_tool_table_in_trnready_toml_says_to_use_top_level_keys(tmp_path):
    project(tmp_path)
    cfg = tmp_path / "trnready.toml"
    cfg.write_text('# settings\n[tool.trnready]\nselect = ["cuda-device"]\n')
    assert usage_error(run_cli("scan", tmp_path)) == (
        f"trnready: error: {cfg}:2: key 'tool.trnready': use top-level keys in trnready.toml "
        "([tool.trnready] is the pyproject.toml spelling)")


def test_a_scan_that_reads_no_file_is_exit_2_and_never_ready(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("# notes\n")
    line = usage_error(run_cli("scan", empty))
    assert line.startswith(f"trnready: error: nothing scanned: no file trnready reads under {empty}")
    # everything excluded
    (tmp_path / "p").mkdir()
    project(tmp_path / "p")
    usage_error(run_cli("scan", tmp_path / "p", "--exclude", "src", "--exclude", "tests"))
    # the only file cannot be parsed: nothing was checked
    (empty / "broken.py").write_text("def broken(:\n    model.cuda()\n")
    line = usage_error(run_cli("scan", empty))
    assert line == f"trnready: error: nothing scanned: no file under {empty} could be read (broken.py: syntax-error)"
    # --exit-zero does not turn "nothing checked" into a pass
    assert run_cli("scan", empty, "--exit-zero").returncode == 2


def test_changed_since_with_no_changed_file_says_nothing_scanned(tmp_path):
    import subprocess

    project(tmp_path)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    proc = run_cli("scan", tmp_path, "--changed-since", "HEAD")
    assert proc.returncode == 0, proc.stderr
    assert "Scanned 0 file(s)" in proc.stdout and "Verdict: nothing scanned" in proc.stdout
    assert "Verdict: ready" not in proc.stdout
    proc = run_cli("scan", tmp_path, "--changed-since", "HEAD", "--format", "json")
    assert json.loads(proc.stdout)["summary"]["verdict"] == "nothing scanned" and proc.returncode == 0


def test_stdin_is_scanned_under_the_stdin_filename(tmp_path):
    project(tmp_path)
    (tmp_path / "trnready.toml").write_text('[per-file-ignores]\n"tests/*" = ["cuda-library"]\n')
    src = BLOCKER_AND_CHANGE.encode()

    def scan_stdin(*args, data=src):
        import os
        import subprocess
        import sys

        from conftest import REPO
        env = dict(os.environ, PYTHONPATH=str(REPO))
        return subprocess.run([sys.executable, "-m", "trnready", "scan", "-", *args], input=data, cwd=tmp_path,
                              env=env, capture_output=True, timeout=300)

    proc = scan_stdin("--stdin-filename", "src/new.py", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert [(f["path"], f["line"], f["rule"]) for f in data["findings"]] == [
        ("src/new.py", 2, "TRN281"), ("src/new.py", 3, "TRN242")]
    assert data["summary"]["files_scanned"] == 1
    # the config file found from the stdin filename applies its per-file-ignores
    proc = scan_stdin("--stdin-filename", "tests/test_new.py", "--format", "concise")
    assert proc.returncode == 0
    assert proc.stdout.decode().splitlines()[0] == 'tests/test_new.py:3:18: TRN242 [change] [*] "cuda" device string: `cuda`'
    # the file kind follows the name: a requirements file on stdin
    proc = scan_stdin("--stdin-filename", "requirements.txt", "--format", "concise", data=b"flash-attn==2.5.8\n")
    assert proc.returncode == 1 and proc.stdout.decode().startswith("requirements.txt:1:1: TRN501 [blocker]")
    # source that cannot be parsed: nothing was checked
    proc = scan_stdin("--stdin-filename", "src/x.py", data=b"def broken(:\n    model.cuda()\n")
    assert proc.returncode == 2 and b"nothing scanned" in proc.stderr
    # --stdin-filename without `-`, `-` with other paths
    usage_error(run_cli("scan", tmp_path, "--stdin-filename", "x.py"))
    usage_error(run_cli("scan", "-", tmp_path))


def test_exclude_globs_are_normalised(tmp_path):
    project(tmp_path)
    for spelling in ("./tests", "tests/", "tests", "./tests/"):
        proc = run_cli("scan", ".", "--exclude", spelling, "--format", "json", cwd=tmp_path)
        paths = {f["path"] for f in json.loads(proc.stdout)["findings"]}
        assert paths == {"src/a.py"}, spelling
    # a path relative to the current directory, below the scan root
    proc = run_cli("scan", "src", "tests", "--exclude", "./tests/test_a.py", "--format", "json", cwd=tmp_path)
    assert {f["path"] for f in json.loads(proc.stdout)["findings"]} == {"src/a.py"}
    # the same spellings in a config file
    (tmp_path / "trnready.toml").write_text(textwrap.dedent('exclude = ["./tests/"]\n'))
    proc = run_cli("scan", ".", "--format", "json", cwd=tmp_path)
    assert {f["path"] for f in json.loads(proc.stdout)["findings"]} == {"src/a.py"}


def test_explain_names_the_closest_rule():
    proc = run_cli("explain", "TRN2420")
    assert usage_error(proc) == "trnready: error: unknown rule id 'TRN2420'; did you mean TRN242?"
    assert run_cli("explain", "trn242").stdout.startswith("TRN242 ")
