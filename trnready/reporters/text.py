"""Terminal output: findings by severity (blockers first), then a summary and the verdict.

Display options (quiet, statistics, concise, min_severity, min_confidence) change what is
printed, never the findings the gate counts (that is Report.counted: gate scopes and gate confidence).
"""
from __future__ import annotations

import os
import re

from ..model import CONFIDENCES, PARTIAL_KINDS, SEVERITIES, SEVERITY_RANK, Report

_COLOURS = {"blocker": "\x1b[1;31m", "change": "\x1b[33m", "advisory": "\x1b[36m"}
_RESET = "\x1b[0m"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_HEADINGS = {"blocker": "Blockers", "change": "Changes", "advisory": "Advisories"}


def safe(text: str) -> str:
    """Scanned code may hold ANSI escapes or bidi controls; never print them raw."""
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                        else "\\u%04x" % ord(m.group()), text)


def safe_line(text: str) -> str:
    """safe() for text that must stay on one line (paths, titles): tabs and newlines escaped too, so a
    file named `a\\nVerdict: ready\\n.py` cannot print a line of its own."""
    return safe(text).replace("\t", "\\t").replace("\n", "\\n")


def display_path(report: Report, path: str, cwd: str | None = None) -> str:
    """A report path (relative to the scan root) as seen from the current directory, so a terminal
    or editor can open `src/x.py:12:5` directly."""
    try:
        return os.path.relpath(os.path.join(report.root, path), cwd or os.getcwd())
    except ValueError:  # another drive on Windows
        return path


def location(f, path: str | None = None) -> str:
    p = safe_line(path if path is not None else f.path)
    if f.cell is not None:
        return f"{p}:cell {f.cell + 1}, line {f.line}:{f.column}"
    return f"{p}:{f.line}:{f.column}"


def _painter(colour: bool):
    def paint(sev: str, s: str) -> str:
        return f"{_COLOURS[sev]}{s}{_RESET}" if colour else s
    return paint


def shown_findings(report: Report, min_severity: str | None = None, min_confidence: str | None = None) -> list:
    """Active findings passing the display filters, most severe first, then by path and position."""
    floor = SEVERITY_RANK[min_severity] if min_severity else 0
    confident = CONFIDENCES[:CONFIDENCES.index(min_confidence) + 1] if min_confidence else CONFIDENCES
    return sorted((f for f in report.active if SEVERITY_RANK[f.severity] >= floor and f.confidence in confident),
                  key=lambda f: (-SEVERITY_RANK[f.severity], *f.sort_key()))


def render(report: Report, stream, colour: bool = False, quiet: bool = False, statistics: bool = False,
           concise: bool = False, min_severity: str | None = None, min_confidence: str | None = None,
           **_options) -> None:
    shown = shown_findings(report, min_severity, min_confidence)
    cwd = os.getcwd()
    if not quiet:
        if statistics:
            _statistics(shown, stream)
        elif concise:
            for f in shown:
                mark = "[*] " if f.fixable else ""
                stream.write(f"{location(f, display_path(report, f.path, cwd))}: {f.rule} [{f.severity}] "
                             f"{mark}{safe(f.message)}\n")
        else:
            _full(report, shown, stream, colour, cwd)
        _diagnostics(report, stream, cwd)
        if shown or report.diagnostics:
            stream.write("\n")
    render_summary(report, stream, colour, shown=len(shown))


def _full(report: Report, shown: list, stream, colour: bool, cwd: str) -> None:
    paint = _painter(colour)
    current = None
    for f in shown:
        if f.severity != current:
            if current is not None:
                stream.write("\n")
            current = f.severity
            n = sum(1 for x in shown if x.severity == f.severity)
            stream.write(paint(f.severity, f"{_HEADINGS[f.severity]} ({n})") + "\n")
        conf = "" if f.confidence == "high" else f" ({f.confidence} confidence)"
        mark = "[*] " if f.fixable else ""  # like ruff: `trnready fix` can rewrite it
        stream.write(f"  {location(f, display_path(report, f.path, cwd))} {f.rule} "
                     f"[{paint(f.severity, f.severity)}] {mark}{safe(f.message)}{conf}\n")
        if f.snippet.strip():
            stream.write(f"      | {safe(f.snippet.strip())}\n")


def _statistics(shown: list, stream) -> None:
    """Counts per rule, as `ruff check --statistics`: most severe, then most frequent first."""
    per_rule: dict = {}
    for f in shown:
        entry = per_rule.setdefault(f.rule, [0, f.severity, False, f.title or f.category])
        entry[0] += 1
        entry[2] = entry[2] or f.fixable
    rows = sorted(per_rule.items(), key=lambda kv: (-SEVERITY_RANK[kv[1][1]], -kv[1][0], kv[0]))
    width = max((len(str(v[0])) for _, v in rows), default=1)
    for rule, (n, sev, fixable, title) in rows:
        stream.write(f"{n:>{width}}  {rule}  {'[*]' if fixable else '   '}  {sev:<8}  {safe_line(title)}\n")


