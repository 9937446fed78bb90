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
from dataclasses import dataclass
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
                "message": f.message} for f in report.active]
    entries.sort(key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    return {
        "trnready_baseline": BASELINE_FORMAT,
        "tool": {"name": "trnready", "version": report.tool_version},
        "catalogue": {"version": report.catalogue_version},
        "root": root,
        "created_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "findings": entries,
    }


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
    for f in report.findings:
        if f.fingerprint in baseline.fingerprints:
            seen.add(f.fingerprint)
            if not f.suppressed:
                known += 1
            continue
        kept.append(f)
    report.findings = kept
    info = {"path": baseline.path, "known": known}
    if not partial:
        info["resolved"] = len(baseline.fingerprints - seen)
    report.baseline = info
    return report


def root_mismatch(report: Report, baseline: Baseline) -> str | None:
    """A warning when the scan root differs from the baseline's (paths in fingerprints would differ)."""
    if baseline.root is None:
        return None
    try:
        same = Path(report.root).resolve() == Path(baseline.root)
    except OSError:
        same = False
    if same:
        return None
    return (f"baseline {baseline.path} was created for scan root {baseline.root}, this scan's root is "
            f"{report.root}; fingerprints include paths relative to the root, so known findings may show as new")
