"""A CI test job on old Pythons is the project's requirement only when the packaging declares none that
admits 3.12-3.14 (readers/ci.py)."""
import json

from conftest import run_cli

WORKFLOW = """name: tests
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.9", "3.10"]
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      - run: pytest tests
"""


def _rules(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["severity"]) for f in json.loads(proc.stdout)["findings"]]


def _repo(root, packaging=None):
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "tests.yml").write_text(WORKFLOW)
    if packaging:
        name, text = packaging
        (root / name).write_text(text)


def test_without_a_declared_requirement_the_ci_versions_are_reported(tmp_path):
    # an advisory either way (session 13): a CI matrix is what is tested, not what is required (TRN522 is the change)
    _repo(tmp_path)
    assert _rules(tmp_path) == [(".github/workflows/tests.yml", 8, "TRN523", "advisory")]


def test_a_declared_requirement_that_admits_312_makes_it_an_advisory(tmp_path):
    _repo(tmp_path, ("pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.9"\n'))
    assert _rules(tmp_path) == [(".github/workflows/tests.yml", 8, "TRN523", "advisory")]
    msg = json.loads(run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path).stdout)["findings"][0]
    assert msg["message"].endswith("(the packaging requirement admits 3.12-3.14)")


def test_setup_py_python_requires_is_read_too(tmp_path):
    _repo(tmp_path, ("setup.py", 'from setuptools import setup\nsetup(name="x", python_requires=">=3.8")\n'))
    assert _rules(tmp_path) == [(".github/workflows/tests.yml", 8, "TRN523", "advisory")]


def test_a_declared_requirement_below_312_is_reported_in_the_packaging_and_ci(tmp_path):
    _repo(tmp_path, ("pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.9,<3.12"\n'))
    assert _rules(tmp_path) == [(".github/workflows/tests.yml", 8, "TRN523", "advisory"),
                                ("pyproject.toml", 3, "TRN522", "change")]


def test_the_cache_sees_a_change_of_the_packaging(tmp_path):
    _repo(tmp_path)
    proc = run_cli("scan", ".", "--format", "json", cwd=tmp_path)
    assert [f["message"][-10:] for f in json.loads(proc.stdout)["findings"]] == ["3.10 only`"]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    proc = run_cli("scan", ".", "--format", "json", cwd=tmp_path)
    assert [f["message"][-10:] for f in json.loads(proc.stdout)["findings"]] == ["3.12-3.14)"]


TWO_JOBS = """name: ci
on: [push]
jobs:
  unit:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.8"]
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      - run: pytest tests/unit
  integration:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: "3.9"
      - run: pytest tests/integration
"""


def test_one_finding_per_workflow_file_the_other_jobs_are_its_occurrences(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(TWO_JOBS)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [(f["line"], f["rule"], f["message"], f.get("occurrences")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(8, "TRN523", "CI test job never runs Python 3.12-3.14: `test jobs unit, integration run on Python 3.8, "
                                 "3.9 only`", [{"line": 19, "column": 11, "rule": "TRN523"}])]


def test_a_job_on_old_pythons_is_silent_beside_one_on_312(tmp_path):
    # since session 53 (five precision verdicts: fresh68, fresh69, fresh79): the project's CI already tests 3.12, so
    # the job on 3.8 is a choice of what else to test, nothing to move (session 26 had reported it with a note)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(TWO_JOBS.replace('"3.9"', '"3.12"'))
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert json.loads(proc.stdout)["findings"] == []


LINT_ONLY = """name: Python package
on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.10"]
    steps:
    - uses: actions/setup-python@v4
      with:
        python-version: ${{ matrix.python-version }}
    - name: Install dependencies
      run: |
        python -m pip install -e '.[dev]'
    - name: Run linter
      run: |
        pylint -d all -e E0602 ./pkg/
"""


def test_a_job_that_installs_the_project_only_to_lint_it_is_not_a_test_job(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "lint.yml").write_text(LINT_ONLY)
    (tmp_path / ".github" / "workflows" / "install.yml").write_text(LINT_ONLY.replace("pylint -d all -e E0602 ./pkg/",
                                                                                      "python -c 'import pkg'"))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    # the same job without the linter is an install check on 3.10 only: reported
    assert _rules(tmp_path) == [(".github/workflows/install.yml", 8, "TRN523", "advisory")]


def test_every_place_a_reported_job_names_its_python_is_an_occurrence(tmp_path):
    # `uv python install 3.9` and `uv python pin 3.9`: both are lines to change for 3.12
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: astral-sh/setup-uv@v6\n      - run: uv python install 3.9\n      - run: uv python pin 3.9\n"
        "      - run: uv run pytest -q\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [(f["line"], f["rule"], f.get("occurrences")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(8, "TRN523", [{"line": 9, "column": 7, "rule": "TRN523"}])]


CIRCLE = """version: 2.1

cpu_old: &cpu_old
  docker:
    - image: circleci/python:3.9
  resource_class: large

jobs:
  cpu_tests:
    <<: *cpu_old
    steps:
      - checkout
      - run: pip install -e . && pytest tests
"""


def test_a_ci_job_image_python_is_the_ci_choice_when_the_packaging_admits_312(tmp_path):
    # the image of a CircleCI executor (an anchor merged into the job) names Python 3.9: with a requirement that
    # admits 3.12+ it is what CI tests, not what the project needs (TRN604 is for images the project runs in)
    (tmp_path / ".circleci").mkdir()
    (tmp_path / ".circleci" / "config.yml").write_text(CIRCLE)
    (tmp_path / "setup.py").write_text('from setuptools import setup\nsetup(name="x", python_requires=">=3.8")\n')
    proc = run_cli("scan", ".", "--format", "json", cwd=tmp_path)
    assert [f["rule"] for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN604"] == []
    # a requirement that excludes 3.12: the image is one more place to change (and the cache follows setup.py)
    (tmp_path / "setup.py").write_text('from setuptools import setup\nsetup(name="x", python_requires=">=3.8,<3.12")\n')
    proc = run_cli("scan", ".", "--format", "json", cwd=tmp_path)
    got = [(f["path"], f["line"], f["rule"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN604"]
    assert got == [(".circleci/config.yml", 5, "TRN604")]
    # a Dockerfile's image is the project's own runtime: reported whatever the packaging says
    (tmp_path / "setup.py").write_text('from setuptools import setup\nsetup(name="x", python_requires=">=3.8")\n')
    (tmp_path / "Dockerfile").write_text("FROM python:3.9-slim\nRUN pip install .\n")
    assert [r[:3] for r in _rules(tmp_path) if r[2] == "TRN604"] == [("Dockerfile", 1, "TRN604")]


NOX_LINT = """name: tests
on: [push]
jobs:
  tests:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.10", "3.11"]
    steps:
    - uses: actions/setup-python@v5
      with:
        python-version: ${{ matrix.python-version }}
    - run: nox --non-interactive --session "tests-${{ matrix.python-version }}"
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: 3.9
      - run: nox --non-interactive --error-on-missing-interpreter --session "lint"
  old:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: "3.10"
      - run: tox -e lint,py310
"""


def test_a_session_runner_asked_for_a_lint_session_is_no_test_job(tmp_path):
    # pytorch-fid's lint job runs `nox --session "lint"` on 3.9; a runner given a test env beside lint (`tox -e
    # lint,py310`) still runs the suite on 3.10
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "tests.yml").write_text(NOX_LINT)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    # one finding at the tests job (line 8), the tox job's Python (26) one of its places; the nox lint job's 3.9 (19)
    # is none
    assert got == [(8, "TRN523", [26])]
