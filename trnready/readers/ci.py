"""CI workflows: the Python versions each test job runs on.

A job that runs the tests (pytest, unittest, nose, tox, nox, `make test`, `setup.py test`, a test script, or a job named
after its tests) on literal Python versions none of which is 3.12-3.14 is a part of the project not tested on a
Python TorchNeuron supports: one finding per workflow file from the catalogue's `python` matcher with role "ci", at
the first such job's versions, the other such jobs' places (and each item of a block list) as its occurrences. Since
session 26 each job is judged on its own: another job or workflow testing 3.12+ no longer silences it (the message
says "other CI jobs test 3.12+"); the blind labels call the GPU job on 3.10 beside a CPU matrix up to 3.14 a hit. Jobs
that only lint, build docs or packages are left alone, and so are jobs whose version is not a literal (`3.x`, an
unresolved expression, `python-version-file`). Lint, docs, wheel and release jobs were reconsidered in session 13
(docs/file-kinds-configs.md, "CI workflows"): the hand labels call them hits and look-alikes alike, and reading them
added findings on labelled look-alikes, so they stay out. The exception is a wheel-build job over a matrix of two or
more literal Python versions (`pyver: ["3.8", ..., "3.11"]` + `bdist_wheel`): the Pythons the project ships.

Jobs: GitHub Actions and CircleCI `jobs.<id>`, GitLab top-level jobs, Buildkite and Azure step/job items, the
steps of a local composite action (`.github/actions/<name>/action.yml`, whose `${{ inputs.x }}` is the input's
default), Travis CI's default job (`.travis.yml`: `python: [3.6, 3.7]` with its `script:`) and its `include` items.

A job (or one `matrix.include` item) that runs on another accelerator's machines — a runner label naming a
GPU, ROCm or TPU machine, or a container started with `--gpus` — is that accelerator's own test or build leg,
not part of the Neuron port: every finding inside it is marked guarded (listed with --show-guarded, never
counted), except the lines that show where it runs (the GPU runner, the container's `--gpus` option and its
image: the items to act on when adding a Trainium leg). Such a job never stands for the project's Python requirement
either. The vocabulary is catalogue data: [context.values] other-accelerator-labels and
accelerator-container-options.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import replace

from packaging.specifiers import SpecifierSet

from .. import requirements as rq
from . import deps
from .cpu_branches import CPU_WHEELS
from .emit import Emitter, emit_pyreqs
from .outline import Entry

_VERSION_KEY = re.compile(r"(?i)^(?:python|py)(?:[-_ ]?(?:version|versions|ver))?$")
_VERSION = re.compile(r"^(?:python|py|cpython-?)?(\d)\.(\d{1,2})(?:\.\d+)?$", re.I)
_EXPR = re.compile(r"\$\{\{\s*(?:env|matrix|vars|inputs)\.([\w-]+)\s*\}\}")
_TEST = re.compile(r"(?i)(?<![\w-])(?:py\.?test|unittest|nosetests|nose2|tox|nox|hatch\s+(?:run\s+(?:[\w.-]+:)?)?test[\w-]*(?!:)|make\s+(?:\S+\s+)*test\w*"
                   r"|coverage\s+run|run_tests?|test[\w-]*\.sh|tests?/|setup\.py\s+test)(?![\w-])")
# Installing the project itself (`pip install .`, `pip install -e .[dev]`, its requirements files, `poetry install`)
# checks that it installs on that Python: an install check counts like a test job (a release job building wheels
# does not install the project).
_INSTALLS = re.compile(r"(?i)(?<![\w-])(?:(?:uv\s+)?pip3?\s+install\s+(?:-\S+\s+)*(?:-e\s+|--editable\s+)?[\"\x27]?\."
                       r"(?:\[(?:[\w,.-]|\$\{\{[^}\n]*\}\})*\])?[\"\x27]?(?=\s|$)|(?:uv\s+)?pip3?\s+(?:-\S+\s+)*install\s+(?:-\S+\s+)*-r\s+\S*requirements"
                       r"|poetry\s+install|uv\s+sync|pdm\s+install)")
_NOT_TEST_NAME = re.compile(r"(?i)lint|format|style|quality|pre-?commit|docs?\b|documentation|release|publish|deploy|build-docs|"
                            r"typecheck|mypy|spell")
# Linters and formatters: a job that installs the project only to run these checks code style, not that the
# project works on its Python (FastChat's `build` job: `pip install -e '.[dev]'`, then pylint and black).
_LINT_CMD = re.compile(r"(?i)(?<![\w-])(?:pylint|black|ruff|flake8|isort|mypy|pyright|pre-commit|yapf|codespell|"
                       r"pydocstyle|pycodestyle)(?![\w-])")
# Building the project's wheels (`python setup.py bdist_wheel`, `python -m build`, `pip wheel .`, cibuildwheel): over a
# matrix of Python versions, the job ships the project for exactly those Pythons (AutoGPTQ's CUDA wheel matrix
# `pyver: ["3.8", ..., "3.11"]`). One host Python that runs the build (a release job's 3.10, cibuildwheel's host)
# says nothing of the Pythons the project supports and stays out, as lint and docs jobs do.
_WHEEL_BUILD = re.compile(r"(?i)(?<![\w-])(?:bdist_wheel|python3?\s+-m\s+build\b|pip3?\s+wheel\s|cibuildwheel|"
                          r"uv\s+build\b|poetry\s+build\b|hatch\s+build\b)")
_GITLAB_RESERVED = frozenset({"stages", "variables", "default", "include", "workflow", "image", "services",
                              "before_script", "after_script", "cache", "pages"})
# Travis CI keys that are no part of the default job's run (notifications, deployment, the stage list)
_TRAVIS_NOT_JOB = frozenset({"notifications", "deploy", "stages", "branches", "cache", "git", "addons"})
# Travis CI runs its `install:` / `before_install:` commands in the job too (`install: "pip install -r
# requirements.txt"` with a `script:` that only byte-compiles and runs the examples: PyTorchZeroToAll, blind56)
_COMMAND_KEYS = frozenset({"run", "script", "command", "commands", "steps", "before_script", "bash", "pwsh", "install",
                           "before_install"})


def _job_of(rel: str, e: Entry):
    keys = e.keys
    low = rel.lower()
    if deps.is_action(rel):  # a local composite action: its steps are one job's
        return ("runs",) if keys and keys[0] == "runs" else None
    if deps.is_travis(rel):  # Travis CI: each `jobs.include` / `matrix.include` item, the rest of the file one job
        if len(keys) > 1 and keys[0] in ("jobs", "matrix") and keys[1] == "include":
            return (keys[0], "include", e.item) if e.item else None
        return ("travis",) if keys and keys[0] not in _TRAVIS_NOT_JOB else None
    if ".gitlab" in low:
        if keys and keys[0] not in _GITLAB_RESERVED and not keys[0].startswith("."):
            return (keys[0],)
        return None
    if "jobs" in keys:
        i = keys.index("jobs")
        if len(keys) > i + 1:
            return keys[: i + 2]
        return None
    if keys and keys[0] == "steps" and e.item:  # Buildkite
        return ("steps", e.item)
    return None


def ci_findings(rel: str, entries: list[Entry], lines: list[str], engine, em: Emitter, path=None) -> None:
    root = deps.github_root(path) if path is not None else None
    jobs = test_jobs(rel, entries, lines, root, builds=True)
    values = engine.catalogue.context_values
    legs = accelerator_legs(rel, entries, values)
    whole_legs = {leg.job for leg in legs if leg.whole}
    # A GPU leg whose Python cannot be told (the Python of a CUDA machine image) says nothing of what the
    # project is tested on; one that names 3.12+ still tests the project there
    tested = [j for j in jobs if not j.get("builds") and not (j["key"] in whole_legs and not j["found"])]
    # A job covering 3.12+ (or a version we cannot tell) is never reported. Since session 53 a project whose CI
    # already tests a named 3.12+ Python (another job of this file, or another workflow of the folder) has nothing
    # to move: its jobs on older Pythons are choices of what else to test (five precision verdicts, fresh68/69/79,
    # call such findings wrong; session 26 had reported them with a note). A job beside one whose Python cannot be
    # told is still judged on its own.
    jobs = [j for j in jobs if not _covers_supported(j)]
    if any(_tests_supported(j) for j in tested) or (path is not None and _siblings_cover_supported(path)):
        return
    elsewhere = any(_covers_supported(j) for j in tested)
    # The project's own requirement admits 3.12+: the CI versions are a choice of what to test, not the
    # requirement (said in the message; the item is an advisory either way: CI is what is tested, not required).
    admitted = path is not None and _packaging_admits_supported(path)
    # Another accelerator's test leg is not the project's Python; the others make one item per workflow file
    # (the file never tests 3.12-3.14), at its first job, with the other jobs' places as its occurrences.
    jobs = [j for j in jobs if not any(leg.whole and leg.job == j["key"] for leg in legs) and _reportable(j)]
    if not jobs:
        return
    start = len(em.out)
    _report(jobs, lines, engine, em)
    # every place a reported job names its Python (`uv python install 3.9`, then `uv python pin 3.9`) is a line
    # to change, not only the first
    more = sorted({p for j in jobs for p in _places(j, lines)} - {_where(jobs[0], lines)})
    note = [" (the packaging requirement admits 3.12-3.14)"] if admitted else []
    note += [" (another CI job's Python cannot be told)"] if elsewhere else []
    em.out[start:] = [replace(f, occurrences=tuple((ln, col, f.rule) for ln, col in more),
                              **({"message": f.message + "".join(note)} if note else {})) for f in em.out[start:]]


# ---------------------------------------------------------------- jobs on another accelerator

# Keys naming the machine a job runs on (GitHub runs-on / a reusable workflow's `runner` input, GitLab tags,
# CircleCI resource_class / machine, Buildkite agents, Azure pool).
_RUNNER_KEYS = frozenset({"runs-on", "runner", "runners", "tags", "resource_class", "machine", "agents", "pool"})


class Leg:
    """A job (whole=True) or one matrix.include item of it that runs on another accelerator."""

    __slots__ = ("job", "whole", "first", "last", "evidence")

    def __init__(self, job, whole: bool, first: int, last: int, evidence: set):
        self.job, self.whole, self.first, self.last, self.evidence = job, whole, first, last, evidence


def _last_line(e: Entry) -> int:
    return e.line + (e.value.count("\n") if e.value else 0)


def names_accelerator(value: str, labels) -> bool:
    """`linux.g5.12xlarge.nvidia.gpu`, `4-core-ubuntu-gpu-t4`, `aws-g4dn-2xlarge`: a token of the label is
    in the vocabulary (tokens split at anything but letters and digits, compared lower-case)."""
    tokens = [t for t in re.split(r"[^a-z0-9]+", value.lower()) if t]
    return any(fnmatch.fnmatchcase(t, pat) for t in tokens for pat in labels)


_MATRIX_RUNNER = re.compile(r"^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$")


def matrix_runners(rel: str, entries: list[Entry]) -> list[Entry]:
    """The matrix values a job's runner reads (`runs-on: ${{ matrix.os }}` with `matrix: os: [linux-gpu-2]`),
    as entries under the runner key at the place of each value: the machines the job runs on."""
    refs: dict = {}  # (job, matrix key) -> the runner entry reading it
    for e in entries:
        if e.value is None or e.key.lower() not in _RUNNER_KEYS:
            continue
        m = _MATRIX_RUNNER.match(e.value.strip())
        job = _job_of(rel, e)
        if m and job is not None and "matrix" not in e.keys:
            refs.setdefault((tuple(job), m.group(1).lower()), e)
    if not refs:
        return []
    out = []
    for e in entries:
        if e.value is None or "matrix" not in e.keys or "${{" in e.value:
            continue
        job = _job_of(rel, e)
        runner = refs.get((tuple(job), e.key.lower())) if job is not None else None
        if runner is not None:
            out.append(Entry(path=runner.path, value=e.value, line=e.line, col=e.col, end_col=e.end_col,
                             item=e.item, key_line=e.key_line, in_list=e.in_list))
    return out


def _input_default(e: Entry) -> bool:
    """`inputs: python-version: default: "3.11"` of a composite action: what `${{ inputs.python-version }}` is when
    the caller passes nothing."""
    return len(e.keys) == 3 and e.keys[0] == "inputs" and e.keys[2] == "default"


def _reusable_runner(rest: tuple) -> bool:
    """`with: runner: linux.g5.4xlarge.nvidia.gpu` at a job's own level: the input naming the machine of a job that
    calls a reusable workflow (`uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main`), which runs the
    job's `script:` there. The inputs a step passes to an action sit under `steps` and are not the job's machine."""
    return len(rest) == 2 and rest[0] == "with" and rest[1].lower() in _RUNNER_KEYS


def accelerator_legs(rel: str, entries: list[Entry], values: dict) -> list[Leg]:
    """The jobs and matrix items of one CI file that run on another accelerator's machines."""
    labels = tuple(v.lower() for v in values.get("other-accelerator-labels", ()))
    options = tuple(values.get("accelerator-container-options", ()))
    if not labels and not options:
        return []
    jobs: dict = {}
    for e in entries:
        job = _job_of(rel, e)
        if job is not None:
            jobs.setdefault(tuple(job), []).append(e)
    # matrix keys a runner reads (`runs-on: ${{ matrix.os }}`): their values are the job's machines
    read_keys = {(tuple(job), m.group(1).lower()) for e in entries if e.value and e.key.lower() in _RUNNER_KEYS
                 for m in [_MATRIX_RUNNER.match(e.value.strip())] if m
                 for job in [_job_of(rel, e)] if job is not None}
    out: list[Leg] = []
    for job, items in jobs.items():
        depth = sum(isinstance(j, str) for j in job)  # Buildkite's ("steps", item line): one key deep
        first = min(e.key_line or e.line for e in items)
        last = max(_last_line(e) for e in items)
        direct: list = []  # (entry, names an accelerator) of the job's own runner values
        matrix: list = []  # ... of runner values in its matrix, outside include items
        include: dict = {}  # include item line -> [(entry, accelerator)]
        container: list = []  # container options asking for GPUs
        images: list = []  # the job's container image (`container: image: nvidia/cuda:12.8.0-runtime`)
        for e in items:
            if e.value is None or not e.value.strip():
                continue
            rest = e.keys[depth:]
            if not rest:
                continue
            runner = any(k.lower() in _RUNNER_KEYS for k in rest[:1]) or _reusable_runner(rest) or (
                "matrix" in rest and (rest[-1].lower() in _RUNNER_KEYS or (job, rest[-1].lower()) in read_keys))
            # A GitHub expression's quoted fallback (`${{ needs.setup.outputs.label || 'L20x8' }}`) is reported as a
            # GPU runner (TRN610, configs.literal_words) but does not make the job a leg: a caller may well name a
            # CPU machine, and guarding would hide the job's other findings on a guess.
            if runner and "${{" not in e.value:
                hit = (e, names_accelerator(e.value, labels))
                if "include" in rest and e.item:
                    include.setdefault(e.item, []).append(hit)
                elif "matrix" in rest:
                    matrix.append(hit)
                else:
                    direct.append(hit)
            elif rest[0] == "container" and rest[-1] == "options" and any(o in e.value for o in options):
                container.append(e)
            elif rest[0] == "container" and rest[-1] in ("container", "image"):
                images.append(e)
        # The labels of one runner are all required (`[self-hosted, gpu]` is a GPU machine); the values of a
        # matrix are alternatives (every one must name an accelerator).
        gpu_items = {line: hits for line, hits in include.items() if any(a for _, a in hits)}
        whole = bool(container) or any(a for _, a in direct) or (
            not direct and ((bool(matrix) and all(a for _, a in matrix) and not include)
                            or (bool(include) and len(gpu_items) == len(include) and not matrix)))
        if whole:
            # the container image is where the leg runs too: a CUDA image is one more line of it to change
            evidence = {e.line for e in container} | {e.line for e in images}
            evidence |= {e.line for e, a in direct + matrix if a}
            evidence |= {e.line for hits in include.values() for e, _ in hits}
            out.append(Leg(job, True, first, last, evidence))
            continue
        for line, hits in gpu_items.items():
            span = [e for e in items if e.item == line]
            out.append(Leg(job, False, line, max(_last_line(e) for e in span), {e.line for e, _ in hits}))
    return out


