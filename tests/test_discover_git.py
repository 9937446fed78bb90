""".gitignore as git reads it: a tracked file is scanned whatever a pattern says; without git to ask, an ignored
file present in the copy is scanned (it was shipped) and the ignored folders holding code are named in a
`gitignored-source` diagnostic (never skipped silently)."""
import json
import shutil
import subprocess

import pytest

from conftest import run_cli
from trnready import discover
from trnready.discover import Discoverer

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
BLOCKER = "import flash_attn\n"


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                    "-c", "core.hooksPath=/dev/null", *args], cwd=cwd, check=True, capture_output=True)


def write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def scan(*args, env=None):
    proc = run_cli("scan", "--format", "json", "--no-config", "--no-cache", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    return proc, sorted({f["path"] for f in data["findings"]}), data["diagnostics"]


# The CogVideo layout: `**/sat` and `test*` in .gitignore, yet the training code under sat/ is committed.
LAYOUT = {
    ".gitignore": "**/sat\ntest*\noutputs/\n",
    "main.py": BLOCKER,
    "sat/train.py": BLOCKER,
    "sat/sgm/model.py": BLOCKER,
    "sat/configs/train.yaml": "backend: nccl\n",
    "test_pipeline.py": BLOCKER,
}
LOCAL = {  # written after the commit: files of this clone only
    "sat/scratch.py": BLOCKER,
    "outputs/run1/code.py": BLOCKER,
    "test_local.py": BLOCKER,
}


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write(root, LAYOUT)
    git(root, "add", "-f", "-A")
    git(root, "commit", "-q", "-m", "base")
    write(root, LOCAL)
    return root


@needs_git
def test_tracked_files_under_ignored_patterns_are_scanned_and_untracked_ones_are_not(repo):
    before = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo, capture_output=True).stdout
    proc, paths, diags = scan(repo)
    assert paths == ["main.py", "sat/sgm/model.py", "sat/train.py", "test_pipeline.py"]
    assert diags == [] and proc.stderr == ""
    after = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo, capture_output=True).stdout
    assert after == before  # read-only


@needs_git
def test_excludes_and_built_in_skips_still_apply_to_tracked_files(repo):
    write(repo, {"build/gen.py": BLOCKER, "tools/venv/x.py": BLOCKER})
    git(repo, "add", "-f", "build", "tools")
    git(repo, "commit", "-q", "-m", "more")
    _, paths, _ = scan(repo, "--exclude", "sat/sgm")
    assert paths == ["main.py", "sat/train.py", "test_pipeline.py"]


@needs_git
def test_a_scan_below_the_top_of_the_work_tree_asks_the_repository_above(repo):
    write(repo, {"pkg/.gitignore": "gen/\n", "pkg/gen/tracked.py": BLOCKER, "pkg/ok.py": BLOCKER})
    git(repo, "add", "-f", "pkg")
    git(repo, "commit", "-q", "-m", "pkg")
    write(repo, {"pkg/gen/local.py": BLOCKER})
    _, paths, diags = scan(repo / "pkg")
    assert paths == ["gen/tracked.py", "ok.py"] and diags == []


@needs_git
def test_git_runs_no_program_the_repository_configures(repo, tmp_path):
    marker = tmp_path / "marker"
    hook = tmp_path / "hook.sh"
    hook.write_text(f'#!/bin/sh\necho "$0 $*" >> {marker}\n')
    hook.chmod(0o755)
    for key in ("core.fsmonitor", "core.pager", "core.sshCommand", "credential.helper"):
        git(repo, "config", key, str(hook))
    _, paths, _ = scan(repo)
    assert "sat/train.py" in paths
    assert not marker.exists(), marker.read_text()


@needs_git
def test_without_a_working_git_the_scan_falls_back_quietly_and_names_what_it_skipped(repo, tmp_path):
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    proc, paths, diags = scan(repo, env={"PATH": str(empty)})
    assert proc.stderr == ""
    # the ignored files at the top are kept (a plain copy holds what was shipped); ignored folders are named
    assert paths == ["main.py", "test_local.py", "test_pipeline.py"]
    assert [(d["path"], d["kind"]) for d in diags] == [(p, "gitignored-source") for p in ("outputs", "sat")]


