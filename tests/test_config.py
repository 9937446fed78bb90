"""Config files: discovery, every key, CLI precedence and clear errors (real CLI, real files)."""
import json
import textwrap

import pytest

from conftest import run_cli

BLOCKER = "import flash_attn\n"  # TRN281 blocker, cuda-library
CHANGE = 'import torch\nd = torch.device("cuda:0")\n'  # TRN242 change, cuda-device
ADVISORY = "import torch\nx = torch.zeros(2, dtype=torch.float64)\n"  # TRN121 advisory, float64


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def scan(*args, cwd=None):
    proc = run_cli("scan", "--format", "json", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc, json.loads(proc.stdout)


def rules(data, active=True):
    return sorted((f["path"], f["rule"]) for f in data["findings"] if not (active and f["suppressed"]))


@pytest.fixture
def project(tmp_path):
    write(tmp_path / "src" / "a.py", BLOCKER)
    write(tmp_path / "src" / "b.py", CHANGE)
    write(tmp_path / "src" / "c.py", ADVISORY)
    write(tmp_path / "tests" / "test_a.py", BLOCKER)
    return tmp_path


def test_pyproject_is_found_walking_up_from_the_scanned_path(project):
    write(project / "pyproject.toml", """
        [project]
        name = "demo"
        [project.scripts]
        trnready = "x:y"
        [tool.trnready]
        select = ["cuda-library"]
    """)
    _, data = scan(project / "src")
    assert rules(data) == [("a.py", "TRN281")]
    _, data = scan(project / "src" / "b.py")  # a file: search starts at its directory
    assert rules(data) == []


def test_trnready_toml_beats_pyproject_in_the_same_directory_and_nearest_wins(project):
    write(project / "pyproject.toml", "[tool.trnready]\nselect = ['cuda-library']\n")
    write(project / "trnready.toml", "select = ['cuda-device']\n")
    _, data = scan(project / "src")
    assert rules(data) == [("b.py", "TRN242")]
    write(project / "src" / "trnready.toml", "select = ['float64']\n")  # nearer to the scanned path
    _, data = scan(project / "src")
    assert rules(data) == [("c.py", "TRN121")]


def test_pyproject_without_our_table_is_skipped_and_the_search_goes_on(project):
    write(project / "trnready.toml", "select = ['cuda-device']\n")
    write(project / "src" / "pyproject.toml", "[project]\nname = 'x'\n[tool.black]\nline-length = 100\n")
    _, data = scan(project / "src")
    assert rules(data) == [("b.py", "TRN242")]


def test_invalid_pyproject_with_our_table_is_a_clear_error(project):
    cfg = write(project / "pyproject.toml", "[tool.trnready]\nselect = [\n")
    proc = run_cli("scan", project / "src")
    assert proc.returncode == 2
    assert str(cfg) in proc.stderr and "invalid TOML" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_invalid_pyproject_that_is_not_ours_is_ignored(project):
    write(project / "pyproject.toml", "[project\nname = 'x'\n")
    proc, data = scan(project / "src")
    assert len(rules(data)) == 3


def test_config_flag_overrides_discovery_and_no_config_ignores_files(project, tmp_path_factory):
    write(project / "trnready.toml", "select = ['cuda-device']\n")
    other = write(tmp_path_factory.mktemp("cfg") / "ci.toml", "select = ['float64']\n")
    _, data = scan(project / "src", "--config", other)
    assert rules(data) == [("c.py", "TRN121")]
    _, data = scan(project / "src", "--no-config")
    assert len(rules(data)) == 3
    pyproject = write(tmp_path_factory.mktemp("cfg2") / "pyproject.toml", "[tool.trnready]\nignore = ['TRN2']\n")
    _, data = scan(project / "src", "--config", pyproject)
    assert rules(data) == [("c.py", "TRN121")]


def test_explicit_pyproject_without_table_is_an_error(project):
    cfg = write(project / "pyproject.toml", "[project]\nname = 'x'\n")
    proc = run_cli("scan", project, "--config", cfg)
    assert proc.returncode == 2 and "no [tool.trnready] table" in proc.stderr


def test_select_and_ignore_keys_and_cli_flags_win(project):
    write(project / "trnready.toml", "select = ['TRN2']\nignore = ['cuda-device']\n")
    _, data = scan(project / "src")
    assert rules(data) == [("a.py", "TRN281")]
    _, data = scan(project / "src", "--select", "float64")  # CLI select replaces the file's
    assert rules(data) == [("c.py", "TRN121")]
    _, data = scan(project / "src", "--ignore", "TRN28")  # CLI ignore replaces the file's
    assert rules(data) == [("b.py", "TRN242")]


def test_exclude_key_is_relative_to_the_config_file(project):
    write(project / "trnready.toml", "exclude = ['src/b.py', 'tests']\n")
    _, data = scan(project)
    assert rules(data) == [("src/a.py", "TRN281"), ("src/c.py", "TRN121")]
    _, data = scan(project / "src")  # scan root below the config file: still anchored at it
    assert rules(data) == [("a.py", "TRN281"), ("c.py", "TRN121")]
    _, data = scan(project, "--exclude", "c.py")  # the CLI list replaces the file's
    assert rules(data) == [("src/a.py", "TRN281"), ("src/b.py", "TRN242"), ("tests/test_a.py", "TRN281")]


def test_per_file_ignores(project):
    write(project / "pyproject.toml", """
        [tool.trnready.per-file-ignores]
        "tests/*" = ["cuda-library"]
        "src/b.py" = ["TRN24"]
        "c.py" = ["ALL"]
    """)
    _, data = scan(project)
    assert rules(data, active=False) == [("src/a.py", "TRN281")]


def test_fail_on_key_and_cli_precedence(tmp_path):
    write(tmp_path / "a.py", ADVISORY)
    assert run_cli("scan", tmp_path).returncode == 0
    write(tmp_path / "trnready.toml", "fail-on = 'advisory'\n")
    assert run_cli("scan", tmp_path).returncode == 1
    assert run_cli("scan", tmp_path, "--fail-on", "blocker").returncode == 0
    assert run_cli("scan", tmp_path, "--exit-zero").returncode == 0


def test_severity_overrides_change_the_findings_and_the_gate(tmp_path):
    write(tmp_path / "a.py", ADVISORY)
    write(tmp_path / "trnready.toml", "[severity]\ntrn121 = 'blocker'\n")
    proc, data = scan(tmp_path)
    assert proc.returncode == 1
    assert [(f["rule"], f["severity"]) for f in data["findings"]] == [("TRN121", "blocker")]
    assert data["summary"]["by_severity"]["blocker"] == 1
    sarif = json.loads(run_cli("scan", tmp_path, "--format", "sarif").stdout)
    assert sarif["runs"][0]["results"][0]["level"] == "error"
    assert sarif["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "note"


def test_severity_override_for_an_unknown_rule_names_file_line_and_key(tmp_path):
    write(tmp_path / "a.py", ADVISORY)
    cfg = write(tmp_path / "trnready.toml", "fail-on = 'change'\n[severity]\nTRN9999 = 'blocker'\n")
    proc = run_cli("scan", tmp_path)
    assert proc.returncode == 2
    assert f"{cfg}:3:" in proc.stderr and "severity.TRN9999" in proc.stderr and "unknown rule id" in proc.stderr


CATALOGUE = '''
[[rule]]
id = "ACME101"
name = "acme-gpu-import"
category = "cuda-library"
severity = "change"
title = "acme_gpu (our CUDA-only helpers)"
why = "acme_gpu wraps CUDA kernels."
fix = "Use acme_neuron."
source = [{ title = "Acme wiki: GPU helpers", url = "https://example.com/acme/wiki" }]
docs = "https://example.com/acme"

[[rule.match]]
import = ["acme_gpu"]

[rule.examples]
hit = ["import acme_gpu"]
clean = ["import acme_neuron"]
'''


def test_extend_catalogue_adds_team_rules_relative_to_the_config_file(project):
    write(project / "rules" / "acme.toml", CATALOGUE)
    write(project / "pyproject.toml", "[tool.trnready]\nextend-catalogue = ['rules/acme.toml']\n")
    write(project / "src" / "d.py", "import acme_gpu\n")
    _, data = scan(project / "src")
    assert ("d.py", "ACME101") in rules(data)
    assert ("a.py", "TRN281") in rules(data)  # the built-in catalogue still applies


def test_rules_and_explain_include_the_config_files_team_rules(project):
    write(project / "rules" / "acme.toml", CATALOGUE)
    write(project / "trnready.toml", "extend-catalogue = ['rules/acme.toml']\n")
    proc = run_cli("rules", cwd=project / "src")
    assert proc.returncode == 0 and "ACME101" in proc.stdout and "TRN191" in proc.stdout
    proc = run_cli("explain", "acme101", cwd=project)
    assert proc.returncode == 0 and "Use acme_neuron." in proc.stdout


def test_extend_catalogue_id_clash_is_an_error(project):
    write(project / "rules" / "acme.toml", CATALOGUE.replace("ACME101", "TRN281"))
    write(project / "trnready.toml", "extend-catalogue = ['rules/acme.toml']\n")
    proc = run_cli("scan", project)
    assert proc.returncode == 2 and "duplicate id" in proc.stderr and "acme.toml" in proc.stderr


def test_catalogue_max_file_size_and_respect_gitignore_keys(project):
    write(project / "rules" / "only.toml", "[catalogue]\nversion = '1'\n" + CATALOGUE)
    write(project / "src" / "d.py", "import acme_gpu\n")
    write(project / "src" / ".gitignore", "c.py\n")
    write(project / "trnready.toml", "catalogue = 'rules/only.toml'\n")
    _, data = scan(project / "src")
    assert rules(data) == [("d.py", "ACME101")]
    write(project / "trnready.toml", "max-file-size = 20\nrespect-gitignore = false\n")
    _, data = scan(project / "src")
    assert {d["path"]: d["kind"] for d in data["diagnostics"]} == {"b.py": "too-large", "c.py": "too-large"}
    assert rules(data) == [("a.py", "TRN281")]
    _, data = scan(project / "src", "--max-file-size", "1000000")
    assert ("c.py", "TRN121") in rules(data)  # respect-gitignore = false: c.py is scanned


@pytest.mark.parametrize("body,key,line", [
    ("select = ['TRN1']\ncolour = 'red'\n", "colour", 2),
    ("select = 'TRN1'\n", "select", 1),
    ("fail-on = 'sometimes'\n", "fail-on", 1),
    ("max-file-size = -3\n", "max-file-size", 1),
    ("respect-gitignore = 'yes'\n", "respect-gitignore", 1),
    ("\n[per-file-ignores]\n'tests/*' = 'TRN2'\n", "per-file-ignores.tests/*", 3),
    ("[severity]\nTRN121 = 'high'\n", "severity.TRN121", 2),
    ("extend-catalogue = 'x.toml'\n", "extend-catalogue", 1),
])
def test_bad_keys_are_one_line_errors_naming_file_line_and_key(tmp_path, body, key, line):
    write(tmp_path / "a.py", BLOCKER)
    cfg = write(tmp_path / "trnready.toml", body)
    proc = run_cli("scan", tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert f"{cfg}:{line}:" in proc.stderr and f"key '{key}'" in proc.stderr


def test_bad_key_in_pyproject_points_into_the_tool_table(tmp_path):
    write(tmp_path / "a.py", BLOCKER)
    cfg = write(tmp_path / "pyproject.toml", "[project]\nname = 'select'\n\n[tool.trnready]\nfail-on = 'x'\nselect = 3\n")
    proc = run_cli("scan", tmp_path)
    assert proc.returncode == 2 and f"{cfg}:5:" in proc.stderr and "'fail-on'" in proc.stderr


def test_config_doc_example_is_valid_and_every_key_is_documented(tmp_path):
    import re

    from conftest import REPO
    from trnready.config import CONFIG_KEYS

    readme = (REPO / "docs" / "configuration.md").read_text()
    block = re.search(r"```toml\n(\[tool\.trnready\].*?)```", readme, re.S).group(1)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "acme-rules.toml").write_text(CATALOGUE)
    write(tmp_path / "pyproject.toml", block)
    write(tmp_path / "a.py", ADVISORY)
    proc, data = scan(tmp_path)
    assert [(f["rule"], f["severity"]) for f in data["findings"]] == [("TRN121", "blocker")]
    for key in CONFIG_KEYS:
        assert f"`{key}`" in readme, key