_ANCHOR = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?[\w.-]+[ \t]*:[ \t]*&(?P<name>[\w.-]+)[ \t]*(?:#.*)?$")
_ALIAS = re.compile(r"(?<![\w&])\*(?P<name>[\w.-]+)")
_KEY_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?P<key>[\w.-]+)[ \t]*:[ \t]*(?P<value>[^#]*)")


def _anchor_blocks(lines: list[str]) -> dict:
    """YAML anchors defined on a key (`gpu_small: &gpu_small` and the indented block below it): name -> (first
    line, last line)."""
    out: dict = {}
    for i, raw in enumerate(lines):
        m = _ANCHOR.match(raw)
        if not m:
            continue
        indent, last = len(m.group("indent").expandtabs()), i + 1
        for j in range(i + 1, len(lines)):
            text = lines[j]
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            if len(text) - len(text.lstrip()) <= indent:
                break
            last = j + 1
        out.setdefault(m.group("name"), (i + 1, last))
    return out


def _runner_lines(lines: list[str], first: int, last: int, labels) -> set:
    """Lines of a block whose key, or a key above it in the block, names the machine (`resource_class:
    gpu.nvidia.small.multi`, `machine:` / `image: ubuntu-2004-cuda-11.2`) with a value naming an accelerator."""
    out: set = set()
    stack: list = []  # [(indent, key)]
    for n in range(first, last + 1):
        m = _KEY_LINE.match(lines[n - 1])
        if not m:
            continue
        indent = len(m.group("indent").expandtabs())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, m.group("key").lower()))
        value = m.group("value").strip()
        if value and any(k in _RUNNER_KEYS for _, k in stack) and names_accelerator(value, labels):
            out.add(n)
    return out