def test_a_plain_copy_names_each_ignored_directory_holding_python_files(tmp_path):
    write(tmp_path, {**LAYOUT, **LOCAL, "data/images/a.json": "{}", "checkpoints/x.bin": ""})
    (tmp_path / ".gitignore").write_text("**/sat\ntest*\noutputs/\ndata/\ncheckpoints/\n")
    proc, paths, diags = scan(tmp_path)
    assert paths == ["main.py", "test_local.py", "test_pipeline.py"]  # files `test*` names: shipped, scanned
    assert diags == [
        {"path": "outputs", "kind": "gitignored-source",
         "message": "1 Python file not scanned: .gitignore ignores them, and no git repository says whether "
                    "they are tracked (--no-gitignore scans them)"},
        {"path": "sat", "kind": "gitignored-source",
         "message": "3 Python files not scanned: .gitignore ignores them, and no git repository says whether "
                    "they are tracked (--no-gitignore scans them)"},
    ]  # data/ and checkpoints/ hold no Python: nothing to say
    proc = run_cli("scan", "--no-config", "--no-cache", tmp_path)
    assert "sat: gitignored-source: 3 Python files not scanned" in proc.stdout
    assert run_cli("scan", "--no-config", "--no-cache", "--strict", tmp_path).returncode == 2  # gate never silent
    _, paths, diags = scan(tmp_path, "--no-gitignore")
    assert "sat/sgm/model.py" in paths and "outputs/run1/code.py" in paths and diags == []


def test_ignored_notebooks_are_scanned_and_ignored_launcher_folders_named(tmp_path):
    # DINO's .gitignore names `scripts/` (its launchers) and `*.ipynb` (its demo notebook), both committed: the
    # notebook present in a plain copy was shipped and is scanned; the folder is named; run outputs (YAML, JSON,
    # logs) under an ignored folder are not code and not counted
    nb = json.dumps({"cells": [{"cell_type": "code", "source": ["import flash_attn\n"]}], "metadata": {},
                     "nbformat": 4, "nbformat_minor": 5})
    write(tmp_path, {".gitignore": "scripts/\n*.ipynb\nlogs/\n", "main.py": BLOCKER, "demo.ipynb": nb,
                     "scripts/train.sh": "python main.py\n", "scripts/eval.sh": "python main.py --eval\n",
                     "scripts/launch.py": "x = 1\n", "scripts/nb.ipynb": "{}", "logs/run1/config.yaml": "a: 1\n",
                     "logs/run1/out.json": "{}"})
    _, paths, diags = scan(tmp_path)
    assert paths == ["demo.ipynb", "main.py"]
    assert [(d["path"], d["message"].split(" not scanned")[0]) for d in diags] == [
        ("scripts", "1 Python file, 1 notebook and 2 shell scripts")]


def test_a_nested_gitignore_is_named_in_the_diagnostic(tmp_path):
    write(tmp_path, {"lib/.gitignore": "gen/\n", "lib/ok.py": "x = 1\n", "lib/gen/a.py": BLOCKER,
                     "lib/gen/venv/pyvenv.cfg": "", "lib/gen/venv/site.py": BLOCKER,
                     "lib/gen/__pycache__/a.py": BLOCKER})
    _, _, diags = scan(tmp_path)
    assert [(d["path"], d["message"].split(":")[0], d["message"].split(": ")[1].split(" ignores")[0])
            for d in diags] == [("lib/gen", "1 Python file not scanned", "lib/.gitignore")]


def test_counting_stops_at_a_budget_and_says_so(tmp_path, monkeypatch):
    write(tmp_path, {".gitignore": "gen/\n", **{f"gen/m{i}.py": "" for i in range(12)}})
    monkeypatch.setattr(discover, "_COUNT_BUDGET", 5)
    disc = Discoverer(tmp_path)
    assert list(disc.files([tmp_path])) == []
    assert [d.message.split(" not scanned")[0] for d in disc.diagnostics] == ["at least 5 Python files"]


SUBPACKAGE = {
    ".gitignore": "datasets\noutputs/\n",
    "pkg/__init__.py": "",
    "pkg/datasets/__init__.py": "",
    "pkg/datasets/loader.py": BLOCKER,
    "pkg/datasets/outputs/copy.py": BLOCKER,  # another pattern of the same file: lost below the subpackage
    "pkg/datasets/sub/.gitignore": "gen.py\n",  # a .gitignore below it still counts
    "pkg/datasets/sub/gen.py": BLOCKER,
    "pkg/outputs/run.py": BLOCKER,  # no __init__.py: not a subpackage
    "datasets/__init__.py": "",  # a top-level package: no parent package imports it
    "datasets/prep.py": BLOCKER,
}


