"""Scope of a finding: which part of the project its file belongs to.

A migration engineer reads the model's blockers apart from test expectations, examples, benchmarks,
docs, CI and build files. The verdict and the exit code count `source` and `build` by default; the
other scopes stay listed. The scope comes from path conventions, and a project's config can override
it with globs (`[scopes]` in trnready.toml: `"tools/**" = "example"`).
"""
from __future__ import annotations

import fnmatch
import re
from typing import Iterable

SCOPES = ("source", "build", "test", "example", "benchmark", "docs", "ci")
DEFAULT_GATE_SCOPES = ("source", "build")

# Directory names, compared case-insensitively, one path segment at a time. The first segment from
# the root that names a scope wins: `examples/tests/x.py` is an example and `tests/benchmarks/y.py`
# is a test. This follows how projects nest their directories.
_DIRS = {
    "test": {"test", "tests", "testing", "unittest", "unittests", "unit_tests", "integration_tests", "__tests__",
             "test_utils", "testdata", "test_data"},
    "example": {"example", "examples", "demo", "demos", "tutorial", "tutorials", "sample", "samples",
                "notebooks", "cookbook", "quickstart"},
    "benchmark": {"bench", "benchmark", "benchmarks", "perf", "performance", "profiling"},
    "docs": {"doc", "docs", "documentation", "sphinx", "_docs", "site"},
    "ci": {".github", ".gitlab", ".circleci", ".buildkite", ".ci", "ci", ".azure-pipelines", ".azure", ".jenkins"},
    "build": {"docker", "dockerfiles", "containers", "container", "packaging", "conda", "conda-recipe", "recipe-conda"},
}
# The Read the Docs build configuration: what it installs builds the documentation, wherever it sits.
_DOCS_FILES = {".readthedocs.yml", ".readthedocs.yaml", "readthedocs.yml", "readthedocs.yaml"}
# `testing.py` / `testing_utils.py` inside a package hold its test suite's helpers (pyg-lib's `onlyCUDA` skip and
# `withCUDA` device list, torch_sparse's `grad_dtypes`, transformers' `testing_utils.py`); nothing else imports them.
_TEST_FILE = re.compile(r"^(test_.*|.*_test|.*_tests|conftest|testing|testing_utils)\.(py|ipynb)$", re.I)
_BENCH_FILE = re.compile(r"^(bench_.*|benchmark_.*|.*_benchmark)\.py$", re.I)
_CI_FILES = {".gitlab-ci.yml", ".gitlab-ci.yaml", "azure-pipelines.yml", "azure-pipelines.yaml", "jenkinsfile",
             ".travis.yml", "buildkite.yml", "cloudbuild.yaml", "cloudbuild.yml", "noxfile.py", "tox.ini"}
# Manifests and container files decide what gets installed: the build scope, wherever they sit
# (unless a test/example/... directory holds them).
_BUILD_FILE = re.compile(
    r"^(dockerfile([.-].*)?|.*\.dockerfile|containerfile|requirements.*\.(txt|in|pip)|constraints.*\.txt|"
    r"pyproject\.toml|pixi\.toml|setup\.py|setup\.cfg|environment.*\.ya?ml|conda.*\.ya?ml|pipfile(\.lock)?|"
    r"\.python-version|docker-compose.*\.ya?ml|compose\.ya?ml|makefile)$", re.I)


# Folders named for a test suite that may hold none: `tests/<model>/user_pgdpo_base.py` (PGDPO_TORCH, blind74) are
# the model definitions its run.py loads. Such a folder, with Python files but no file a test runner collects (pytest's
# `test_*.py` / `*_test.py`, unittest's `test*.py`, a conftest), is the program's, and its files take the scope of
# the rest of their path. Set per scan from the discovered files (use_test_free_dirs), before any worker is forked.
_SUITE_DIRS = frozenset({"test", "tests"})
_COLLECTED = re.compile(r"^(test.*|.*_test|.*_tests|conftest)\.(py|ipynb)$", re.I)
_test_free: frozenset = frozenset()


def test_free_dirs(rels: Iterable[str]) -> frozenset:
    """The `test/` and `tests/` folders (paths relative to the scan root) holding Python files of which no test
    runner collects any."""
    pythons: set = set()
    collected: set = set()
    for rel in rels:
        parts = rel.replace("\\", "/").split("/")
        if len(parts) < 2 or not parts[-1].endswith((".py", ".ipynb")):
            continue
        for k, seg in enumerate(parts[:-1]):
            if seg.lower() in _SUITE_DIRS:
                d = "/".join(parts[:k + 1])
                pythons.add(d)
                if _COLLECTED.match(parts[-1]):
                    collected.add(d)
    return frozenset(pythons - collected)


def use_test_free_dirs(dirs: frozenset) -> frozenset:
    """Make classify read these folders as no test suite (until the next call); returns them."""
    global _test_free
    _test_free = frozenset(dirs)
    return _test_free


def classify(rel: str, overrides: Iterable[tuple[str, str]] = ()) -> str:
    """The scope of the file at `rel` (a path relative to the scan root, `/`-separated)."""
    rel = rel.replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    for pattern, scope in overrides:
        if _glob(rel, pattern):
            return scope
    parts = [p for p in rel.split("/") if p]
    if not parts:
        return "source"
    name = parts[-1]
    for k, seg in enumerate(parts[:-1]):
        low = seg.lower()
        if _test_free and low in _SUITE_DIRS and "/".join(parts[:k + 1]) in _test_free:
            continue
        for scope, names in _DIRS.items():
            if low in names:
                return scope
    low = name.lower()
    if _TEST_FILE.match(name):
        return "test"
    if _BENCH_FILE.match(name):
        return "benchmark"
    if low in _CI_FILES:
        return "ci"
    if low in _DOCS_FILES:
        return "docs"
    if _BUILD_FILE.match(name):
        return "build"
    return "source"


def _glob(rel: str, pattern: str) -> bool:
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if pattern.endswith("/"):
        pattern += "**"
    if pattern.endswith("/**"):
        base = pattern[:-3]
        if rel == base or rel.startswith(base + "/"):
            return True
    return fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern)