def anchored_legs(rel: str, entries: list[Entry], lines: list[str], legs: list, values: dict) -> list:
    """CircleCI-style configurations define executors and steps once, as YAML anchors at the top of the file
    (`gpu_small: &gpu_small` with `machine:` and `resource_class: gpu.nvidia.small.multi`; `install_stable:
    &install_stable` with a `pip install torch==... --extra-index-url .../cu117` step), and jobs merge them in
    (`<<: *gpu_small`, `- <<: *install_stable`). A job merging an anchor whose runner names an accelerator runs on
    that accelerator (a leg, like a job naming it itself); an anchor used only inside such legs is part of them, so
    its block is a leg too, the lines showing where it runs (the runner's lines) its evidence."""
    joined = "".join(lines)
    if "&" not in joined or "*" not in joined:
        return []
    labels = tuple(v.lower() for v in values.get("other-accelerator-labels", ()))
    anchors = _anchor_blocks(lines)
    if not anchors:
        return []
    runner = {name: _runner_lines(lines, a, b, labels) for name, (a, b) in anchors.items()}
    uses: dict = {}  # anchor name -> lines of its aliases
    for n, raw in enumerate(lines, 1):
        for m in _ALIAS.finditer(raw.split("#", 1)[0]):
            if m.group("name") in anchors:
                uses.setdefault(m.group("name"), []).append(n)
    spans: dict = {}
    for e in entries:
        job = _job_of(rel, e)
        if job is not None:
            a, b = spans.get(tuple(job), (e.key_line or e.line, _last_line(e)))
            spans[tuple(job)] = (min(a, e.key_line or e.line), max(b, _last_line(e)))
    known = {leg.job for leg in legs if leg.whole}
    out: list[Leg] = []
    gpu_jobs = []
    for job, (a, b) in spans.items():
        if job in known:
            gpu_jobs.append((a, b))
            continue
        if any(runner[name] and any(a <= ln <= b for ln in at) for name, at in uses.items()):
            gpu_jobs.append((a, b))
            out.append(Leg(job, True, a, b, set()))
    if not gpu_jobs:
        return out
    for name, at in uses.items():
        first, last = anchors[name]
        if all(any(a <= ln <= b for a, b in gpu_jobs) for ln in at):
            out.append(Leg(("anchor", name), False, first, last, runner[name]))
    return out


