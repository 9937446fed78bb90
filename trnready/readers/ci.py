"""CI workflows: the Python versions each test job runs on.

A job that runs the tests (pytest, unittest, tox, nox, `make test`, a test script, or a job named after its
tests) on literal Python versions none of which is 3.12-3.14 means the project is not tested on a Python
TorchNeuron supports: one `python` finding (the catalogue's Python-version rule) at the first line that
declares the versions. Jobs that only lint, build docs or packages are left alone, and so are jobs whose
version is not a literal (`3.x`, an unresolved expression, `python-version-file`).

Jobs: GitHub Actions and CircleCI `jobs.<id>`, GitLab top-level jobs, Buildkite and Azure step/job items.
"""
from __future__ import annotations

import re

from packaging.specifiers import SpecifierSet

from .. import requirements as rq
from .emit import Emitter, emit_pyreqs
from .outline import Entry

_VERSION_KEY = re.compile(r"(?i)^(?:python|py)(?:[-_ ]?(?:version|versions|ver))?$")
_VERSION = re.compile(r"^(?:python|py|cpython-?)?(\d)\.(\d{1,2})(?:\.\d+)?$", re.I)
_EXPR = re.compile(r"\$\{\{\s*(?:env|matrix|vars|inputs)\.([\w-]+)\s*\}\}")
_TEST = re.compile(r"(?i)(?<![\w-])(?:py\.?test|unittest|tox|nox|hatch\s+(?:run\s+)?test|make\s+(?:\S+\s+)*test\w*"
                   r"|coverage\s+run|run_tests?|test[\w-]*\.sh|tests?/)(?![\w-])")
_NOT_TEST_NAME = re.compile(r"(?i)lint|format|style|quality|pre-?commit|docs?\b|release|publish|deploy|build-docs|"
                            r"typecheck|mypy|spell")
_GITLAB_RESERVED = frozenset({"stages", "variables", "default", "include", "workflow", "image", "services",
                              "before_script", "after_script", "cache", "pages"})
_COMMAND_KEYS = frozenset({"run", "script", "command", "commands", "steps", "before_script", "bash", "pwsh"})


def _job_of(rel: str, e: Entry):
    keys = e.keys
    low = rel.lower()
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
    jobs = test_jobs(rel, entries)
    if any(_covers_supported(j) for j in jobs) or (path is not None and _siblings_cover_supported(path)):
        return  # another test job of the project runs on 3.12+ (or on a version we cannot tell)
    for job in jobs:
        _report(job, lines, engine, em)


def test_jobs(rel: str, entries: list[Entry]) -> list[dict]:
    """The test jobs of one CI file: name, the literal Python versions with where they are declared, and
    whether some version could not be told (`3.x`, an unresolved expression, python-version-file)."""
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
            continue
        jobs.setdefault(job, []).append(e)
    out = []
    for job, items in jobs.items():
        info = _job(job, items, top_env, title)
        if info is not None:
            out.append(info)
    return out


def _covers_supported(job: dict) -> bool:
    return job["unknown"] or any(v in SUPPORTED for _, v in job["found"])


SUPPORTED = ("3.12", "3.13", "3.14")
_SIBLINGS: dict = {}  # (directory, listing signature) -> any test job there covers a supported Python


def _siblings_cover_supported(path) -> bool:
    """Does another workflow in the same CI folder (.github/workflows) test on 3.12+? Read once per folder."""
    from .outline import outline

    from .deps import folder_listing

    folder = path.parent
    files = folder_listing(folder)
    key = (str(folder), files)
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
            if any(_covers_supported(j) for j in test_jobs(f".github/workflows/{name}", outline(text))):
                covered = True
                break
        _SIBLINGS[key] = covered
    return _SIBLINGS[key]


_DOC_CHECK = re.compile(r"(?i)\bpy\.?test\b[^\n;&|]*--(?:check-links|nbval\S*|nbmake|doctest-glob|markdown-docs)\b[^\n;&|]*")


def _job(job, items: list[Entry], top_env: dict, title: str):
    name = " ".join(str(j) for j in job[1:] if isinstance(j, str)) or ("" if job[0] == "steps" else str(job[0]))
    labels = [e.value for e in items if e.key in ("name", "label") and len(e.keys) <= 3]
    name = (name + " " + " ".join(labels)).strip() if name else " ".join(labels)  # Buildkite steps: their label
    commands = " \n".join(e.value for e in items if set(e.keys) & _COMMAND_KEYS)
    commands = _DOC_CHECK.sub(" ", commands)  # pytest running a docs/link checker plugin is not the test suite
    runs_tests = bool(_TEST.search(commands))
    is_test = runs_tests or (bool(re.search(r"(?i)test", name)) and not commands.strip())
    if not is_test or (not runs_tests and _NOT_TEST_NAME.search(name + " " + title)):
        return None
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
    if not found:
        # no Python named: the image's or the runner's own (ubuntu-latest ships 3.12), which may be supported
        unknown = True
    job_id = " ".join(str(j) for j in job[1:] if isinstance(j, str)) or (str(job[0]) if job[0] != "steps" else "")
    return {"name": job_id or " ".join(labels) or "?", "found": found, "unknown": unknown}


def _report(job: dict, lines: list[str], engine, em: Emitter) -> None:
    found, name = job["found"], job["name"]
    if job["unknown"] or not found:
        return
    versions = sorted({v for _, v in found}, key=lambda v: tuple(int(x) for x in v.split(".")))
    where = min((w for w, _ in found), key=lambda w: (w.key_line or w.line, w.col))
    line = where.key_line or where.line
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    col = len(text) - len(text.lstrip()) + 1
    req = rq.PyReq(raw=f"test job {name} runs on Python {', '.join(versions)} only",
                   alternatives=[SpecifierSet(f"=={v}.*") for v in versions], line=line, column=col,
                   end_column=len(text.rstrip()) + 1)
    emit_pyreqs([req], lines, engine, em, "")


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
