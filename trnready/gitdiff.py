"""--changed-since REF: which files git reports as changed, read-only.

Changed = `git diff --name-only REF` (committed, staged and unstaged changes
relative to REF, against the working tree) plus untracked files that are not
ignored. Deleted files are dropped. git is run with --no-optional-locks and
never writes to the repository.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path


class NotAGitRepo(Exception):
    """No git, or the scanned path is not in a work tree: the caller falls back to a full scan."""


class BadRef(Exception):
    """The ref does not name a commit: a user error (exit code 2)."""


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return subprocess.run(["git", "--no-optional-locks", "-C", str(cwd), *args], capture_output=True,
                          env=env, timeout=120)


def _toplevel(path: Path) -> Path:
    d = path if path.is_dir() else path.parent
    try:
        proc = _git(d, "rev-parse", "--show-toplevel")
    except FileNotFoundError:
        raise NotAGitRepo("git is not installed") from None
    except (OSError, subprocess.SubprocessError) as e:
        raise NotAGitRepo(f"cannot run git: {e}") from None
    if proc.returncode != 0:
        raise NotAGitRepo(f"{d} is not inside a git work tree")
    return Path(os.fsdecode(proc.stdout.strip()))


def changed_files(paths: list[Path], ref: str) -> frozenset[str]:
    """Resolved absolute paths of the files changed relative to `ref` in the repos holding `paths`."""
    if not ref or ref.startswith("-"):
        raise BadRef(f"--changed-since: {ref!r} is not a git ref")
    out: set[str] = set()
    done: set[Path] = set()
    for p in paths:
        top = _toplevel(Path(p).absolute())
        if top in done:
            continue
        done.add(top)
        proc = _git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        if proc.returncode != 0:
            raise BadRef(f"--changed-since: unknown git ref {ref!r} in {top}")
        commit = proc.stdout.decode("ascii", "replace").strip()
        diff = _git(top, "diff", "--name-only", "-z", "--no-ext-diff", commit, "--")
        if diff.returncode != 0:
            raise BadRef(f"--changed-since: git diff {ref} failed: {diff.stderr.decode('utf-8', 'replace').strip()}")
        untracked = _git(top, "ls-files", "--others", "--exclude-standard", "-z")
        names = diff.stdout.split(b"\0") + (untracked.stdout.split(b"\0") if untracked.returncode == 0 else [])
        for raw in names:
            if not raw:
                continue
            f = top / os.fsdecode(raw)
            if f.exists():
                out.add(str(f.resolve()))
    return frozenset(out)