def guard_accelerator_legs(rel: str, entries: list[Entry], findings: list, values: dict,
                           lines: list[str] | None = None) -> list:
    """Findings inside a job or matrix item that runs on another accelerator (or a YAML anchor used only by such
    jobs), marked guarded; the lines that show where it runs stay as they are."""
    legs = accelerator_legs(rel, entries, values)
    if lines:
        legs = legs + anchored_legs(rel, entries, lines, legs, values)
    if not legs:
        return findings
    out = []
    for f in findings:
        if any(leg.first <= f.line <= leg.last and f.line not in leg.evidence for leg in legs):
            f = replace(f, guarded=True, guarded_by="ci-other-accelerator")
        out.append(f)
    return out


def _job_spans(rel: str, entries: list[Entry]) -> list:
    """(first line, last line, the text of its commands) of each job of a CI file (the job shapes of _job_of)."""
    spans: dict = {}
    for e in entries:
        job = _job_of(rel, e)
        if job is None:
            continue
        first, last, cmds = spans.get(job, (e.line, e.line, []))
        spans[job] = (min(first, e.line), max(last, _last_line(e)), cmds)
        if e.value is not None and set(e.keys) & _COMMAND_KEYS:
            cmds.append(e.value)
    return [(first, last, " \n".join(cmds)) for first, last, cmds in spans.values()]


