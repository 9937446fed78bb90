"""Files a reader reads besides the one it was given, so that cached results change when they change.

Only CI workflows have any: whether a GitHub Actions test job's Python is reported depends on the other
workflows of `.github/workflows` (readers/ci.py). Standard library only: the result cache asks for this
signature before anything is scanned.
"""
from __future__ import annotations

from pathlib import Path


def is_workflow(rel: str) -> bool:
    return "/.github/workflows/" in "/" + rel and rel.endswith((".yml", ".yaml"))


def folder_listing(folder: Path) -> tuple:
    """(name, mtime_ns, size) of the YAML files of a folder, sorted; () when it cannot be listed."""
    try:
        out = []
        for p in folder.iterdir():
            if p.suffix in (".yml", ".yaml") and p.is_file():
                st = p.stat()
                out.append((p.name, st.st_mtime_ns, st.st_size))
        return tuple(sorted(out))
    except OSError:
        return ()


def dependency_signature(path, rel: str) -> str:
    """A string that changes whenever a file this file's findings depend on changes ("" for most files)."""
    if path is None or not is_workflow(rel):
        return ""
    return "\0workflows:" + repr(folder_listing(Path(path).parent))
