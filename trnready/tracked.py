"""Whether git tracks a path that a .gitignore pattern matches: git never ignores a tracked file.

Asked only about paths a pattern matches and that would otherwise be scanned, so git runs at most
once per work tree, and only in scans that meet such a path. A work tree is a directory holding a
`.git` entry (a folder, or the file of a submodule or linked worktree); the nearest one above a path
answers for it.
"""
from __future__ import annotations

import bisect
import os

from .gitdiff import tracked_files


class TrackedPaths:
    def __init__(self, list_files=tracked_files):
        self._list_files = list_files
        self._top: dict[str, str | None] = {}  # directory -> the top of its work tree, or None
        self._files: dict[str, list[str] | None] = {}  # top -> sorted tracked paths, or None

    def _top_of(self, directory: str) -> str | None:
        chain = []
        top: str | None
        d = directory
        while d not in self._top:
            chain.append(d)
            if os.path.lexists(os.path.join(d, ".git")):
                top = d
                break
            parent = os.path.dirname(d)
            if parent == d:
                top = None
                break
            d = parent
        else:
            top = self._top[d]
        for c in chain:
            self._top[c] = top
        return top

    def tracked(self, path) -> bool | None:
        """True when git tracks the file, or some file below the directory; False when it tracks none;
        None when there is no work tree above it or git gives no answer (then nothing is known)."""
        path = os.path.abspath(path)
        top = self._top_of(os.path.dirname(path))
        if top is None:
            return None
        if top not in self._files:
            self._files[top] = self._list_files(top)
        files = self._files[top]
        if files is None:
            return None
        rel = os.path.relpath(path, top).replace(os.sep, "/")
        i = bisect.bisect_left(files, rel)
        if i < len(files) and files[i] == rel:
            return True  # a file, a symlink or a submodule
        # Paths below a directory sort together, right after the directory's name and a slash.
        j = bisect.bisect_left(files, rel + "/", i)
        return j < len(files) and files[j].startswith(rel + "/")
