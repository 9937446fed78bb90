"""Adoption: Markdown report, GitHub Action, pre-commit hook, packaging, Python API (issue 16, section 6)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

import pytest
import yaml

from conftest import REPO, run_cli

SOURCE = 'import torch\nimport flash_attn\nd = torch.device("cuda")\nx = torch.zeros(2, dtype=torch.float64)\n'


def test_markdown_report_has_a_summary_table_and_the_top_findings(tmp_path):
    (tmp_path / "a.py").write_text(SOURCE)
    # 25 device picks, each in a block of its own (a run of neighbouring statements would be one finding) and
    # each of another variable (one statement repeated in sibling branches would be one finding too)
    (tmp_path / "b.py").write_text('import torch\n' + "".join(f'if n:\n    y{i} = torch.device("cuda")\n'
                                                                for i in range(25)))
    (tmp_path / "odd|name.py").write_text("import flash_attn  # <b>|</b>\n")
    proc = run_cli("scan", tmp_path, "--format", "markdown")
    assert proc.returncode == 1
    md = proc.stdout
    lines = md.splitlines()
    assert lines[0] == "<!-- trnready report (markdown) -->"
    assert "**Verdict: not ready: 2 blockers**" in md
    assert "| 🔴 blocker | 2 |" in lines and "| 🟡 change | 26 |" in lines and "| 🔵 advisory | 1 |" in lines
    assert "| TRN242 | change | 26 | \"cuda\" device string |" in lines
    top = lines[lines.index("### Top findings (20 of 29)") + 4:]
    assert top[0] == "| 🔴 blocker | `a.py:2` | TRN281 | flash-attn (CUDA-only kernels): `flash_attn` |"
    assert top[1].startswith("| 🔴 blocker | `odd\\|name.py:1` | TRN281 |")  # a pipe cannot break the table
    assert top[2].startswith("| 🟡 change | `a.py:3` | TRN242 |")
    assert "9 more finding(s)" in md
    assert "<b>" not in md


def test_markdown_for_a_clean_tree_is_a_short_summary(tmp_path):
    (tmp_path / "ok.py").write_text('import torch\nx = torch.zeros(2).to("neuron")\n')
    proc = run_cli("scan", tmp_path, "--format", "markdown")
    assert proc.returncode == 0
    assert "**Verdict: ready**" in proc.stdout and "Top findings" not in proc.stdout


# -- the GitHub Action --------------------------------------------------------------------------------

def action():
    return yaml.safe_load((REPO / "action.yml").read_text())


def test_action_is_composite_with_the_documented_inputs():
    a = action()
    assert a["runs"]["using"] == "composite"
    assert {"paths", "fail-on", "baseline"} <= set(a["inputs"])
    steps = a["runs"]["steps"]
    install = next(s for s in steps if "pip install" in s.get("run", ""))
    assert '"$GITHUB_ACTION_PATH"' in install["run"]  # the action's own checkout, not an index
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "always()" in upload["if"]
    scan = next(s for s in steps if s.get("id") == "scan")
    assert "${{" not in scan["run"]  # inputs arrive through the environment only


def run_scan_step(tmp_path, workspace, inputs):
    """Run the action's scan step as the runner would: its script, with its env mapping filled in."""
    a = action()
    step = next(s for s in a["runs"]["steps"] if s.get("id") == "scan")
    values = {k: v.get("default", "") for k, v in a["inputs"].items()}
    values.update(inputs)
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    env["PYTHONPATH"] = str(REPO)
    for key, expr in step["env"].items():
        env[key] = values[re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", expr).group(1)]
    out, summary, temp = tmp_path / "output", tmp_path / "summary.md", tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    summary.unlink(missing_ok=True)
    out.unlink(missing_ok=True)
    env.update(GITHUB_OUTPUT=str(out), GITHUB_STEP_SUMMARY=str(summary), RUNNER_TEMP=str(temp))
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True,
                          timeout=300)
    return proc, out.read_text(), summary.read_text() if summary.exists() else ""