def drop_lint_job_findings(rel: str, entries: list[Entry], findings: list, values: dict) -> list:
    """Findings of the rules in `lint-job-rules` (the Python of a job's container image, TRN604) inside a job that
    only lints: its commands run a linter or formatter (pre-commit, flake8, black, ...) and no test suite and no
    wheel build. Such a job never runs the project, so the Python its image ships says nothing about a port; the
    test jobs of the same file stay reported. The same job shapes as test_jobs, in GitHub Actions, CircleCI and
    GitLab CI (a job with no command at all is no lint job)."""
    rules = frozenset(values.get("lint-job-rules", ()))
    if not any(f.rule in rules for f in findings):
        return findings
    lint = []
    for first, last, cmds in _job_spans(rel, entries):
        text = _DOC_CHECK.sub(" ", cmds)
        if _LINT_CMD.search(text) and not _TEST.search(text) and not _WHEEL_BUILD.search(text):
            lint.append((first, last))
    if not lint:
        return findings
    return [f for f in findings if f.rule not in rules or not any(a <= f.line <= b for a, b in lint)]


def drop_admitted_image_pythons(rel: str, findings: list, values: dict, path=None) -> list:
    """Findings of the rules in `admitted-python-ci-rules` (the Python of a CI job's container image, TRN604) when
    the project's packaging declares a Python requirement that admits 3.12-3.14 (fairscale's CircleCI executors
    `circleci/python:3.8` ... `cimg/python:3.11` beside `python_requires=">=3.8"`). The image is the Python that
    CI job tests on, a choice of what CI tests, which the CI rule judges over all the workflow's test jobs (TRN523,
    advisory); the project's requirement is what a port must change, and it already admits a supported Python.
    Without a declaration the image stays reported: it is the best evidence of the Python the project runs on."""
    rules = frozenset(values.get("admitted-python-ci-rules", ()))
    if path is None or not any(f.rule in rules for f in findings):
        return findings
    if not _packaging_admits_supported(path):
        return findings
    return [f for f in findings if f.rule not in rules]


def guard_admitted_torch_pins(findings: list, values: dict, path=None) -> list:
    """Findings of the rules in `admitted-torch-ci-rules` (a torch pinned older than torch-neuronx's, TRN506) in a CI
    file are guarded (`admitted-torch`) when the project's packaging declares a torch requirement that admits 2.13
    or 2.14 (torchcde's test job installs `torch==1.9.0` beside setup.py's `torch>=1.7.0`; gpytorch's CPU job pins
    its oldest supported torch). The pin is the version that CI job tests on, a choice of what CI covers; what a port
    changes is the requirement, which already admits a torch-neuronx build. Without a torch declaration the CI pin is
    the best evidence of what the project runs on and stays reported."""
    rules = frozenset(values.get("admitted-torch-ci-rules", ()))
    if path is None or not any(f.rule in rules and not f.guarded for f in findings):
        return findings
    if not _packaging_admits(path)[1]:
        return findings
    return [replace(f, guarded=True, guarded_by="admitted-torch") if f.rule in rules and not f.guarded else f
            for f in findings]


# PyTorch CPU wheels (`torch==1.8.1+cpu`, the cpu index `download.pytorch.org/whl/cpu`) and any CUDA build
# (`+cu118`, `/whl/cu121`, one chosen by a variable: `/whl/cu$CUDA_TAG`, conda's pytorch-cuda / cudatoolkit /
# cuda-toolkit). A job naming both (a build matrix with CPU and CUDA rows) installs CUDA builds.
_CPU_WHEELS = re.compile(r"(?i)" + CPU_WHEELS)
_CUDA_WHEELS = re.compile(r"(?i)\+cu(?:\d|\$)|/whl/(?:[\w.-]+/)*cu(?:\d|\$)|pytorch-cuda|cudatoolkit|cuda-toolkit")


# `pip install torch`, `pip install --pre torch torchvision ...`: a torch with no version pin in a job's commands.
_UNPINNED_TORCH = re.compile(r"\bpip3?\s+install\b[^\n;&|]*?(?<![\w.=/-])torch(?![\w.=<>~!+-])(?!\s*[=<>~!])")


def drop_cpu_wheel_job_findings(rel: str, entries: list[Entry], findings: list, values: dict) -> list:
    """Findings of the rules in `cpu-wheel-job-rules` (a matrix over CUDA versions, TRN505) inside a job whose
    commands install PyTorch's CPU wheels and no CUDA build (`pip install torch==1.8.1+cpu`, `--extra-index-url
    https://download.pytorch.org/whl/cpu`): whatever the job's name or matrix says (`build_cu102` with `cuda:
    10.2`), the wheels it installs are the CPU ones, so there is no CUDA build to replace. A job that installs
    nothing named stays reported. Findings of the rules in `cpu-job-rules` (TRN506, a torch pinned older than
    torch-neuronx's) are guarded (`cpu-ci-job`) in such a job that also installs an unpinned torch (`pip install
    --pre torch` in a nightly leg beside `torch==2.0+cpu`): the job tests a range of torch versions on the CPU, the
    old pin is its floor, which the project's own requirement declares (and is reported there). A CPU job pinned
    to one old torch only is what the project builds with, and stays reported."""
    rules = frozenset(values.get("cpu-wheel-job-rules", ()))
    guarded = frozenset(values.get("cpu-job-rules", ()))
    if not any(f.rule in rules or f.rule in guarded for f in findings):
        return findings
    spans = [(first, last, cmds) for first, last, cmds in _job_spans(rel, entries)
             if _CPU_WHEELS.search(cmds) and not _CUDA_WHEELS.search(cmds)]
    if not spans:
        return findings
    cpu = [(first, last) for first, last, _ in spans]
    # the old pin is the floor of a tested range only when the same job also installs an unpinned torch
    ranged = [(first, last) for first, last, cmds in spans if _UNPINNED_TORCH.search(cmds)]
    out = []
    for f in findings:
        inside = any(a <= f.line <= b for a, b in cpu)
        if inside and f.rule in rules:
            continue
        if f.rule in guarded and not f.guarded and any(a <= f.line <= b for a, b in ranged):
            f = replace(f, guarded=True, guarded_by="cpu-ci-job")
        out.append(f)
    return out


