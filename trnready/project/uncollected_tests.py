"""Report step not-collected: test files the project's own pytest configuration never collects.

```ini
# pytest.ini
[pytest]
addopts = --ignore=tests/test_legacy --ignore=tests/test_fx
```

ColossalAI keeps whole folders of old tests that its pytest configuration tells every run to skip: a developer's
`pytest`, and each CI job, collects everything but those paths. Their `.cuda()` calls and nccl groups run nowhere,
so a port does not touch them; their findings are guarded (`guarded_by` "not-collected", listed with
--show-guarded, never counted).

What counts as the configuration, read from the scan root only (where pytest finds it for a run from there):
`addopts` of `pytest.ini` `[pytest]`, `pyproject.toml` `[tool.pytest.ini_options]`, `tox.ini` `[pytest]` and
`setup.cfg` `[tool:pytest]` (`--ignore=PATH`, `--ignore PATH`, `--ignore-glob=GLOB`), and the module-level
`collect_ignore = [...]` / `collect_ignore_glob = [...]` of a `conftest.py` whose value is a literal list of strings
bound once at the top level (relative to that conftest's folder). A list filled under a condition (`if not
torch.cuda.is_available(): collect_ignore.append(...)`) is not read: what it leaves out depends on the machine.

Only findings in test files (scope `test`) are judged: a `--ignore` of a source module (doctest collection) says
nothing about whether the program runs it. pytest still runs a path it is given explicitly, so a path that some
other text of the scan names without `--ignore` in front of it (a CI step `pytest tests/test_fx`, a Makefile
target) stays reported.
"""
from __future__ import annotations

import ast
import configparser
import fnmatch
import posixpath
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REASON = "not-collected"
_INI_FILES = (("pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
_MAX_BYTES = 256 * 1024
# texts that may run pytest on an explicit path: CI, shell, make and tox files (other kinds never launch pytest)
_RUNNER_SUFFIXES = (".yml", ".yaml", ".sh", ".cfg", ".ini", ".toml", ".mk", ".bash")
_RUNNER_NAMES = ("Makefile", "makefile", "GNUmakefile", "Justfile", "noxfile.py", "tox.ini")


def guard_uncollected_tests(findings: list, files, root, read_text) -> list:
    """Mark guarded (`not-collected`) the findings of test files the root pytest configuration ignores (see the
    docstring). `files`: the scanned files (`rel`, `kind`); `read_text(rel)` a scanned Python file's text."""
    from ..scope import classify

    todo = {f.path for f in findings if not f.guarded and not f.suppressed and classify(f.path) == "test"}
    if not todo:
        return findings
    root = Path(root)
    paths, globs = _addopts_ignores(root)
    rels = [sf.rel for sf in files]
    for rel in rels:
        if posixpath.basename(rel) == "conftest.py":
            p, g = _conftest_ignores(read_text(rel) or "", posixpath.dirname(rel))
            paths += p
            globs += g
    if not paths and not globs:
        return findings
    ignored = {rel for rel in todo if _ignored(rel, paths, globs)}
    if not ignored:
        return findings
    named = _explicitly_run(paths, root, rels)
    ignored = {rel for rel in ignored if not any(_under(rel, p) for p in named)}
    if not ignored:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON) if f.path in ignored and not f.guarded and not f.suppressed
            else f for f in findings]


def _read(path: Path) -> str:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _addopts(root: Path) -> list[str]:
    """The addopts strings of the root pytest configuration files."""
    found = []
    for name, section in _INI_FILES:
        text = _read(root / name)
        if not text:
            continue
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(text)
        except configparser.Error:
            continue
        if parser.has_option(section, "addopts"):
            found.append(parser.get(section, "addopts"))
    text = _read(root / "pyproject.toml")
    if text:
        try:
            opts = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            opts = None
        for key in ("tool", "pytest", "ini_options", "addopts"):
            opts = opts.get(key) if isinstance(opts, dict) else None
        if isinstance(opts, str):
            found.append(opts)
        elif isinstance(opts, list):
            found.append(" ".join(o for o in opts if isinstance(o, str)))
    return found


