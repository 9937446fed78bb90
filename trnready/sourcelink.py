"""Links from a finding to its line on the hosting service (GitHub, GitLab, Bitbucket).

The scanned repository may be hostile, so this reads `.git` as data and never runs git: a git
invocation in an untrusted checkout can run commands its config names (fsmonitor, hooks, filters).
It reads the `HEAD` commit (loose ref or packed-refs) and the URL of the `origin` remote (else the first
remote) and turns known hosts into a URL template with `{path}` (relative to the scanned root) and `{line}`.
Unknown hosts and anything unexpected give no links rather than a guess.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional
from urllib.parse import quote

MAX_GIT_FILE = 1 << 20  # .git/config, HEAD and packed-refs are small; a larger one is not read
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
# host -> (blob URL template over owner/repo path, commit, path; line anchor)
HOSTS = {
    "github.com": ("https://github.com/{repo}/blob/{commit}/{path}", "#L{line}"),
    "gitlab.com": ("https://gitlab.com/{repo}/-/blob/{commit}/{path}", "#L{line}"),
    "bitbucket.org": ("https://bitbucket.org/{repo}/src/{commit}/{path}", "#lines-{line}"),
}
_REMOTE = re.compile(
    r"^(?:(?:https?|ssh|git)://(?:[^@/]+@)?(?P<h1>[^/:]+)(?::\d+)?/|(?:[^@/]+@)?(?P<h2>[^/:]+):)"
    r"(?P<repo>[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)+)/?$")


def _read(path: Path) -> Optional[str]:
    try:
        if not path.is_file() or path.stat().st_size > MAX_GIT_FILE:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _git_dir(start: Path) -> tuple[Optional[Path], Optional[Path]]:
    """(.git directory, work-tree top) for the checkout holding `start`, following a `gitdir:` file."""
    for top in [start, *start.parents]:
        dot = top / ".git"
        if dot.is_dir():
            return dot, top
        if dot.is_file():
            text = _read(dot) or ""
            m = re.match(r"gitdir:\s*(.+)", text.strip())
            if m:
                gd = Path(m.group(1).strip())
                gd = gd if gd.is_absolute() else (top / gd)
                return (gd if gd.is_dir() else None), top
            return None, top
    return None, None


def _common_dir(git_dir: Path) -> Path:
    """A linked worktree keeps refs and config in the main repository's directory (`commondir`)."""
    text = _read(git_dir / "commondir")
    if text and text.strip():
        p = Path(text.strip())
        return p if p.is_absolute() else (git_dir / p)
    return git_dir


def head_commit(git_dir: Path) -> Optional[str]:
    head = (_read(git_dir / "HEAD") or "").strip()
    if _SHA.match(head):
        return head
    m = re.match(r"ref:\s*(refs/[\w./-]+)$", head)
    if not m or ".." in m.group(1):
        return None
    ref = m.group(1)
    for base in (git_dir, _common_dir(git_dir)):
        loose = (_read(base / ref) or "").strip()
        if _SHA.match(loose):
            return loose
        for line in (_read(base / "packed-refs") or "").splitlines():
            parts = line.strip().split(" ")
            if len(parts) == 2 and parts[1] == ref and _SHA.match(parts[0]):
                return parts[0]
    return None


def remote_url(git_dir: Path) -> Optional[str]:
    text = _read(_common_dir(git_dir) / "config") or ""
    remotes: dict[str, str] = {}
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        m = re.match(r'^\[\s*remote\s+"([^"]+)"\s*\]$', line)
        if m:
            section = m.group(1)
            continue
        if line.startswith("["):
            section = None
            continue
        m = re.match(r"^url\s*=\s*(.+)$", line)
        if section and m and section not in remotes:
            remotes[section] = m.group(1).strip().strip('"')
    if "origin" in remotes:
        return remotes["origin"]
    return next(iter(remotes.values()), None)


def template_for(remote: str, commit: str, prefix: str) -> Optional[str]:
    """A URL template with {path} and {line} for a known host, else None."""
    m = _REMOTE.match(remote.strip())
    if not m:
        return None
    host = (m.group("h1") or m.group("h2") or "").lower()
    if host not in HOSTS:
        return None
    blob, anchor = HOSTS[host]
    repo = m.group("repo")
    repo = quote(repo[:-4] if repo.endswith(".git") else repo, safe="/")
    base = blob.format(repo=repo, commit=commit, path=quote(prefix, safe="/") + "{path}")
    return base + anchor


def detect(root: str | Path) -> Optional[str]:
    """The link template for findings under `root`, or None when it is not a checkout of a known host."""
    start = Path(root).absolute()
    if start.is_file():
        start = start.parent
    git_dir, top = _git_dir(start)
    if git_dir is None or top is None:
        return None
    commit = head_commit(git_dir)
    remote = remote_url(git_dir)
    if not commit or not remote:
        return None
    try:
        prefix = start.relative_to(top).as_posix()
    except ValueError:
        return None
    prefix = "" if prefix in ("", ".") else prefix + "/"
    return template_for(remote, commit, prefix)


def valid_template(template: str) -> bool:
    """A --source-url template must be an http(s) URL naming {path}."""
    return template.lower().startswith(("https://", "http://")) and "{path}" in template