def test_jobs(rel: str, entries: list[Entry], lines: list[str] | None = None, root=None,
              builds: bool = False) -> list[dict]:
    """The test jobs of one CI file: name, the literal Python versions with where they are declared (a
    version key, or a shell command of the job installing one: `conda create -n env python=3.10`), and
    whether some version could not be told (`3.x`, an unresolved expression, python-version-file). With the
    repository root, a step running a local composite action (`uses: ./.github/actions/build`) contributes
    the versions that action sets up (reported in the action's own file, not here)."""
    jobs: dict = {}
    top_env: dict = {}
    title = ""
    for e in entries:
        if e.value is None:
            continue
        if e.keys == ("name",):
            title = e.value
        job = _job_of(rel, e)
        if job is None:
            if e.keys and e.keys[0] in ("env", "variables"):
                top_env[e.key.lower()] = e
            elif deps.is_action(rel) and _input_default(e):
                top_env.setdefault(e.keys[1].lower(), e)  # `${{ inputs.python-version }}`: the input's default
            continue
        jobs.setdefault(job, []).append(e)
    passed = _circleci_invocations(rel, jobs)
    out = []
    for job, items in jobs.items():
        info = _job(job, items, top_env, title, lines, root, builds, passed.get(job, {}))
        if info is not None:
            out.append(info)
    return out


_PARAM = re.compile(r"<<\s*parameters\.([\w-]+)\s*>>")


def _circleci_invocations(rel: str, jobs: dict) -> dict:
    """CircleCI: a workflow's `jobs:` list invokes the jobs the file defines, passing their parameters
    (`- build_cpu: {python: 3.8.0}` for `image: cimg/python:<< parameters.python >>`). The invocations are not jobs
    of their own: they leave `jobs` (a workflow's name, `pr_stage_test`, would make every job it lists a test), and
    each defined job gets {parameter: [entries passing a value]}."""
    if ".circleci" not in rel.lower():
        return {}
    out: dict = {}
    for job in [j for j in jobs if j and j[0] == "workflows"]:
        target = ("jobs", job[-1])
        if target not in jobs:
            if any(e.keys[-1] == "type" and e.value.strip() == "approval" for e in jobs[job]):
                del jobs[job]  # `- hold: {type: approval}`: a manual gate, no machine runs it
            continue  # an orb's job (`python/test`): nothing in this file says what it runs
        items = jobs.pop(job)
        for e in items:
            if len(e.keys) == len(job) + 1:
                out.setdefault(target, {}).setdefault(e.keys[-1], []).append(e)
    return out


def _covers_supported(job: dict) -> bool:
    return job["unknown"] or _tests_supported(job)


def _tests_supported(job: dict) -> bool:
    """The job names a Python of 3.12-3.14 (a version it does not name says nothing)."""
    return any(v in SUPPORTED for _, v in job["found"]) or any(v in SUPPORTED for v in job.get("via", ()))


SUPPORTED = ("3.12", "3.13", "3.14")
_SIBLINGS: dict = {}  # (directory, listing signature) -> any test job there covers a supported Python


_PACKAGING: dict = {}  # (root, stat) -> (declared Python admits 3.12-3.14, declared torch admits 2.13/2.14)


def _packaging_admits_supported(path) -> bool:
    """The repository's packaging declares a Python requirement (pyproject `requires-python` or Poetry
    `python`, setup.py / setup.cfg `python_requires`, read by the manifest parsers of requirements.py) that
    admits 3.12, 3.13 or 3.14. Then a test job on older versions is a choice of what CI tests, not the
    project's requirement (which the packaging rule judges itself). No declaration: the CI versions are
    the best evidence there is."""
    return _packaging_admits(path)[0]


# torch releases torch-neuronx is built for; a requirement admitting one of them needs no change
_NEURON_TORCH = ("2.13.0", "2.14.0")


def _packaging_admits(path) -> tuple[bool, bool]:
    """(admits Python 3.12-3.14, admits torch 2.13/2.14) for the packaging of the repository a CI file belongs to,
    read once per packaging state. A torch dependency with no version constraint admits every release."""
    import ast

    root = deps.project_root_of_workflow(path)
    stat = deps.packaging_stat(root)
    key = (str(root), stat)
    if key in _PACKAGING:
        return _PACKAGING[key]
    pyreqs: list = []
    torch_specs: list = []
    for name, _, size in stat:
        if size > 512 * 1024:
            continue
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace")
            if name == "pyproject.toml":
                from ..catalogue import tomllib

                man = rq.parse_pyproject(tomllib.loads(text), text)
            elif name == "setup.py":
                man = rq.parse_setup_py(ast.parse(text), text.splitlines())
            else:
                man = rq.parse_setup_cfg(text)
        except (OSError, ValueError, SyntaxError, RecursionError, TypeError):
            continue  # unreadable packaging says nothing
        pyreqs += man.pyreqs
        torch_specs += [d.alternatives for d in man.deps if d.name == "torch" and not d.extra]
    admits = any(not rq.python_excludes_all(r, ("3.12", "3.13", "3.14")) for r in pyreqs)
    torch = any(not alts or any(spec.contains(v, prereleases=True) for spec in alts for v in _NEURON_TORCH)
                for alts in torch_specs)
    if len(_PACKAGING) > 256:
        _PACKAGING.clear()
    _PACKAGING[key] = (admits, torch)
    return admits, torch


