"""Paths on the command line -> the files to scan, each with its kind (from filekinds.py).

Never follows a directory symlink into a loop, skips virtualenvs, build
outputs and VCS folders, and honours every .gitignore on the way down, as git
does: a file git tracks is scanned whatever a pattern says (tracked.py asks
git). Without git to ask (a plain copy of a repository), a .gitignore may hide
code the repository ships: an ignored file present in the copy is scanned (an
archive holds only what was committed), an ignored subpackage of a package is
scanned, and every other ignored directory holding code (Python files, notebooks,
shell scripts) is named in a `gitignored-source` diagnostic, so the skip is never silent.
"""
from __future__ import annotations

import fnmatch
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path


from .filekinds import BY_KIND, dir_kind, kind_of
from .model import Diagnostic
from .tracked import TrackedPaths

SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "__pycache__", "node_modules", "site-packages", "dist-packages",
    ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs",
    "build", "dist", ".ipynb_checkpoints", ".idea", ".vscode",
    # CMake's own files of a build tree (compiler probes such as `CompilerIdCUDA/CMakeCUDACompilerId.cu`)
    "CMakeFiles",
})
# A Weights & Biases run folder (`wandb/run-20260703_174045-jym7tnum/`, `wandb/offline-run-...`): the client's copy
# of a past run, its `files/requirements.txt` a pip freeze of that machine and its `code/` a snapshot of the scripts,
# committed by accident; nothing there is the project's to port (experts4bit-qlora, fresh72: 2 findings judged wrong)
_RUN_FOLDER = re.compile(r"(?:offline-)?run-\d{8}_\d{6}-\w+")


def _cmake_build_tree(folder: str) -> bool:
    """A CMake build tree under any name (`cpp/build_main/`): CMake writes CMakeCache.txt into the folder it
    configures into, and its probes there (`detect_cuda_compute_capabilities.cu`) are generated, not the project's
    kernels (Lightsheet nuclei segmentation, fresh78: two such .cu files judged wrong). An in-source build writes
    the cache beside the project's CMakeLists.txt; that folder is source and stays."""
    return os.path.exists(os.path.join(folder, "CMakeCache.txt")) \
        and not os.path.exists(os.path.join(folder, "CMakeLists.txt"))


# A `build/` folder of recipes rather than outputs: a container recipe, a requirements or a conda environment file of
# its own (GRICS-torch's `build/Dockerfile` on an nvidia/cuda base, its `build/requirements-torch.txt` pinning +cu121
# wheels: eleven blind79 labels), by the file kinds the scan reads them as. A build tool writes none of these.
_RECIPE_KINDS = frozenset({"dockerfile", "apptainer", "requirements", "conda"})


def _build_recipes(folder: str) -> bool:
    try:
        return any(kind_of(name) in _RECIPE_KINDS for name in os.listdir(folder))
    except OSError:
        return False


# Build outputs by name, but a Python package when they hold an __init__.py (`mmengine/dist/`,
# `mylib/build/`): then they are source and scanned.
_SOURCE_WHEN_PACKAGE = frozenset({"build", "dist"})
# Directory entries looked at, per scan, to count the Python files under ignored directories that no
# git answers for: a dataset folder of millions of files must not stall the scan.
_COUNT_BUDGET = 20_000
# The kinds of code counted there, with the words the diagnostic names them by: source and launchers, not the
# YAML/JSON outputs that ignored run folders are full of.
_CODE_KINDS = {"python": ("Python file", "Python files"), "notebook": ("notebook", "notebooks"),
               "shell": ("shell script", "shell scripts")}
# Without a git answer, an ignored folder that is a subpackage (it and its parent hold `__init__.py`) is
# scanned: the package imports it as `pkg.sub`, so its code runs with the package's, and a pattern written
# for data (`data`, `datasets`) that also names a subpackage caught it by accident. Inside it, the
# .gitignore files that matched the folder no longer apply (their other patterns are lost for that subtree).
_SUBPACKAGE = "subpackage"


def _gitignore_syntax(pathspec) -> str:
    """The name pathspec gives .gitignore syntax: `gitignore` since 1.0, where the older `gitwildmatch` (the
    only name before 1.0) warns that it is deprecated. Both read patterns the same way."""
    try:
        pathspec.util.lookup_pattern("gitignore")
    except LookupError:  # pathspec 0.x raises KeyError, a LookupError
        return "gitwildmatch"
    return "gitignore"