def test_a_plain_copy_scans_an_ignored_subpackage_of_a_package(tmp_path):
    # (a script imports the sub-package: one nothing imports is dead as a whole, never-imported)
    write(tmp_path, {**SUBPACKAGE, "main.py": "import pkg.datasets.loader\n"})
    _, paths, diags = scan(tmp_path)
    # sub/gen.py is a file its .gitignore names: present in the copy, so shipped and scanned
    assert paths == ["pkg/datasets/loader.py", "pkg/datasets/outputs/copy.py", "pkg/datasets/sub/gen.py"]
    assert [(d["path"], d["message"].split(" not")[0]) for d in diags] == [
        ("datasets", "2 Python files"), ("pkg/outputs", "1 Python file")]


@needs_git
def test_in_a_git_repository_an_untracked_ignored_subpackage_is_not_scanned(tmp_path):
    git(tmp_path, "init", "-q")
    write(tmp_path, {**SUBPACKAGE, "main.py": BLOCKER})
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    _, paths, diags = scan(tmp_path)
    assert paths == ["main.py"] and diags == []


def test_a_wandb_run_folder_is_a_past_run_not_the_project(tmp_path):
    # experts4bit-qlora (fresh72) committed `ab-telemetry/wandb/offline-run-.../files/requirements.txt`, the pip freeze
    # of the machine a past run used; a folder of the project that merely sits under `wandb/` is scanned
    write(tmp_path, {
        "ab-telemetry/wandb/offline-run-20260703_174045-jym7tnum/files/requirements.txt": "bitsandbytes==0.43.1\n",
        "wandb/run-20250101_120000-abc123/files/code/train.py": BLOCKER,
        "wandb/helpers/log.py": BLOCKER,
        "train.py": BLOCKER,
    })
    _proc, got, _diagnostics = scan(str(tmp_path))
    assert got == ["train.py", "wandb/helpers/log.py"]


def test_a_cmake_build_tree_is_generated_output_not_source(tmp_path):
    # Lightsheet nuclei segmentation (fresh78) committed `cpp/build_main/`, a CMake build tree holding CMake's CUDA
    # probes (`detect_cuda_compute_capabilities.cu`, `CMakeFiles/3.22.1/CompilerIdCUDA/CMakeCUDACompilerId.cu`); an
    # in-source build keeps its cache beside CMakeLists.txt and stays scanned, a CMakeFiles folder never is
    cu = "__global__ void k(float* x) { x[0] = 1; }\n"
    write(tmp_path, {"cpp/build_main/CMakeCache.txt": "", "cpp/build_main/detect_cuda_compute_capabilities.cu": cu,
                     "cpp/build_main/CMakeFiles/3.22.1/CompilerIdCUDA/CMakeCUDACompilerId.cu": cu,
                     "cpp/CMakeLists.txt": "project(x LANGUAGES CXX CUDA)\n", "cpp/kernels/op.cu": cu,
                     "ext/CMakeCache.txt": "", "ext/CMakeLists.txt": "project(y)\n", "ext/op.cu": cu,
                     "ext/CMakeFiles/probe.cu": cu})
    _, paths, _ = scan(tmp_path)
    assert paths == ["cpp/CMakeLists.txt", "cpp/kernels/op.cu", "ext/op.cu"]


def test_a_build_folder_of_recipes_is_source_a_build_output_is_not(tmp_path):
    # GRICS-torch (blind79) keeps its Dockerfile and pinned requirements in `build/`; a setuptools output folder
    # (`build/lib/...`) holds none of those and stays skipped
    write(tmp_path, {"build/Dockerfile": "FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04\n",
                     "build/requirements-torch.txt": "torch==2.5.1+cu121\n",
                     "pkg/build/lib/pkg/ops.py": BLOCKER, "dist/Dockerfile.txt": "FROM nvidia/cuda:12.1.1\n"})
    _, paths, _ = scan(tmp_path)
    assert paths == ["build/Dockerfile", "build/requirements-torch.txt"]