def _siblings_cover_supported(path) -> bool:
    """Does another workflow in the CI folder (.github/workflows) test on a named 3.12+ Python? Read once per folder.
    For a local action: does any workflow?"""
    from .outline import outline

    from .deps import folder_listing

    root = deps.github_root(path)
    folder = root / ".github" / "workflows" if deps.is_action(str(path)) else path.parent
    files = folder_listing(folder)
    key = (str(folder), files, str(path) if deps.is_action(str(path)) else "", deps.actions_listing(root))
    if key not in _SIBLINGS:
        if len(_SIBLINGS) > 256:
            _SIBLINGS.clear()
        covered = False
        for name, _, size in files:
            if name == path.name or size > 512 * 1024:
                continue
            try:
                text = (folder / name).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if any(_tests_supported(j) for j in test_jobs(f".github/workflows/{name}", outline(text),
                                                           text.splitlines(), root)):
                covered = True
                break
        _SIBLINGS[key] = covered
    return _SIBLINGS[key]


# A session runner asked for a lint, format, type-check or docs session (`nox --session "lint"`, `tox -e lint`,
# `nox -s docs`): the job checks style or builds documents, like a job that runs the linter itself (pytorch-fid's
# lint job on Python 3.9). A runner given any other session, or none, runs the test suite.
_LINT_SESSION = re.compile(r"(?i)(?<![\w-])(?:nox|tox)\b[^\n;&|]*?\s(?:-s|--sessions?|-e|--envs?)(?:\s+|=)[\"']?"
                           r"(?:lint|format|style|flake8|black|ruff|isort|mypy|pyright|typecheck|type-check|types|"
                           r"pre-?commit|docs?|documentation|spell)[\w.-]*[\"']?(?=[\s;&|]|$)[^\n;&|]*")
_DOC_CHECK = re.compile(r"(?i)\bpy\.?test\b[^\n;&|]*--(?:check-links|nbval\S*|nbmake|doctest-glob|markdown-docs)\b[^\n;&|]*")


def _shell_versions(items: list[Entry], lines: list[str] | None) -> list:
    """(where, "3.10") of each Python a command of the job installs (conda / uv / pyenv)."""
    if not lines:
        return []
    from .lines import shell_pyreqs

    only: set = set()
    for e in items:
        if e.value and set(e.keys) & _COMMAND_KEYS:
            only.update(range(e.line, _last_line(e) + 1))
    out = []
    for r in shell_pyreqs(lines, only) if only else ():
        m = re.match(r"==(\d)\.(\d{1,2})", str(r.alternatives[0])) if r.alternatives else None
        if m:
            out.append((Entry(path=(), value=r.raw, line=r.line, col=r.column, end_col=r.end_column,
                              key_line=r.line), f"{m.group(1)}.{m.group(2)}"))
    return out


def _wheel_matrix(job, items: list[Entry], top_env: dict, commands: str):
    """A job building the project's wheels over a matrix of two or more literal Python versions: the versions it
    ships, with `builds` set (such a job never stands for what the test jobs cover)."""
    if not _WHEEL_BUILD.search(commands):
        return None
    found = []
    for e in items:
        if "matrix" not in e.keys or not _VERSION_KEY.match(e.key.replace("_", "-")):
            continue
        m = _VERSION.match(e.value.strip()) if e.value else None
        if m is None:
            return None  # `3.x`, an expression: the shipped versions cannot be told
        found.append((e, f"{m.group(1)}.{m.group(2)}"))
    if len({v for _, v in found}) < 2:
        return None
    job_id = " ".join(str(j) for j in job[1:] if isinstance(j, str)) or str(job[0])
    return {"name": job_id, "found": found, "unknown": False, "key": tuple(job), "installs": False, "via": [],
            "builds": True}


def _job(job, items: list[Entry], top_env: dict, title: str, lines: list[str] | None = None, root=None,
         builds: bool = False, passed: dict | None = None):
    if job == ("runs",):  # a local action, named by its `name:`
        job = ("runs", title or "action")
    name = " ".join(str(j) for j in job[1:] if isinstance(j, str)) or ("" if job[0] == "steps" else str(job[0]))
    labels = [e.value for e in items if e.key in ("name", "label") and len(e.keys) <= 3]
    name = (name + " " + " ".join(labels)).strip() if name else " ".join(labels)  # Buildkite steps: their label
    commands = " \n".join(e.value for e in items if set(e.keys) & _COMMAND_KEYS)
    doc_check = bool(_DOC_CHECK.search(commands))
    commands = _DOC_CHECK.sub(" ", commands)  # pytest running a docs/link checker plugin is not the test suite
    commands = _LINT_SESSION.sub(" ", commands)
    runs_tests = bool(_TEST.search(commands))
    installs = not runs_tests and bool(_INSTALLS.search(commands))
    is_test = runs_tests or installs or (bool(re.search(r"(?i)test", name)) and not commands.strip())
    if not is_test or (not runs_tests and _NOT_TEST_NAME.search(name + " " + title)):
        return _wheel_matrix(job, items, top_env, commands) if builds else None
    if installs and (_LINT_CMD.search(commands) or doc_check):
        return None  # installed to be linted, or to check the links of its documents (`pytest --check-links`)
    found: list = []
    unknown = False
    for e in items:
        if e.key == "python-version-file":
            unknown = True
            continue
        if not _VERSION_KEY.match(e.key.replace("_", "-")):
            continue
        for value, where in _values(e, items, top_env):
            m = _VERSION.match(value.strip())
            if m:
                found.append((where, f"{m.group(1)}.{m.group(2)}"))
            elif value.strip():
                unknown = True  # 3.x, "pypy3.10", an unresolved expression: may well be 3.12+
    found += _shell_versions(items, lines)
    for e in items:
        # `image: cimg/python:<< parameters.python >>`: the Python is what the workflows pass to that parameter
        for param in _PARAM.findall(e.value) if passed and "python" in e.value.lower() else ():
            if not _VERSION_KEY.match(param.replace("_", "-")):
                continue
            for given in passed.get(param, ()):
                m = _VERSION.match(given.value.strip())
                if m:
                    found.append((given, f"{m.group(1)}.{m.group(2)}"))
                else:
                    unknown = True
    via: list = []
    for e in items:
        if root is not None and e.key == "uses" and e.value and e.value.strip().startswith("./"):
            versions = _action_versions(root, e.value.strip())
            if versions is None:
                unknown = True
            else:
                via += versions
    if not found and not via:
        # no Python named: the image's or the runner's own (ubuntu-latest ships 3.12), which may be supported
        unknown = True
    job_id = " ".join(str(j) for j in job[1:] if isinstance(j, str)) or (str(job[0]) if job[0] != "steps" else "")
    return {"name": job_id or " ".join(labels) or "?", "found": found, "unknown": unknown, "key": tuple(job),
            "installs": installs, "via": via}