def _addopts_ignores(root: Path) -> tuple[list, list]:
    """(paths, globs) that addopts' --ignore / --ignore-glob name, relative to the root, "/"-separated."""
    paths: list = []
    globs: list = []
    for opts in _addopts(root):
        try:
            words = shlex.split(opts, comments=True)
        except ValueError:
            continue
        for i, w in enumerate(words):
            for flag, into in (("--ignore", paths), ("--ignore-glob", globs)):
                if w == flag and i + 1 < len(words):
                    into.append(_norm(words[i + 1]))
                elif w.startswith(flag + "="):
                    into.append(_norm(w[len(flag) + 1:]))
    return [p for p in paths if p], [g for g in globs if g]


def _conftest_ignores(text: str, folder: str) -> tuple[list, list]:
    """The literal `collect_ignore` / `collect_ignore_glob` lists a conftest binds once at its top level."""
    if "collect_ignore" not in text:
        return [], []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return [], []
    bound: dict = {}
    for st in tree.body:
        for target in _targets(st):
            if target in ("collect_ignore", "collect_ignore_glob"):
                bound.setdefault(target, []).append(st)
    # any other write (`collect_ignore.append(...)` under an `if`, `+=`) makes the list depend on the machine
    written = {n.value.id for n in ast.walk(tree) if type(n) is ast.Attribute and type(n.value) is ast.Name
               and n.value.id in bound and n.attr in ("append", "extend", "insert", "remove", "clear", "pop")}
    out: tuple = ([], [])
    for name, into in (("collect_ignore", out[0]), ("collect_ignore_glob", out[1])):
        sts = bound.get(name) or []
        if len(sts) != 1 or name in written or type(sts[0]) is not ast.Assign:
            continue
        value = sts[0].value
        if not isinstance(value, (ast.List, ast.Tuple)):
            continue
        words = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(words) == len(value.elts):
            into.extend(_norm(posixpath.join(folder, w)) for w in words)
    return [p for p in out[0] if p], [g for g in out[1] if g]


def _targets(st) -> list:
    if type(st) is ast.Assign:
        return [t.id for t in st.targets if type(t) is ast.Name]
    if type(st) in (ast.AugAssign, ast.AnnAssign) and type(st.target) is ast.Name:
        return [st.target.id]
    return []


def _norm(path: str) -> str:
    path = path.strip().replace("\\", "/")
    if path.startswith("/"):
        return ""  # an absolute path names no file of the scan
    path = posixpath.normpath(path)
    return "" if path in (".", "..") or path.startswith("../") else path


def _under(rel: str, path: str) -> bool:
    return rel == path or rel.startswith(path.rstrip("/") + "/")


def _ignored(rel: str, paths: list, globs: list) -> bool:
    if any(_under(rel, p) for p in paths):
        return True
    # pytest matches --ignore-glob against the whole path of each collected file and folder
    parts = rel.split("/")
    return any(fnmatch.fnmatch("/".join(parts[:i]), g) for g in globs for i in range(1, len(parts) + 1))


def _explicitly_run(paths: list, root: Path, rels: list) -> set:
    """The ignored paths some runner text (CI, shell, make, tox) names without `--ignore` in front: pytest runs a
    path it is given, whatever addopts says."""
    if not paths:
        return set()
    runners = [r for r in rels if r.endswith(_RUNNER_SUFFIXES) or posixpath.basename(r) in _RUNNER_NAMES]
    for extra in ("Makefile", "tox.ini", "noxfile.py"):
        if extra not in runners and (root / extra).is_file():
            runners.append(extra)
    named = set()
    pats = {p: re.compile(r"(?<![\w./-])(?:\./)?" + re.escape(p) + r"(?![\w-])") for p in paths}
    for rel in runners:
        if posixpath.basename(rel) in ("pytest.ini", "setup.cfg", "pyproject.toml"):
            continue  # the configuration itself
        text = _read(root / rel)
        if not text:
            continue
        for p, pat in pats.items():
            if p in named:
                continue
            for m in pat.finditer(text):
                before = text[max(0, m.start() - 24):m.start()]
                if not re.search(r"--ignore(?:-glob)?(?:=|\s+)[\"']?$", before):
                    named.add(p)
                    break
    return named
