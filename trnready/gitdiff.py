"""--changed-since REF: which files git reports as changed, read-only.

Changed = `git diff --name-only REF` (committed, staged and unstaged changes
relative to REF, against the working tree) plus untracked files that are not
ignored. Deleted files are dropped. git is run with --no-optional-locks and
never writes to the repository.

The repository being scanned is untrusted, and its .git/config can name
commands that git runs on its own (core.fsmonitor, clean/smudge filters,
diff.external, textconv, pagers, hooks, ssh and credential helpers on a lazy
fetch). Every git call here overrides each of them on the command line,
which wins over every config file; filter drivers have free names, so the
configured ones are listed first and each is emptied by name.

`tracked_files` (for discovery) lists the files git tracks under a work
tree, the same way.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path


class NotAGitRepo(Exception):
    """No git, or the scanned path is not in a work tree: the caller falls back to a full scan."""


class BadRef(Exception):
    """The ref does not name a commit: a user error (exit code 2)."""


# Settings under which git runs nothing that a config file names. protocol.allow=never stops a
# partial clone's lazy fetch, and with it ssh commands, credential helpers and proxies.
_SAFE = ("core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "diff.external=",
         "core.sshCommand=false", "core.gitProxy=", "core.askPass=", "credential.helper=",
         "protocol.allow=never", "core.alternateRefsCommand=", "gc.auto=0", "maintenance.auto=false")
# Environment variables that could name a command for git to run.
_UNSAFE_ENV = ("GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR",
               "GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
_FILTER_KEYS = (".clean", ".smudge", ".process")
# Variables that point git at another repository or index than the one found from the path (a git hook
# sets some of them): discovery asks about the work tree its `.git` was found in.
_REPO_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")


def _env(drop=()) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _UNSAFE_ENV and k not in drop}
    env.update(GIT_PAGER="cat", PAGER="cat", GIT_TERMINAL_PROMPT="0", LC_ALL="C", GIT_CONFIG_NOSYSTEM="1")
    return env


def _run(cwd: Path, settings, args, drop_env=()) -> subprocess.CompletedProcess:
    cmd = ["git", "--no-optional-locks", "--no-replace-objects", "-C", str(cwd)]
    for s in settings:
        cmd += ["-c", s]
    try:
        return subprocess.run([*cmd, *args], capture_output=True, env=_env(drop_env), timeout=120,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise NotAGitRepo("git is not installed") from None
    except (OSError, subprocess.SubprocessError) as e:
        raise NotAGitRepo(f"cannot run git: {e}") from None


def _filter_settings(cwd: Path) -> list[str]:
    """-c settings emptying every filter driver that any config file defines (read, never run)."""
    proc = _run(cwd, _SAFE, ["config", "--null", "--name-only", "--list"])
    out: list[str] = []
    names = set()
    for raw in proc.stdout.split(b"\0") if proc.returncode == 0 else []:
        key = os.fsdecode(raw.strip())
        if key.lower().startswith("filter.") and key.lower().endswith((*_FILTER_KEYS, ".required")):
            names.add(key[len("filter."):key.rindex(".")])
    for name in sorted(names):
        out += [f"filter.{name}{k}=" for k in _FILTER_KEYS] + [f"filter.{name}.required=false"]
    return out


def _git(cwd: Path, *args: str, settings=()) -> subprocess.CompletedProcess:
    return _run(cwd, (*_SAFE, *settings), args)


def _toplevel(path: Path) -> Path:
    d = path if path.is_dir() else path.parent
    proc = _git(d, "rev-parse", "--show-toplevel")
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
        filters = _filter_settings(top)
        diff = _git(top, "diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", commit, "--",
                    settings=filters)
        if diff.returncode != 0:
            raise BadRef(f"--changed-since: git diff {ref} failed: {diff.stderr.decode('utf-8', 'replace').strip()}")
        untracked = _git(top, "ls-files", "--others", "--exclude-standard", "-z", settings=filters)
        names = diff.stdout.split(b"\0") + (untracked.stdout.split(b"\0") if untracked.returncode == 0 else [])
        for raw in names:
            if not raw:
                continue
            f = top / os.fsdecode(raw)
            if f.exists():
                out.add(str(f.resolve()))
    return frozenset(out)


def tracked_files(top) -> list[str] | None:
    """The files git tracks under the directory `top` (paths relative to it, sorted), or None when git
    cannot say (not installed, not a repository, a repository git refuses to read).

    Reads the index only (`ls-files` runs no filter, hook or diff program)."""
    try:
        proc = _run(Path(top), _SAFE, ["ls-files", "-z", "--cached"], drop_env=_REPO_ENV)
    except NotAGitRepo:
        return None
    if proc.returncode != 0:
        return None
    return sorted(os.fsdecode(raw) for raw in proc.stdout.split(b"\0") if raw)
