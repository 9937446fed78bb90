"""The records `trnready fix` produces: one `FileFix` per file, gathered in a `FixPlan`."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..match import Hit
from ..model import Finding, Report
from ..rewrite import Rewrite



@dataclass
class Target:
    """One finding to rewrite, with the scanner's node for it and the chosen rewrite."""

    finding: Finding
    hit: Hit
    rewrite: Optional[Rewrite] = None
    condition_calls: list = field(default_factory=list)  # replace-choice: [(ast callee, new dotted name)]


@dataclass
class FileFix:
    rel: str
    path: Path
    old: str = ""
    new: str = ""
    data: bytes = b""  # the bytes the edit is based on
    encoding: str = "utf-8"
    applied: list = field(default_factory=list)  # Findings rewritten
    left: list = field(default_factory=list)  # (Finding, reason) not rewritten
    error: str = ""  # why the file is not touched at all
    written: bool = False
    roots: tuple = ()  # the scanned roots, resolved: fix --write never writes outside them
    notes: list = field(default_factory=list)  # what writing did besides the edit (a split hard link)

    @classmethod
    def read(cls, path: Path, rel: str, max_bytes: int) -> tuple["FileFix", Optional[bytes]]:
        """A fix of one file and its bytes; None (and the reason in `error`) when it cannot be read."""
        from ..read import read_bytes

        ff = cls(rel=rel, path=path)
        data, diag = read_bytes(path, rel, max_bytes)
        if diag is not None:
            ff.error = diag.message
            return ff, None
        return ff, data

    @property
    def changed(self) -> bool:
        return not self.error and self.new != self.old

    def diff(self) -> str:
        if not self.changed:
            return ""
        return unified_diff(self.old, self.new, self.rel)


@dataclass
class FixPlan:
    report: Report
    files: list = field(default_factory=list)  # FileFix, in path order
    unsafe_skipped: int = 0  # fixable medium-confidence findings left without --unsafe
    unsupported: list = field(default_factory=list)  # (path, reason): file kinds fix cannot edit yet

    @property
    def changed(self) -> list:
        return [f for f in self.files if f.changed]

    def fix_count(self) -> int:
        return sum(len(f.applied) for f in self.changed)


def unified_diff(old: str, new: str, rel: str) -> str:
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    out = []
    for line in difflib.unified_diff(a, b, fromfile=f"a/{rel}", tofile=f"b/{rel}"):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\r\n") + "\n")
            continue
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)