_ACTIONS: dict = {}  # (action file, mtime, size) -> the literal Python versions it sets up, or None


def _action_versions(root, ref: str):
    """The Python versions a local composite action (`./.github/actions/build`) sets up: [] when it names
    none, None when one cannot be told (or the reference leaves the repository)."""
    from pathlib import Path

    from .outline import outline

    base = Path(root)
    rel = ref.split("@", 1)[0].strip()
    target = base / (rel[2:] if rel.startswith("./") else rel)
    try:
        if ".." in Path(ref).parts or not target.resolve().is_relative_to(base.resolve()):
            return None
        action = next((target / n for n in ("action.yml", "action.yaml") if (target / n).is_file()), None)
        if action is None:
            return []
        st = action.stat()
        key = (str(action), st.st_mtime_ns, st.st_size)
        if key in _ACTIONS:
            return _ACTIONS[key]
        text = action.read_text(encoding="utf-8", errors="replace") if st.st_size <= 512 * 1024 else ""
    except (OSError, ValueError):
        return None
    out: list | None = []
    entries = outline(text)
    # `python-version: ${{ inputs.python-version }}`: what the caller passes (read in the caller's `with:`), else the
    # input's default
    defaults = {e.keys[1].lower(): e.value for e in entries if e.value is not None and _input_default(e)}
    for e in entries:
        if e.value is None or not _VERSION_KEY.match(e.key.replace("_", "-")) or e.keys[:1] == ("inputs",):
            continue
        given = _EXPR.fullmatch(e.value.strip())
        value = e.value
        if given is not None and e.value.strip().startswith("${{ inputs."):
            value = defaults.get(given.group(1).lower(), e.value)
        m = _VERSION.match(value.strip())
        if m and out is not None:
            out.append(f"{m.group(1)}.{m.group(2)}")
        elif value.strip():
            out = None  # `${{ inputs.python-version }}` with no literal default, `3.x`: cannot be told
    if len(_ACTIONS) > 256:
        _ACTIONS.clear()
    _ACTIONS[key] = out
    return out


def _reportable(job: dict) -> bool:
    return not job["unknown"] and bool(job["found"])


def _where(job: dict, lines: list[str]) -> tuple[int, int]:
    """(line, column) where a job declares its Python versions (its first declaration)."""
    where = min((w for w, _ in job["found"]), key=lambda w: (w.key_line or w.line, w.col))
    line = where.key_line or where.line
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return line, len(text) - len(text.lstrip()) + 1


def _places(job: dict, lines: list[str]) -> set:
    """(line, column) of each declaration of the job's Python versions."""
    out = set()
    for where, _ in job["found"]:
        # a block list's items (`python:` then `- 3.7`, `- 3.6`) are each a line to change, besides the key
        for line in {where.key_line or where.line, where.line if where.in_list else 0} - {0}:
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            out.add((line, len(text) - len(text.lstrip()) + 1))
    return out


def _report(jobs: list[dict], lines: list[str], engine, em: Emitter) -> None:
    """One `python` finding (role "ci") for the test jobs of one file, at the first job's versions."""
    versions = sorted({v for j in jobs for _, v in j["found"]}, key=lambda v: tuple(int(x) for x in v.split(".")))
    line, col = _where(jobs[0], lines)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if len(jobs) == 1 and jobs[0].get("builds"):
        what = f"job {jobs[0]['name']} builds wheels"
    elif len(jobs) == 1:
        what = ("job {} installs the project" if jobs[0].get("installs") else "test job {} runs").format(
            jobs[0]["name"])
    else:
        what = f"test jobs {', '.join(j['name'] for j in jobs)} run"
    req = rq.PyReq(raw=f"{what} on Python {', '.join(versions)} only",
                   alternatives=[SpecifierSet(f"=={v}.*") for v in versions], line=line, column=col,
                   end_column=len(text.rstrip()) + 1)
    emit_pyreqs([req], lines, engine, em, "", role="ci")


def _values(e: Entry, items: list[Entry], top_env: dict):
    """(value, entry to report) of a version-like key, with `${{ matrix.x }}` / `${{ env.x }}` looked up."""
    m = _EXPR.fullmatch(e.value.strip())
    if not m:
        yield e.value, e
        return
    ref = m.group(1).lower()
    hits = [x for x in items if x.key.lower() == ref and x is not e and not _EXPR.fullmatch(x.value.strip())]
    if not hits and ref in top_env:
        hits = [top_env[ref]]
    if not hits:
        yield e.value, e  # unresolved: counted as unknown
    for x in hits:
        yield x.value, x