def test_action_scan_step_writes_sarif_annotations_and_the_job_summary(tmp_path):
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "a.py").write_text(SOURCE)
    (ws / "docs").mkdir()
    (ws / "docs" / "x.py").write_text("import flash_attn\n")
    proc, output, summary = run_scan_step(tmp_path, ws, {"paths": "src", "fail-on": "change"})
    assert proc.returncode == 0, proc.stderr  # the gate is a later step, after the upload
    assert output == "exit-code=1\n"
    assert "::error file=src/a.py,line=2" in proc.stdout
    sarif = json.loads((ws / "trnready.sarif").read_text())
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"TRN281", "TRN242", "TRN121"}
    assert summary.startswith("<!-- trnready report (markdown) -->") and "not ready: 1 blocker" in summary
    # a baseline input: known findings no longer gate
    assert run_cli("baseline", "create", "src", "-o", "base.json", cwd=ws).returncode == 0
    proc, output, summary = run_scan_step(tmp_path, ws, {"paths": "src", "baseline": "base.json"})
    assert output == "exit-code=0\n" and "**Verdict: ready**" in summary
    # a usage error still leaves a summary line and a failing exit code
    proc, output, summary = run_scan_step(tmp_path, ws, {"paths": "nosuchdir"})
    assert output == "exit-code=2\n" and "exited with code 2" in summary


# -- the pre-commit hook --------------------------------------------------------------------------------

def hook():
    return yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())[0]


STAGED = {
    # name -> does trnready read it
    "train.py": True, "nb/explore.ipynb": True, "requirements.txt": True, "requirements-gpu.txt": True,
    "deps/requirements/base.in": True, "requirements/cuda.txt": True, "constraints.txt": True,
    "pyproject.toml": True, "setup.cfg": True, "Pipfile": True, ".python-version": True, "Dockerfile": True,
    "docker/Dockerfile.cuda": True, "train.dockerfile": True, "scripts/launch.sh": True, "job.sbatch": True,
    "jobs/train.pbs": True, "jobs/train.lsf": True,
    ".github/workflows/ci.yml": True, "environment.yaml": True, "k8s/job.yaml": True, "kernels/add.cu": True,
    "infra/main.tf": True, ".env": True, "README.md": False, "notes.txt": False, "trnready-baseline.json": False,
    "report.json": False, "Makefile": True, "src/kernel.cpp": True, "LICENSE": False,
    "csrc/CMakeLists.txt": True, "build/rules.mk": True, "defaults.ini": True, "include/ops.h": True,
}


def test_hook_files_pattern_matches_what_trnready_reads():
    from trnready.filekinds import dir_kind as _dir_kind, kind_of as file_kind

    h = hook()
    assert h["entry"] == "trnready scan" and "types_or" not in h
    pattern = re.compile(h["files"])
    for name, read in STAGED.items():
        assert bool(pattern.search(name)) == read, name
        base, _, fname = name.rpartition("/")
        kind = file_kind(fname) or _dir_kind(base.rsplit("/", 1)[-1], fname)
        # every file the hook passes has a kind (else it would be read as Python), and every kind but
        # JSON (read only for repository-wide settings) is passed
        assert (kind is not None and kind != "json") == read, (name, kind)


