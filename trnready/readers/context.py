"""What every reader takes and returns: the per-file context and the read result."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from ..model import Diagnostic


@dataclass
class Source:
    """A stretch of text read for `trnready: ignore[...]` comments, with its comment syntax.
    Findings of the same cell (None outside notebooks) are matched against its directives."""

    text: str
    comments: tuple[str, ...]  # ("python",) tokenises; "#", "//", "/*" are line-oriented
    cell: Optional[int] = None
    tree: Any = None  # Python: the syntax tree, so a directive on a statement's first line covers all of it


@dataclass
class ReadResult:
    findings: list = field(default_factory=list)
    diag: Optional[Diagnostic] = None
    sources: list = field(default_factory=list)
    summary: Optional[dict] = None  # Python: what the project-wide link step needs (project/summary.py)


@dataclass
class FileContext:
    """Everything about the one file being read. Lives as long as that file's scan; nothing per file
    is stored on the shared engine."""

    text: str
    rel: str
    kind: str
    engine: Any
    path: Optional[Path] = None  # on disk (requirements includes are looked up next to it)
    prefilter: bool = True
    read_as: Optional[Callable] = None  # FileContext -> ReadResult for another kind (set by readers.read)

    @property
    def name(self) -> str:
        return self.rel.rsplit("/", 1)[-1]


def decode_text(data: bytes, rel: str):
    """Bytes of a non-Python file -> (text, None) or (None, diagnostic)."""
    if b"\x00" in data:
        return None, Diagnostic(rel, "binary", "contains NUL bytes; not a text file")
    # Manifests, Dockerfiles and scripts are line-oriented: a stray Latin-1 byte in a comment must not
    # hide the rest of the file, so undecodable bytes become U+FFFD and the line structure stays.
    text = data.decode("utf-8", errors="replace")
    return (text[1:] if text.startswith("\ufeff") else text), None
