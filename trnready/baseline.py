"""Baselines: record today's findings, then report (and gate on) only new ones.

A baseline file lists findings by fingerprint. The fingerprint is built from the
file's path relative to the scan root, the rule and the code of the match, not
the line number: inserting or deleting unrelated lines keeps a finding known,
while the same code moved to another file is a new finding.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

from .read import read_regular
from .model import Report

BASELINE_FORMAT = 1


class BaselineError(Exception):
    """A baseline file that cannot be read: exit code 2."""


@dataclass(frozen=True)
class Baseline:
    path: str
    fingerprints: frozenset[str]
    entries: tuple[dict, ...]
    root: str | None  # absolute scan root the baseline was made for, if recorded


def to_dict(report: Report, baseline_path: str | Path) -> dict:
    base_dir = Path(baseline_path).absolute().parent
    try:
        root = Path(os.path.relpath(report.root, base_dir)).as_posix()
    except ValueError:  # another drive on Windows
        root = Path(report.root).as_posix()
    entries = [{"fingerprint": f.fingerprint, "rule": f.rule, "path": f.path, "line": f.line,
                "message": f.message, **({} if _repo_scoped(report, f.rule) else {"places": 1 + len(f.occurrences)})}
               for f in report.active]
    entries.sort(key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    return {
        "trnready_baseline": BASELINE_FORMAT,
        "tool": {"name": "trnready", "version": report.tool_version},
        "catalogue": {"version": report.catalogue_version},
        "root": root,
        "created_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "findings": entries,
    }


def _repo_scoped(report: Report, rule_id: str) -> bool:
    """A rule kept once per repository (`scope = "repo"`): its places grow with every use anywhere, which is no
    new item of work."""
    rule = report.rules.get(rule_id)
    return any(getattr(m, "scope", "file") == "repo" for m in getattr(rule, "matchers", ()))


def render(report: Report, baseline_path: str | Path) -> str:
    return json.dumps(to_dict(report, baseline_path), indent=2, ensure_ascii=False) + "\n"


def load(path: str | Path) -> Baseline:
    p = Path(path)
    try:
        data = json.loads(read_regular(p, 512 * 1024 * 1024).decode("utf-8"))
    except OSError as e:
        raise BaselineError(f"{p}: cannot read baseline: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BaselineError(f"{p}: not a trnready baseline (invalid JSON: {e})") from None
    if not isinstance(data, dict) or data.get("trnready_baseline") != BASELINE_FORMAT:
        raise BaselineError(f"{p}: not a trnready baseline (expected \"trnready_baseline\": {BASELINE_FORMAT}; "
                            "create one with `trnready baseline create`)")
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("fingerprint"), str)
                                                for e in entries):
        raise BaselineError(f"{p}: key 'findings': must be a list of objects with a fingerprint")
    root = data.get("root")
    abs_root = str((p.absolute().parent / root).resolve()) if isinstance(root, str) else None
    return Baseline(path=str(p), fingerprints=frozenset(e["fingerprint"] for e in entries), entries=tuple(entries),
                    root=abs_root)


def apply(report: Report, baseline: Baseline, partial: bool = False) -> Report:
    """Drop known findings from the report; record counts in `report.baseline`.

    `partial`: only part of the tree was scanned (--changed-since), so entries
    not seen are not counted as resolved.
    """
    seen: set[str] = set()
    kept = []
    known = 0
    places: dict = {}  # fingerprint -> most places one baselined finding of it had (entries from 0.1 have none)
    for e in baseline.entries:
        if isinstance(e.get("places"), int):
            places[e["fingerprint"]] = max(places.get(e["fingerprint"], 0), e["places"])
    for f in report.findings:
        if f.fingerprint in baseline.fingerprints:
            seen.add(f.fingerprint)
            # A known finding that gained places (a new `.cuda()` joined the run of an old one, a new use of a
            # known library in the file) is new work: it is reported again, and gates.
            grown = 1 + len(f.occurrences) - places.get(f.fingerprint, 1 + len(f.occurrences))
            if grown <= 0:
                if not f.suppressed:
                    known += 1
                continue
            f = replace(f, message=f"{f.message} ({grown} new place{'s' if grown != 1 else ''} since the baseline)")
        kept.append(f)
    report.findings = kept
    info = {"path": baseline.path, "known": known}
    if not partial:
        info["resolved"] = len(baseline.fingerprints - seen)
    report.baseline = info
    return report


def scan_root_for(baseline: Baseline, natural_root: str | Path) -> str | None:
    """The root to compute fingerprints from so they compare with the baseline's, when it differs from
    the scan's own root (None: use the scan's own root).

    Fingerprints hold paths relative to the scan root, so a baseline made for the repository root
    and a scan of `src/` (or the reverse) name the same file differently. Scanning from the
    baseline's root and then re-expressing paths (`rebase`) lets both agree. A recorded root that
    no longer exists or shares no folder with this scan (a baseline copied elsewhere) is not used.
    """
    if baseline.root is None:
        return None
    try:
        here, there = Path(natural_root).resolve(), Path(baseline.root)
        if here == there or not there.is_dir():
            return None
    except OSError:
        return None
    if here.is_relative_to(there) or there.is_relative_to(here):
        return str(there)
    return None


def rebase(report: Report, root: str | Path) -> Report:
    """Re-express every path of a report scanned from another root relative to `root`."""
    from dataclasses import replace

    old, new = Path(report.root), Path(root).absolute()

    def move(rel: str) -> str:
        try:
            return Path(os.path.relpath(old / rel, new)).as_posix()
        except ValueError:  # another drive on Windows
            return (old / rel).as_posix()

    report.findings = [replace(f, path=move(f.path)) for f in report.findings]
    report.diagnostics = [replace(d, path=move(d.path)) for d in report.diagnostics]
    report.root = str(new)
    return report


def nothing_matched(report: Report, baseline: Baseline) -> str | None:
    """A warning when a non-empty baseline made for another root matched no finding at all."""
    if baseline.root is None or not baseline.fingerprints or not report.baseline or report.baseline["known"]:
        return None
    try:
        if Path(report.root).resolve() == Path(baseline.root):
            return None
    except OSError:
        pass
    return (f"baseline {baseline.path} was created for scan root {baseline.root} and matched none of this "
            f"scan's findings; every finding is reported as new")