def test_hook_entry_on_staged_manifest_files_reports_them(tmp_path):
    """What pre-commit runs for a commit staging a requirement, a Dockerfile and a workflow."""
    files = {"requirements.txt": "torch==2.3.0\nflash-attn==2.5.8\n",
             "Dockerfile": "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\n",
             ".github/workflows/train.yml": "jobs:\n  t:\n    runs-on: [self-hosted, gpu]\n",
             "README.md": "flash-attn\n"}
    for name, body in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body)
    pattern = re.compile(hook()["files"])
    staged = sorted(n for n in files if pattern.search(n))
    assert staged == [".github/workflows/train.yml", "Dockerfile", "requirements.txt"]
    proc = run_cli(*hook()["entry"].split()[1:], "--format", "concise", *staged, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "requirements.txt:2:1: TRN501 [blocker]" in proc.stdout
    assert re.search(r"Scanned 3 file\(s\)", proc.stdout)


# -- packaging -----------------------------------------------------------------------------------------

def test_license_file_is_the_apache_2_text_the_metadata_declares():
    text = (REPO / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text and "END OF TERMS AND CONDITIONS" in text
    assert len(text.split()) > 1500  # the full text, not a pointer to it
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "Apache-2.0"}
    assert "License :: OSI Approved :: Apache Software License" in project["classifiers"]
    assert {"Homepage", "Repository", "Issues", "Documentation"} <= set(project["urls"])


@pytest.mark.slow
def test_sdist_ships_sources_and_no_stray_files(tmp_path):
    # build and hatchling come with the test extra; the sdist is built from the tracked files of the checkout
    import build  # noqa: F401
    import hatchling  # noqa: F401
    assert (REPO / ".git").exists(), "the tests run from a git checkout of trnready"
    src = tmp_path / "src"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True)
    for rel in filter(None, tracked.stdout.split("\0")):
        if (REPO / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, src / rel)
    # what a developer's tree holds after running the tests
    for stray in ("tests/.hypothesis/examples/0a1b/2c3d", ".hypothesis/examples/ff/ee", "tests/__pycache__/x.pyc",
                  "trnready/__pycache__/api.cpython-311.pyc", "trnready-baseline.json", "report.json"):
        (src / stray).parent.mkdir(parents=True, exist_ok=True)
        (src / stray).write_text("x")
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(tmp_path / "dist"),
                           str(src)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (sdist,) = (tmp_path / "dist").glob("trnready-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    assert not [n for n in names if ".hypothesis" in n or "__pycache__" in n or n.endswith(".pyc")]
    assert "trnready-baseline.json" not in names and "report.json" not in names
    for needed in ("LICENSE", "README.md", "pyproject.toml", "blockers.toml", "action.yml", "trnready/py.typed",
                   "trnready/cli.py", "trnready/reporters/markdown.py", "tests/test_cli.py"):
        assert needed in names, needed


# -- the Python API ------------------------------------------------------------------------------------

def test_public_api_is_exported_typed_and_documented(tmp_path):
    import trnready

    assert (REPO / "trnready" / "py.typed").is_file()
    for name in trnready.__all__:
        assert hasattr(trnready, name), name
    doc = (REPO / "docs" / "api.md").read_text()
    for name in ("scan", "Config", "Report", "Finding", "Diagnostic", "SelectorError", "ConfigError"):
        assert f"`{name}" in doc, name
    # the documented example runs as written
    (tmp_path / "train.py").write_text(SOURCE)
    code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.returncode == 0, proc.stderr
    assert "not ready: 1 blocker" in proc.stdout and "train.py:2:1 TRN281 blocker" in proc.stdout


@pytest.mark.slow
def test_pre_commit_itself_runs_the_hook_on_a_staged_requirement(tmp_path):
    """The real pre-commit, when installed, on a repository staging a flash-attn requirement."""
    exe = shutil.which("pre-commit") or shutil.which("pre-commit", path=os.path.dirname(sys.executable))
    assert exe is not None, "pre-commit comes with the test extra"
    assert (REPO / ".git").exists(), "the tests run from a git checkout of trnready"
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "requirements.txt").write_text("flash-attn==2.5.8\n")
    (repo / "README.md").write_text("# notes\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {rev.strip()}\n    hooks:\n      - id: trnready\n")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    proc = subprocess.run([exe, "run", "--files", "requirements.txt", "README.md"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Skipped" not in proc.stdout and "requirements.txt:1:1 TRN501 [blocker]" in proc.stdout
