"""Report step lock-files: a dependency a pyproject.toml declares is pinned again by the lock file next to it
(`uv.lock`, `poetry.lock`, `pdm.lock`), and that pin is a place of the declaration's finding (JSON `elsewhere`), not
an item of its own: the lock is regenerated from the declaration, so one edit (drop `flash-attn` from the extra,
then `uv lock`) fixes both.

```toml
# pyproject.toml                          # uv.lock
[project.optional-dependencies]           [[package]]
flash = ["flash-attn>=2.6.3"]  # TRN501    name = "flash-attn"     <- listed with the TRN501 finding
                                          version = "2.6.3"
```

conda-lock's `conda-lock.yml` is the same thing for a conda environment: it is generated from the `pyproject.toml` or
the `environment.yml` its `metadata.sources` names, and lists each package as `- name: pytorch-cuda` under `package:`
(the declared `python = "~3.10"` is locked as `- name: python`, a place of the Python-range finding).

A `Pipfile.lock` is the same for a `Pipfile`: pipenv writes it as JSON, one `"name": {` line per package of its
`default` and `develop` sections.

Only packages the declaration declares are looked up. The lock's other entries are what the declarations pull in
(the `nvidia-*-cu12` wheels and `triton` of a CUDA torch build, which the torch finding already covers), and
reporting them would repeat one item a dozen times. Lock files are never scanned as files of their own: a project
without a pyproject.toml beside its lock has no declaration to list them with.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from ..read import read_bytes

LOCK_NAMES = ("uv.lock", "poetry.lock", "pdm.lock", "conda-lock.yml", "conda-lock.yaml")
CONDA_LOCKS = ("conda-lock.yml", "conda-lock.yaml")
PIPENV_LOCKS = ("Pipfile.lock",)
# the declarations a lock is generated from: pyproject.toml (every lock above), a conda environment file (conda-lock)
CONDA_ENVS = ("environment.yml", "environment.yaml")
MAX_BYTES = 16 * 1024 * 1024  # a large monorepo lock is a few MB
_NAME = re.compile(r"""^name\s*=\s*["']([^"']+)["']""")
_REQ_NAME = re.compile(r"""^\s*(?:-\s*)?["']?([A-Za-z0-9][A-Za-z0-9._-]*)""")
_PIPENV_NAME = re.compile(r'^ {8}"([A-Za-z0-9][A-Za-z0-9._-]*)": \{')
_PIPENV_SECTION = re.compile(r'^ {4}"(\w+)": \{')
_CONDA_NAME = re.compile(r"^\s*-\s+name:\s*['\"]?([A-Za-z0-9][A-Za-z0-9._-]*)")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_packages(text: str) -> dict:
    """normalised package name -> the lines of its `name = "..."` under `[[package]]` (uv, Poetry and PDM locks
    share this layout; a package locked at two versions for two markers has two entries)."""
    out: dict = {}
    in_package = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("["):
            in_package = line.strip() == "[[package]]"
            continue
        if in_package:
            m = _NAME.match(line)
            if m:
                out.setdefault(_norm(m.group(1)), []).append(n)
                in_package = False  # (the entry's later `name =` keys belong to its dependency tables)
    return out


def conda_locked_packages(text: str) -> dict:
    """normalised package name -> the lines of its `- name: ...` entry in the top-level `package:` list of a
    conda-lock file (one entry per platform; a package's `dependencies:` are a mapping and hold no `- name:`)."""
    out: dict = {}
    in_package = False
    for n, line in enumerate(text.splitlines(), 1):
        if line[:1] not in ("", " ", "-", "#"):
            in_package = line.rstrip() == "package:"
            continue
        if in_package:
            m = _CONDA_NAME.match(line)
            if m:
                out.setdefault(_norm(m.group(1)), []).append(n)
    return out


def pipenv_locked_packages(text: str) -> dict:
    """normalised package name -> the line of its entry in the `default` / `develop` sections of a Pipfile.lock
    (JSON as pipenv writes it: four spaces per level, one package per `"name": {` line)."""
    out: dict = {}
    section = None
    for n, line in enumerate(text.splitlines(), 1):
        m = _PIPENV_SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        if section in ("default", "develop"):
            m = _PIPENV_NAME.match(line)
            if m:
                out.setdefault(_norm(m.group(1)), []).append(n)
    return out


def declared_name(f) -> str | None:
    """The package a pyproject.toml finding's requirement names (`"flash-attn>=2.6.3"`, Poetry's
    `flash-attn = "^2.6"`), from the reported span of its line."""
    shown = f.snippet[max(f.column - 1, 0):max(f.end_column - 1, f.column)] if f.end_column > f.column else f.snippet
    m = _REQ_NAME.match(shown)
    return _norm(m.group(1)) if m else None


def lock_places(findings: list, root=None) -> list:
    if root is None:
        return findings
    projects = {f.path for f in findings if PurePosixPath(f.path).name in ("pyproject.toml", "Pipfile", *CONDA_ENVS)}
    if not projects:
        return findings
    locks: dict = {}  # pyproject path -> [(lock path, {name: lines})]
    for rel in projects:
        folder = PurePosixPath(rel).parent
        found = []
        decl = PurePosixPath(rel).name
        names = LOCK_NAMES if decl == "pyproject.toml" else PIPENV_LOCKS if decl == "Pipfile" else CONDA_LOCKS
        for lock_name in names:
            lock = str(folder / lock_name) if str(folder) != "." else lock_name
            path = Path(root) / lock
            if not path.is_file():
                continue
            data, _ = read_bytes(path, lock, MAX_BYTES)
            if data is not None:
                text = data.decode("utf-8", "replace")
                read = conda_locked_packages if lock_name in CONDA_LOCKS else \
                    pipenv_locked_packages if lock_name in PIPENV_LOCKS else locked_packages
                found.append((lock, read(text)))
        locks[rel] = found
    out = []
    for f in findings:
        found = locks.get(f.path, []) if f.path in projects else []
        declared = declared_name(f) if found else None
        if declared:
            more = tuple((lock, ln, 1, f.rule) for lock, names in found for ln in names.get(declared, ()))
            if more:
                # (the text report shows no `elsewhere`: the message names the pins)
                pins = ", ".join(dict.fromkeys(f"{lock}:{ln}" for lock, ln, _, _ in more))
                f = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *more))),
                            message=f"{f.message} (locked at {pins})")
        out.append(f)
    return out
