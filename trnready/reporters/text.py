"""Terminal output: findings grouped by file, then a summary and the verdict."""
from __future__ import annotations

import re

from ..model import PARTIAL_KINDS, SEVERITIES, Report

_COLOURS = {"blocker": "\x1b[1;31m", "change": "\x1b[33m", "advisory": "\x1b[36m"}
_RESET = "\x1b[0m"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def safe(text: str) -> str:
    """Scanned code may hold ANSI escapes or bidi controls; never print them raw."""
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                        else "\\u%04x" % ord(m.group()), text)


def location(f) -> str:
    if f.cell is not None:
        return f"{safe(f.path)}:cell {f.cell + 1}, line {f.line}:{f.column}"
    return f"{safe(f.path)}:{f.line}:{f.column}"


def _painter(colour: bool):
    def paint(sev: str, s: str) -> str:
        return f"{_COLOURS[sev]}{s}{_RESET}" if colour else s
    return paint


def render(report: Report, stream, colour: bool = False, **_options) -> None:
    paint = _painter(colour)
    current = None
    for f in report.active:
        if f.path != current:
            if current is not None:
                stream.write("\n")
            current = f.path
            stream.write((f"\x1b[1m{safe(f.path)}{_RESET}" if colour else safe(f.path)) + "\n")
        conf = "" if f.confidence == "high" else f" ({f.confidence} confidence)"
        mark = "[*] " if f.fixable else ""  # like ruff: `trnready fix` can rewrite it
        stream.write(f"  {location(f)} {f.rule} [{paint(f.severity, f.severity)}] {mark}{safe(f.message)}{conf}\n")
        if f.snippet.strip():
            stream.write(f"      | {safe(f.snippet.strip())}\n")
    for title, group in (("Not scanned", [d for d in report.diagnostics if d.kind not in PARTIAL_KINDS]),
                         ("Scanned in part", [d for d in report.diagnostics if d.kind in PARTIAL_KINDS])):
        if group:
            stream.write(f"\n{title}:\n")
            for d in group:
                stream.write(f"  {safe(d.path)}: {d.kind}: {safe(d.message)}\n")
    stream.write("\n")
    render_summary(report, stream, colour)


def render_summary(report: Report, stream, colour: bool = False) -> None:
    paint = _painter(colour)
    sev = report.by_severity()
    kinds = ", ".join(f"{n} {k}" for k, n in report.files_by_group().items())
    stream.write(f"Scanned {report.files_scanned} file(s){' (' + kinds + ')' if kinds else ''}, "
                 f"skipped {sum(1 for d in report.diagnostics if d.kind not in PARTIAL_KINDS)}.\n")
    stream.write("Findings: " + ", ".join(f"{sev[s]} {s}" for s in SEVERITIES) + "\n")
    suppressed = sum(1 for f in report.findings if f.suppressed)
    if suppressed:
        stream.write(f"Suppressed: {suppressed}\n")
    if report.baseline is not None:
        b = report.baseline
        line = f"Baseline: {b['known']} known finding(s) from {safe(b['path'])} not shown"
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
    verdict = report.verdict()
    if colour:
        first = "blocker" if sev["blocker"] else "change" if sev["change"] else "advisory"
        verdict = paint(first, verdict) if sum(sev.values()) else f"\x1b[1;32m{verdict}{_RESET}"
    stream.write(f"Verdict: {verdict}\n")
