"""Paths on the command line -> the files to scan, each with its kind.

Never follows a directory symlink into a loop, skips virtualenvs, build
outputs and VCS folders, and honours every .gitignore on the way down.
"""
from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path


from .model import Diagnostic

SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "__pycache__", "node_modules", "site-packages", "dist-packages",
    ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs",
    "build", "dist", ".ipynb_checkpoints", ".idea", ".vscode",
})


# Kinds read only for configuration: larger files are data and are left out silently (no too-large diagnostic).
QUIET_SIZE_LIMITS = {"json": 256 * 1024}


@dataclass(frozen=True)
class SourceFile:
    path: Path  # as found on disk
    rel: str  # POSIX path relative to the scan root
    kind: str


def file_kind(name: str) -> str | None:
    """Which reader handles a file, from its name alone (None: not scanned)."""
    lower = name.lower()
    if lower.endswith((".py", ".pyw")):
        return "python"
    return _surface_kind(name, lower)


def _surface_kind(name: str, lower: str) -> str | None:
    """Non-Python inputs (trnready/surface.py)."""
    if lower.endswith(".ipynb"):
        return "notebook"
    if lower.endswith((".txt", ".in")) and ("requirements" in lower or lower.startswith("constraints")):
        return "requirements"
    if lower == "pyproject.toml":
        return "pyproject"
    if lower == "setup.cfg":
        return "setup-cfg"
    if lower == ".python-version":
        return "python-version"  # pyenv / uv: the interpreter the project runs on
    if name == "Pipfile":
        return "pipfile"
    if lower.endswith((".cu", ".cuh")):
        return "cuda"
    if lower in ("dockerfile", "containerfile") or lower.startswith(("dockerfile.", "containerfile.")) \
            or lower.endswith(".dockerfile") or lower.endswith(".containerfile"):
        return "dockerfile"
    if lower.endswith((".yml", ".yaml")):
        stem = lower.rsplit(".", 1)[0]
        if stem == "environment" or stem.startswith(("environment-", "environment_", "environment.", "conda")):
            return "conda"
        return "yaml"
    if lower.endswith((".sh", ".bash", ".sbatch", ".slurm")):
        return "shell"
    if lower in (".env", ".envrc") or lower.endswith(".env") or lower.startswith(".env."):
        return "env"
    if lower.endswith((".tf", ".tfvars", ".hcl")):
        return "terraform"  # Terraform / Packer: instance types, GPU node groups
    if lower.endswith(".json") and not lower.endswith((".ipynb.json", "package-lock.json")):
        return "json"  # AWS Batch / ECS / SageMaker / CloudFormation job definitions (only line matchers)
    return None


def _dir_kind(directory: str, name: str) -> str | None:
    """`requirements/base.txt`: text files inside a requirements folder are requirements files."""
    if directory.lower() in ("requirements", "reqs") and name.lower().endswith((".txt", ".in")):
        return "requirements"
    return None


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
                 kind_of=file_kind, exclude_base: Path | None = None):
        self.root = root
        # config-file globs are anchored at the config file's directory; they match either way
        self.exclude_base = exclude_base.absolute() if exclude_base is not None else None
        self.exclude = tuple(exclude)
        self.use_gitignore = use_gitignore
        self.kind_of = kind_of
        self.diagnostics: list[Diagnostic] = []

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
        for p in paths:
            if not os.path.lexists(p):
                self._diag(Diagnostic(_rel(p.absolute(), self.root), "unreadable", "path does not exist"))
                continue
            if os.path.isdir(p):
                yield from self._walk(p, [], set(), seen)
            else:
                rel = _rel(p.absolute(), self.root)
                kind = self.kind_of(p.name) or _dir_kind(p.parent.name, p.name) or "python"  # scanned as asked
                if rel not in seen:
                    seen.add(rel)
                    yield self._source(p, rel, kind)

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

                    spec = pathspec.PathSpec.from_lines("gitwildmatch", fh)
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
            if self._excluded(rel, entry.name) or self._ignored(path, is_dir, ignores):
                continue
            if is_dir:
                if entry.name in SKIP_DIRS or entry.name.endswith(".egg-info"):
                    continue
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):  # a virtualenv under any name
                    continue
                yield from self._walk(path, ignores, ancestors, seen, rel)
                continue
            kind = self.kind_of(entry.name) or _dir_kind(directory.name, entry.name)
            if kind is None:
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
            if st.st_size > QUIET_SIZE_LIMITS.get(kind, st.st_size):
                continue  # a large JSON file is data (vocabulary, dataset, results), not a job definition
            if rel in seen:
                continue
            seen.add(rel)
            yield self._source(path, rel, kind)

    @staticmethod
    def _ignored(path: Path, is_dir: bool, ignores: list) -> bool:
        for base, spec in ignores:
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if spec.match_file(rel + ("/" if is_dir else "")):
                return True
        return False