@dataclass(frozen=True)
class SourceFile:
    path: Path  # as found on disk
    rel: str  # POSIX path relative to the scan root
    kind: str


# Files trnready itself writes (baselines, JSON / SARIF / Markdown / text reports), recognised by
# content: written into the scanned tree, they would add findings and silence repository-level
# rules (a baseline quotes every finding's message, including the variables those rules look for).
_OWN_SUFFIXES = (".json", ".sarif", ".md", ".txt", ".log")
_OWN_HEAD = re.compile(
    rb'"trnready_baseline"\s*:'  # baseline
    rb'|"schema_version"\s*:\s*"[^"]*"\s*,\s*"tool"\s*:\s*\{\s*"name"\s*:\s*"trnready"'  # JSON report
    rb'|"\$schema"\s*:\s*"[^"]*sarif[^"]*"[\s\S]*?"name"\s*:\s*"trnready"'  # SARIF report
    rb'|<!-- trnready report')  # Markdown report
_OWN_TAIL = re.compile(rb"\nFindings: \d+ blocker, \d+ change, \d+ advisory\n[\s\S]*\nVerdict: [^\n]*\n?$")


def python_script(path) -> bool:
    """A file without a suffix whose first line is a Python shebang (`#!/usr/bin/env python`): old research
    repositories ship their `train` and `test` programs that way. Only its first bytes are read."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(128)
    except OSError:
        return False
    if not head.startswith(b"#!"):
        return False
    first = head.split(b"\n", 1)[0]
    return re.search(rb"[/\s]python[\d.]*\s*$|[/\s]python[\d.]*\s", first) is not None


def own_output(path, name: str) -> bool:
    """True for a file trnready wrote (checked by its first and last bytes; only for report-like names)."""
    if not name.lower().endswith(_OWN_SUFFIXES):
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
            if _OWN_HEAD.search(head):
                return True
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - 2048))
            return bool(_OWN_TAIL.search(fh.read()))
    except OSError:
        return False


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def common_root(paths: list[Path]) -> Path:
    absolute = [p.absolute() for p in paths]
    if len(absolute) == 1:
        p = absolute[0]
        return p if os.path.isdir(p) else p.parent
    return Path(os.path.commonpath([str(p if os.path.isdir(p) else p.parent) for p in absolute]))


def printable_path(name: str) -> str:
    """`name` as valid Unicode: bytes of a non-UTF-8 file name (surrogate escapes) become \\xNN.

    Reports are UTF-8 (JSON, SARIF, HTML): such a name must not stop the run at output time."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


