"""Report step build-commands: a shell command that builds a setup.py of the project (`python setup.py build
install`, `pip install -e .`) is a place of the CUDA extension that setup.py builds, or of nothing.

The catalogue's line matcher (TRN302) finds the command in a shell script; only this step knows what it builds.
The setup.py is the one in the folder the command runs in: the script's folder, or the repository root (scripts
are run from either), after any `cd DIR` the script runs before it (a literal relative path; after a `cd` to a
variable or an absolute path the folder is unknown and the command is dropped; `cd -` goes back). Then:

- the setup.py has no custom-cuda-kernel finding (it builds no CUDA extension, was not scanned, or its rule is
  not selected): the command builds nothing to port and is dropped;
- it has an active one (the `CUDAExtension(...)` call): the command is a place of it (`elsewhere`);
- its build is guarded (chosen only under `torch.cuda.is_available()`): the extension's active finding is the
  import of the built module that stayed reported (project-analysis.md, custom CUDA extensions), and the command
  is a place of that; with no such import, of the guarded build.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from ..filekinds import kind_of
from ..read import read_bytes

_CATEGORY = "custom-cuda-kernel"
MAX_BYTES = 1024 * 1024
MAX_NAMED = 5
# What the catalogue's build-command matcher reports (the `at` group of its pattern): told apart from the other
# custom-kernel line matchers of shell scripts (`TORCH_CUDA_ARCH_LIST=`, `--cuda_ext`) by naming what it builds.
_BUILD = re.compile(r"(?:^|\s)(?:\./)?setup\.py\s|\binstall\s+(?:-\S+\s+)*\.(?:\[[^\]]*\])?(?:\s|$)")
_CD = re.compile(r"(?:^|[;&|(])\s*cd(?=[\s;&|)]|$)(?:[ \t]+(?P<dir>[^\s;&|)]+))?")


def _folder(lines: list[str], upto: int, column: int) -> str | None:
    """The folder (relative, "" for where the script starts) a command at line `upto`, column `column` runs in,
    after the `cd`s before it; None when one of them goes somewhere not written in the script."""
    cur = before = ""
    for n, raw in enumerate(lines[:upto], 1):
        text = raw if n < upto else raw[:max(column - 1, 0)]
        if text.lstrip().startswith("#") or "cd" not in text:
            continue
        for m in _CD.finditer(text):
            d = (m.group("dir") or "").strip("\"'")
            if d == "-":  # back to the folder before the last cd
                cur, before = before, cur
                continue
            if not d or d.startswith(("/", "~", "-")) or "$" in d or "`" in d:
                return None
            cur, before = posixpath.normpath(posixpath.join(cur, d)), cur
            if cur.startswith(".."):
                return None
    return "" if cur == "." else cur


def _candidates(script: str, folder: str) -> list[str]:
    here = str(PurePosixPath(script).parent)
    out = []
    for base in (here, ""):
        p = posixpath.normpath(posixpath.join(base, folder, "setup.py"))
        if not p.startswith("..") and p not in out:
            out.append(p)
    return out


def _is_command(f) -> bool:
    """The finding of the build-command matcher: what it reports (from its column to its end) runs setup.py."""
    # (a notebook's `!pip install .` too: its folder is not known from the notebook, so it is dropped)
    return f.category == _CATEGORY and kind_of(PurePosixPath(f.path).name) in ("shell", "notebook") and bool(
        _BUILD.search(f.snippet[max(f.column - 1, 0):max(f.end_column - 1, 0)] + " "))


def build_commands(findings: list, root=None) -> list:
    commands = [i for i, f in enumerate(findings) if _is_command(f)]
    if not commands:
        return findings
    builds: dict = {}  # setup.py path -> indices of its custom-kernel findings
    for i, f in enumerate(findings):
        if f.category == _CATEGORY and PurePosixPath(f.path).name == "setup.py" and not f.suppressed:
            builds.setdefault(f.path, []).append(i)
    out = list(findings)
    drop: set = set()
    named: dict = {}
    texts: dict = {}
    for i in commands:
        f = findings[i]
        target = None
        if root is not None and builds:
            if f.path not in texts:
                data, _ = read_bytes(Path(root) / f.path, f.path, MAX_BYTES)
                texts[f.path] = data.decode("utf-8", "replace").splitlines() if data is not None else None
            folder = _folder(texts[f.path], f.line, f.column) if texts[f.path] is not None \
                and f.cell is None else None
            setup = next((p for p in _candidates(f.path, folder) if p in builds), None) if folder is not None else None
            if setup is not None:
                target = _target(findings, builds[setup], setup)
        drop.add(i)
        if target is None or f.suppressed:
            continue  # builds no CUDA extension the scan knows of (a suppressed command stays suppressed: dropped)
        place = (f.path, f.line, f.column, f.rule)
        out[target] = replace(out[target], elsewhere=tuple(dict.fromkeys((*out[target].elsewhere, place))))
        named.setdefault(target, []).append(f"{f.path}:{f.line}")
    return [_named(f, named.get(i, [])) for i, f in enumerate(out) if i not in drop]


def _target(findings: list, in_setup: list, setup: str) -> int | None:
    """The finding the extension a setup.py builds is reported as: its active build, else the active import
    whose link ends at that build, else the (guarded) build."""
    active = [k for k in in_setup if not findings[k].guarded]
    if active:
        return active[0]
    lines = {findings[k].line for k in in_setup}
    imports = [k for k, g in enumerate(findings) if g.category == _CATEGORY and not g.guarded and not g.suppressed
               and g.link_target is not None and g.link_target[0] == setup and g.link_target[1] in lines]
    return imports[0] if imports else in_setup[0]


def _named(f, places: list):
    if not places:
        return f
    shown = ", ".join(places[:MAX_NAMED]) + (f" and {len(places) - MAX_NAMED} more" if len(places) > MAX_NAMED else "")
    return replace(f, message=f"{f.message}; built by {shown}")
