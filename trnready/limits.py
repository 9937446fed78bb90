"""Bounds on what one file can put into a report.

A hostile or generated file can hold one 100 kB line with thousands of matches; each finding
copying that line made reports grow with (matches x line length): 12,000 findings on one line
made a 1.3 GB JSON report. Text carried by a finding is cut to a window around the match, and
the number of findings per line and per file is capped with a diagnostic. The cap keeps the
most severe findings, and at least one of every rule that matched, so the verdict and exit code
are those of the uncapped scan.
"""
from __future__ import annotations

from dataclasses import replace

from .clip import SNIPPET_MAX, clip
from .model import SEVERITY_RANK, Diagnostic

MESSAGE_MAX = 500
PER_LINE = 20  # findings of one rule on one line
PER_FILE = 1000


def _bounded(f):
    long_context = any(len(t) > SNIPPET_MAX for _, t in f.context)
    if len(f.snippet) <= SNIPPET_MAX and len(f.message) <= MESSAGE_MAX and not long_context:
        return f
    start = max(0, f.column - 1)
    end = f.end_column - 1 if f.end_line == f.line else None
    context = f.context
    if long_context:
        context = tuple((n, clip(t, start, end) if n == f.line else clip(t)) for n, t in context)
    message = f.message if len(f.message) <= MESSAGE_MAX else f.message[:MESSAGE_MAX - 1] + "…"
    return replace(f, snippet=clip(f.snippet, start, end), message=message, context=context)


def bound(findings: list, diag: Diagnostic | None, rel: str):
    """(findings with bounded text, at most PER_LINE per rule and line and PER_FILE in all, diagnostic)."""
    findings = [_bounded(f) for f in findings]
    if len(findings) <= PER_LINE:
        return findings, diag
    kept, per_line = [], {}  # type: list, dict[tuple, int]
    for f in findings:
        key = (f.cell, f.line, f.rule)
        per_line[key] = per_line.get(key, 0) + 1
        if per_line[key] <= PER_LINE:
            kept.append(f)
    if len(kept) > PER_FILE:
        # The first finding of each rule, then the most severe, then in file order.
        firsts: dict[str, int] = {}
        for i, f in enumerate(kept):
            firsts.setdefault(f.rule, i)
        order = sorted(range(len(kept)), key=lambda i: (firsts[kept[i].rule] != i, -SEVERITY_RANK[kept[i].severity], i))
        chosen = sorted(order[:PER_FILE])
        kept = [kept[i] for i in chosen]
    dropped = len(findings) - len(kept)
    if not dropped:
        return findings, diag
    note = (f"{dropped:,} more finding(s) not reported: at most {PER_LINE} per rule and line and {PER_FILE:,} "
            f"per file (every rule that matched is reported at least once)")
    if diag is None:
        diag = Diagnostic(rel, "too-many-findings", note)
    else:
        diag = replace(diag, message=f"{diag.message}; {note}")
    return kept, diag