class Discoverer:
    def __init__(self, root: Path, exclude: tuple[str, ...] = (), use_gitignore: bool = True,
                 kind_of=kind_of, exclude_base: Path | None = None):
        self.root = root
        # config-file globs are anchored at the config file's directory; they match either way
        self.exclude_base = exclude_base.absolute() if exclude_base is not None else None
        self.exclude = tuple(exclude)
        self.use_gitignore = use_gitignore
        self.kind_of = kind_of
        self.diagnostics: list[Diagnostic] = []
        self._tracked = TrackedPaths()
        # directory rel -> [{kind: files}, whether the count is a lower bound, the .gitignore that hid them]
        self._hidden: dict[str, list] = {}
        self._budget = _COUNT_BUDGET

    def _diag(self, diag: Diagnostic) -> None:
        self.diagnostics.append(Diagnostic(printable_path(diag.path), diag.kind, diag.message))

    def _source(self, path: Path, rel: str, kind: str) -> "SourceFile":
        shown = printable_path(rel)
        if shown != rel:
            self.diagnostics.append(Diagnostic(shown, "undecodable-name",
                                               "the file name is not valid UTF-8: reported with \\x escapes"))
        return SourceFile(path, shown, kind)

    def _excluded(self, rel: str, name: str) -> bool:
        rels = [rel]
        if self.exclude and self.exclude_base is not None and self.exclude_base != self.root.absolute():
            other = _rel(self.root.absolute() / rel, self.exclude_base)
            if other != rel:
                rels.append(other)
        for pat in self.exclude:
            if fnmatch.fnmatch(name, pat):
                return True
            for r in rels:
                if fnmatch.fnmatch(r, pat) or r.startswith(pat.rstrip("/") + "/"):
                    return True
        return False

    def files(self, paths: list[Path]):
        seen: set[str] = set()
        # The real folders being walked: a directory symlink into one of them (`docs/examples ->
        # ../examples`) would list the same files again under a second path.
        self._walked = tuple(os.path.realpath(p) for p in paths if os.path.isdir(p))
        for p in paths:
            if not os.path.lexists(p):
                self._diag(Diagnostic(_rel(p.absolute(), self.root), "unreadable", "path does not exist"))
                continue
            if os.path.isdir(p):
                yield from self._walk(p, [], set(), seen)
            else:
                if own_output(p, p.name):
                    continue  # a report or baseline named on the command line (pre-commit passes them)
                rel = _rel(p.absolute(), self.root)
                kind = self.kind_of(p.name) or dir_kind(p.parent.name, p.name) or "python"  # scanned as asked
                if rel not in seen:
                    seen.add(rel)
                    yield self._source(p, rel, kind)
        for rel, (counts, more, gitignore) in sorted(self._hidden.items()):
            if any(counts.values()):
                self._diag(Diagnostic(rel or ".", "gitignored-source",
                                      f"{'at least ' if more else ''}{_counted(counts)} "
                                      f"not scanned: {gitignore} ignores them, and no git repository says "
                                      "whether they are tracked (--no-gitignore scans them)"))

    def _inside_walked(self, link: Path) -> bool:
        try:
            real = os.path.realpath(link)
        except OSError:
            return False
        return any(real == w or real.startswith(w.rstrip(os.sep) + os.sep) for w in getattr(self, "_walked", ()))

    def _walk(self, directory: Path, ignores: list, ancestors: set, seen: set, dir_rel: str | None = None):
        if dir_rel is None:
            dir_rel = _rel(directory.absolute(), self.root)
            dir_rel = "" if dir_rel == "." else dir_rel
        try:
            real = os.path.realpath(directory)
        except OSError:
            real = str(directory)
        if real in ancestors:
            self._diag(Diagnostic(_rel(directory.absolute(), self.root), "symlink-loop",
                                               "directory symlink points back to one of its parents; not followed"))
            return
        ancestors = ancestors | {real}
        if self.use_gitignore:
            gi = directory / ".gitignore"
            try:
                with open(gi, encoding="utf-8", errors="replace") as fh:
                    import pathspec  # only when a .gitignore exists: the import alone costs ~30 ms

                    spec = pathspec.PathSpec.from_lines(_gitignore_syntax(pathspec), fh)
                ignores = ignores + [(directory, spec)]
            except OSError:
                pass
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as e:
            self._diag(Diagnostic(_rel(directory.absolute(), self.root), "unreadable",
                                               f"cannot list directory: {e.strerror or e}"))
            return
        for entry in entries:
            path = Path(entry.path)
            # Built by concatenation: Path.relative_to per entry was most of a warm re-scan's walk.
            rel = f"{dir_rel}/{entry.name}" if dir_rel else entry.name
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                is_link, is_dir = True, False
            if self._excluded(rel, entry.name):
                continue
            # Decided last (after the cheaper skips): a path a pattern matches costs a git call.
            ignored_by = self._ignored(path, is_dir, ignores)
            if is_dir:
                if entry.name in SKIP_DIRS and not (entry.name in _SOURCE_WHEN_PACKAGE and (os.path.exists(
                        os.path.join(entry.path, "__init__.py")) or _build_recipes(entry.path))) \
                        or entry.name.endswith(".egg-info"):
                    continue
                if dir_rel.rsplit("/", 1)[-1] == "wandb" and _RUN_FOLDER.fullmatch(entry.name):
                    continue
                if is_link and os.path.realpath(path) not in ancestors and self._inside_walked(path):
                    continue  # reached under its own path: scanning it twice would report every finding twice
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):  # a virtualenv under any name
                    continue
                if _cmake_build_tree(entry.path):
                    continue
                below = ignores
                if ignored_by is not None:
                    kept = self._kept(path, True, rel, dir_rel, ignored_by)
                    if not kept:
                        continue
                    if kept is _SUBPACKAGE:  # its files are the package's, whatever matched the folder
                        below = [(b, sp) for b, sp in ignores if self._ignored(path, True, [(b, sp)]) is None]
                # Outside the root (a baseline's root below the scanned folder), each folder's path is
                # worked out afresh: the root may lie below it.
                yield from self._walk(path, below, ancestors, seen, None if os.path.isabs(rel) else rel)
                continue
            kind = self.kind_of(entry.name) or dir_kind(directory.name, entry.name)
            if kind is None and "." not in entry.name and python_script(path):
                kind = "python"  # `train`, `test`: a script with a Python shebang and no suffix
            if kind is None:
                continue
            if ignored_by is not None and not self._kept(path, False, rel, dir_rel, ignored_by, kind):
                continue
            if is_link and not os.path.exists(path):
                self._diag(Diagnostic(rel, "broken-symlink", "symlink target does not exist"))
                continue
            try:
                st = os.stat(path)
            except OSError as e:
                self._diag(Diagnostic(rel, "unreadable", e.strerror or str(e)))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            kind_spec = BY_KIND.get(kind)
            if kind_spec is not None and kind_spec.quiet_max is not None and st.st_size > kind_spec.quiet_max:
                continue  # a large JSON file is data (vocabulary, dataset, results), not a job definition
            if own_output(path, entry.name):
                continue
            if rel in seen:
                continue
            seen.add(rel)
            yield self._source(path, rel, kind)

    def _kept(self, path: Path, is_dir: bool, rel: str, dir_rel: str, base: Path,
              kind: str | None = None) -> bool | str:
        """Whether a path a .gitignore matches is walked all the same: git tracks it (or, for a directory,
        files below it). Without a git answer a file is kept and a subpackage is walked (_SUBPACKAGE); any other
        folder is left out, and the code files it holds are noted for the `gitignored-source` diagnostic."""
        state = self._tracked.tracked(path)
        if state is not None:
            return state
        if not is_dir:
            # A file of a kind trnready reads, present in a plain copy although a pattern names it (`*.ipynb`,
            # `configs/*.yaml`): the repository shipped it, committed over its own pattern (DINO's and VAR's demo
            # notebooks), since an archive or a download holds only tracked files. Folders stay out (run outputs
            # and datasets live in ignored folders, and walking them could take longer than the scan).
            return True
        if is_dir and os.path.exists(os.path.join(path, "__init__.py")) and os.path.exists(
                os.path.join(os.path.dirname(path), "__init__.py")):
            return _SUBPACKAGE
        gitignore = _rel(base.absolute() / ".gitignore", self.root.absolute())
        if is_dir:
            counts, more = self._code_below(path)
            if counts:
                self._hidden[rel] = [counts, more, gitignore]
        return False

    def _code_below(self, directory: Path) -> tuple[dict, bool]:
        """{kind: files} of the code under `directory` (not in skipped folders, symlinks not followed), and
        whether the scan's budget ran out before all were counted."""
        counts: dict = {}
        stack = [str(directory)]
        while stack:
            d = stack.pop()
            try:
                it = os.scandir(d)
            except OSError:
                continue
            with it:
                for e in it:
                    if self._budget <= 0:
                        return counts, True
                    self._budget -= 1
                    try:
                        if e.is_dir(follow_symlinks=False):
                            if not (e.name in SKIP_DIRS or e.name.endswith(".egg-info")
                                    or os.path.exists(os.path.join(e.path, "pyvenv.cfg"))):
                                stack.append(e.path)
                        elif (k := kind_of(e.name)) in _CODE_KINDS:
                            counts[k] = counts.get(k, 0) + 1
                    except OSError:
                        continue
        return counts, False

    @staticmethod
    def _ignored(path: Path, is_dir: bool, ignores: list) -> Path | None:
        """The folder of the first .gitignore whose patterns match `path`, or None."""
        for base, spec in ignores:
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if spec.match_file(rel + ("/" if is_dir else "")):
                return base
        return None


def _counted(counts: dict) -> str:
    """`2 Python files, 1 notebook and 12 shell scripts`, in the order of _CODE_KINDS."""
    parts = [f"{n} {_CODE_KINDS[k][n != 1]}" for k in _CODE_KINDS if (n := counts.get(k, 0))]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
