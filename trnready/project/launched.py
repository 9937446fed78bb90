"""The project's Python programs a shell launcher runs (`python x.py`, `python -m pkg.mod`, `torchrun x.py`,
`srun python x.py`), for the report steps that judge a launch flag by the program it reaches (launcher_fp16,
config_switches)."""
from __future__ import annotations

import posixpath
from pathlib import PurePosixPath

from ..readers.launch_args import _COMMENT, _LAUNCHER, MODULE, SCRIPT, _runs_program, commented_continuation


def launch_commands(text: str) -> list[str]:
    """The launch commands of a script, each with its `\\` continuation lines joined."""
    out: list[str] = []
    current: list[str] = []
    lines = text.splitlines()
    for k, raw in enumerate(lines):
        if current and commented_continuation(lines, k):
            continue
        line = _COMMENT.sub("", raw) if "#" in raw else raw
        stripped = line.strip()
        if not current and not _runs_program(stripped):
            continue
        current.append(stripped.rstrip("\\"))
        if not stripped.endswith("\\"):
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def launched_programs(script: str, text: str, rels: list[str], framework_launchers) -> list[str] | None:
    """The project Python files the script's commands launch; None when one of them runs a framework launcher,
    names a program that is not a project file (or one written with a variable), or the script launches none."""
    found: list[str] = []
    for cmd in launch_commands(text):
        first = _LAUNCHER.search(cmd)
        if first is not None and first.group("word") in framework_launchers:
            return None
        names = [m.group("mod").replace(".", "/") for m in MODULE.finditer(cmd)]
        tails = [(n + ".py", n + "/__main__.py") for n in names]
        scripts = [m.group("path") for m in SCRIPT.finditer(cmd)]
        if not names and not scripts:
            if "$" in cmd or first is not None:
                return None  # `python $SCRIPT`, `torchrun $ENTRY`: a program the script does not name
            continue
        for path in scripts:
            here = str(PurePosixPath(script).parent)
            options = [posixpath.normpath(posixpath.join(base, path)) for base in (here, "")]
            got = next((p for p in options if p in rels), None) or _by_suffix(path.lstrip("./"), rels)
            if got is None:
                return None
            found.append(got)
        for pair in tails:
            got = next((g for g in (_by_suffix(t, rels) for t in pair) if g is not None), None)
            if got is None:
                return None
            found.append(got)
    return found or None


def _by_suffix(tail: str, rels: list[str]) -> str | None:
    hits = [r for r in rels if r == tail or r.endswith("/" + tail)]
    return hits[0] if len(hits) == 1 else None