def _diagnostics(report: Report, stream, cwd: str) -> None:
    guarded = [f for f in report.findings if f.guarded and not f.suppressed]
    if guarded:  # only present with --show-guarded
        stream.write("\nGuarded (not part of the port: never runs on a Neuron machine, runs only on the CPU, or "
                     "vendored; not counted):\n")
        for f in guarded:
            why = f"guarded: {f.guarded_by}" if f.guarded_by else "guarded"
            stream.write(f"  {location(f, display_path(report, f.path, cwd))} {f.rule} [{why}] {safe(f.message)}\n")
    for title, group in (("Not scanned", [d for d in report.diagnostics if d.kind not in PARTIAL_KINDS]),
                         ("Scanned in part", [d for d in report.diagnostics if d.kind in PARTIAL_KINDS])):
        if group:
            stream.write(f"\n{title}:\n")
            for d in group:
                stream.write(f"  {safe_line(display_path(report, d.path, cwd))}: {d.kind}: {safe(d.message)}\n")


def render_summary(report: Report, stream, colour: bool = False, shown: int | None = None) -> None:
    sev = report.by_severity()
    kinds = ", ".join(f"{n} {k}" for k, n in report.files_by_group().items())
    stream.write(f"Scanned {report.files_scanned} file(s){' (' + kinds + ')' if kinds else ''}, "
                 f"skipped {sum(1 for d in report.diagnostics if d.kind not in PARTIAL_KINDS)}.\n")
    stream.write("Findings: " + ", ".join(f"{sev[s]} {s}" for s in SEVERITIES) + "\n")
    total = sum(sev.values())
    if shown is not None and shown != total:
        stream.write(f"Shown: {shown} of {total} (display filter; the verdict and exit code ignore it)\n")
    scopes = report.by_scope()
    if len(scopes) > 1 or any(sc not in report.gate_scopes for sc in scopes):
        parts = []
        for sc, c in scopes.items():
            n = ", ".join(f"{c[s]} {s}" for s in SEVERITIES if c[s])
            parts.append(f"{sc} {n}" + ("" if sc in report.gate_scopes else " (not counted)"))
        stream.write("By scope: " + "; ".join(parts) + "\n")
    suppressed = sum(1 for f in report.findings if f.suppressed)
    if suppressed:
        stream.write(f"Suppressed: {suppressed}\n")
    if report.guarded:
        listed = "" if report.guarded_hidden == 0 else "; --show-guarded lists them"
        stream.write(f"Guarded (not part of the port, not counted{listed}): {report.guarded}\n")
    if report.baseline is not None:
        b = report.baseline
        line = f"Baseline: {b['known']} known finding(s) from {safe_line(b['path'])} not shown"
        if b.get("resolved"):
            line += f"; {b['resolved']} no longer found (re-create the baseline to drop them)"
        stream.write(line + "\n")
    fixable = [f for f in report.active if f.fixable]
    if fixable:
        safe_n = sum(1 for f in fixable if f.confidence == "high")
        more = len(fixable) - safe_n
        stream.write(f"[*] {safe_n} fixable with `trnready fix`"
                     + (f" ({more} more with `trnready fix --unsafe`)" if more else "") + "\n")
    cats = report.by_category()
    if cats:
        stream.write("By category: " + ", ".join(f"{c} {n}" for c, n in cats.items()) + "\n")
    _plan_lines(report, stream)
    stream.write(f"Verdict: {verdict(report, colour)}\n")


def _plan_lines(report: Report, stream) -> None:
    """The migration plan in a few lines: items per phase, in the order to do them, by effort class."""
    from ..plan import build_plan

    phases = [p for p in build_plan(report)["phases"] if p["items"]]
    if not phases:
        return
    stream.write("Plan (automatic / local edit / redesign):\n")
    width = max(len(p["title"]) for p in phases)
    for n, p in enumerate(phases, 1):
        e = p["by_effort"]
        stream.write(f"  {n}. {p['title']:<{width}}  {e['automatic']:>4} / {e['local-edit']:>4} / {e['redesign']:>4}\n")


def verdict(report: Report, colour: bool = False) -> str:
    sev = {s: 0 for s in SEVERITIES}
    for f in report.counted:  # coloured by what the verdict counts
        sev[f.severity] += 1
    text = report.verdict()
    if not colour:
        return text
    if not sum(sev.values()):
        return f"\x1b[1;32m{text}{_RESET}" if report.files_scanned else text
    first = "blocker" if sev["blocker"] else "change" if sev["change"] else "advisory"
    return _painter(True)(first, text)
