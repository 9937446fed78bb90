"""Copies of other projects nested inside a package of this one.

A project that copies another one into its tree often keeps the copy's absolute imports: ControlNet's
annotator folder, pasted as `lavis/common/annotator/`, still says `from annotator.uniformer.mmcv.cnn import
...`. In this repository the folder is known by a longer name (`lavis.common.annotator`, which is how the rest
of LAVIS imports it), so those imports resolve only in the project the folder came from. The project does not
run or port that code, so its findings are guarded like those under `third_party/` (report step `vendored`).
The name of the folder must be the first part of absolute imports in at least MIN_FILES of its files, the
rest of each such name a module inside the folder, and the folder must be known to the project by a longer
name (its parent is a package, or an import spells the whole path). The folder must lie at least two levels
inside a package whose top folder has an `__init__.py`: `src/models/` importing itself as `models` is how a
project run with `src` on its path imports its own code."""
from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath

MIN_FILES = 2


def copied_roots(py_files, full_imports, modules: set, inits: set) -> set:
    """Folders (repository-relative) that hold a copy of another project. py_files: rel -> summary of the files
    that may be in one (anything with `.items()`, read once); full_imports(): every absolute import of the
    project written as a path (`a/b/c`), asked for only when a folder's parent is not a package;
    modules: the module paths of the project's Python files (`a/b/c` for a/b/c.py and a/b/c/__init__.py);
    inits: the folders holding an `__init__.py`.
    An import counts only when the rest of its name is a module inside the folder: `import triton.language` in
    `ops/triton/` means the Triton library, not the folder."""
    votes: dict = {}
    for rel, s in py_files.items():
        dirs = PurePosixPath(rel).parent.parts
        # Only inside a real package (its top folder has an __init__.py) and below its top level: `src/models/`
        # importing itself as `models` is a project run with `src` on its path, not a copy.
        if len(dirs) < 3 or dirs[0] not in inits:
            continue
        mods = [mod.split(".") for mod, level, _ in s["imports"].values() if not level and mod and "." in mod]
        for i in range(2, len(dirs)):
            root = "/".join(dirs[:i + 1])
            if any(m[0] == dirs[i] and f"{root}/{'/'.join(m[1:])}" in modules for m in mods):
                votes.setdefault(root, set()).add(rel)
                break
    roots = set()
    for root, who in votes.items():
        if len(who) < MIN_FILES:
            continue
        parent = root.rsplit("/", 1)[0]
        # The folder must be known to this project by a longer name: its parent is a package, or some import
        # spells the whole path (`from lavis.common.annotator.canny import ...`, a namespace package).
        if parent in inits or any(m == root or m.startswith(root + "/") for m in full_imports()):
            roots.add(root)
    return roots


class _OneAtATime:
    """`.items()` over some files' summaries (their HEAD fields), each decoded when reached and not kept."""

    def __init__(self, table, rels):
        self._table, self._rels = table, sorted(rels)

    def items(self):
        return ((rel, self._table.head(rel)) for rel in self._rels)  # copied_roots reads `imports` only


def guard_copied_packages(findings: list, files, summaries, cache=None, digests=()) -> list:
    """Mark guarded (`vendored`) the findings inside a copied project found by copied_roots. The folders found
    are kept in the result cache under the digests of every Python file, so a warm re-scan of an unchanged tree
    unpacks no summary for this step."""
    from ..cache import StepMemo
    from .report import _EMPTY, _packed
    from .summary import Compacted

    if not any(f.path.count("/") >= 3 and not f.guarded for f in findings):
        return findings
    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}
    memo = StepMemo(cache, "vendored")
    key = memo.key(files, digests)
    stored = memo.get(key)
    roots = set(stored) if isinstance(stored, list) and all(isinstance(r, str) for r in stored) else None
    if roots is None:
        inits = {str(PurePosixPath(r).parent) for r in py if r.endswith("/__init__.py")}
        # Only a folder at least two levels inside a package can be such a copy: the other files are not read.
        candidates = {rel for rel in py if rel.count("/") >= 3 and rel.split("/", 1)[0] in inits}
        roots = set()
        if candidates:
            table = Compacted({rel: _packed(s) for rel, s in py.items()}, _EMPTY)
            # One summary decoded at a time (copied_roots reads each once): holding them all at once was the
            # peak of a cold scan's memory on large packages (docs/speed.md).
            unpacked = _OneAtATime(table, candidates)
            full: list = []

            def full_imports() -> list:
                if not full:  # every file's imports, read once and only when needed
                    full.extend({mod.replace(".", "/") for rel in py for mod, level, _ in table[rel]["imports"].values()
                                 if not level and mod and "." in mod})
                return full
            modules = {rel[:-len("/__init__.py")] if rel.endswith("/__init__.py") else rel[:-3] for rel in py}
            roots = copied_roots(unpacked, full_imports, modules, inits)
        memo.put(key, sorted(roots))
    if not roots:
        return findings
    out = []
    for f in findings:
        if not f.guarded and any(f.path.startswith(r + "/") for r in roots):
            f = replace(f, guarded=True, guarded_by="vendored")
        out.append(f)
    return out

