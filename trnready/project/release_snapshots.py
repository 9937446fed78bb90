"""Report step release-snapshots: a file named for one release of the project (`2.0.2_requirements.txt`) beside
files of the same name for other releases (`2.2.4_requirements.txt`, ...) is the frozen environment of a release,
kept for reproducing it (chemprop's `requirements/` holds one known-working list per release, and its README says
so). The findings of the older releases' files are guarded (`release-snapshot`): the port edits the current
environment, not history. The newest release's file is guarded too when the repository declares its package at
the top (`pyproject.toml`, `setup.py` or `setup.cfg`): that declaration is the live requirement, and the snapshot
only records what one release was tested with. Without one, the newest snapshot may be the only install route, and
its findings stay.

A file counts when its name is a release version, then `_` or `-`, then a rest shared by at least one other file
of the same folder with another version (`v1.2_environment.yml`, `2.0.0rc1_requirements.txt`). Names carrying a
version elsewhere (`torch2.4.0-cuda12.1.dockerfile`, `requirements-cu118.txt`) are variants, not releases, and a
version alone in its folder is the current file.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

GUARD = "release-snapshot"
MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg")
_RELEASE = re.compile(r"^v?(?P<version>\d+(?:\.\d+)+(?:(?:a|b|rc|\.dev|\.post)\d+)?)[_-](?P<rest>[A-Za-z].*)$")


def _release(name: str):
    """(version, rest) of `2.0.2_requirements.txt`, or None."""
    from packaging.version import InvalidVersion, Version

    m = _RELEASE.match(name)
    if m is None:
        return None
    try:
        return Version(m.group("version")), m.group("rest")
    except InvalidVersion:
        return None


def release_snapshots(findings: list, root) -> list:
    if root is None or not findings:
        return findings
    dirs = {str(PurePosixPath(f.path).parent) for f in findings
            if not f.guarded and _release(PurePosixPath(f.path).name) is not None}
    if not dirs:
        return findings
    newest: dict = {}  # (folder, rest) -> the highest version among the folder's files of that rest
    count: dict = {}
    for d in dirs:
        try:
            names = [p.name for p in (Path(root) / d).iterdir() if p.is_file()]
        except OSError:
            continue
        for name in names:
            got = _release(name)
            if got is None:
                continue
            key = (d, got[1])
            count[key] = count.get(key, 0) + 1
            if key not in newest or got[0] > newest[key]:
                newest[key] = got[0]
    declared = any((Path(root) / m).is_file() for m in MANIFESTS)
    out = []
    for f in findings:
        p = PurePosixPath(f.path)
        mine = _release(p.name) if not f.guarded else None
        if mine is not None and count.get((str(p.parent), mine[1]), 0) > 1 and (
                declared or mine[0] < newest[(str(p.parent), mine[1])]):
            f = replace(f, guarded=True, guarded_by=GUARD)
        out.append(f)
    return out
