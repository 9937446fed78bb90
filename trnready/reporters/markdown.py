"""Markdown: a summary table and the top findings, for a CI job summary or a pull-request comment.

The first line is an HTML comment that marks the file as trnready output, so a report
written into the scanned tree is never read back as input (discover.own_output).
"""
from __future__ import annotations

from ..model import SEVERITIES, SEVERITY_RANK, Report
from ..plan import build_plan
from ..model import PARTIAL_KINDS
from .text import safe, verdict

MARKER = "<!-- trnready report (markdown) -->"
TOP = 20  # findings listed; the rest are counted (the SARIF / HTML reports hold them all)
_ICONS = {"blocker": "🔴", "change": "🟡", "advisory": "🔵"}


def _cell(text: str) -> str:
    """Text safe inside a table cell: one line, no pipes, no raw HTML."""
    out = " ".join(safe(str(text)).split())
    return out.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _code(text: str) -> str:
    text = _cell(text).replace("`", "'")
    return f"`{text}`" if text else ""


def render(report: Report, stream, top: int = TOP, **_options) -> None:
    w = stream.write
    sev = report.by_severity()
    w(f"{MARKER}\n## trnready: TorchNeuron readiness\n\n**Verdict: {_cell(verdict(report))}**\n\n")
    kinds = ", ".join(f"{n} {k}" for k, n in report.files_by_group().items())
    skipped = sum(1 for d in report.diagnostics if d.kind not in PARTIAL_KINDS)
    w(f"Scanned {report.files_scanned} file(s){' (' + kinds + ')' if kinds else ''}, skipped {skipped}; "
      f"catalogue {_cell(report.catalogue_version)}, trnready {_cell(report.tool_version)}.\n\n")
    w("| Severity | Findings |\n|---|---:|\n")
    for s in SEVERITIES:
        w(f"| {_ICONS[s]} {s} | {sev[s]} |\n")
    notes = []
    suppressed = sum(1 for f in report.findings if f.suppressed)
    if suppressed:
        notes.append(f"{suppressed} suppressed in code")
    if report.baseline is not None:
        notes.append(f"{report.baseline['known']} known from the baseline not shown")
    fixable = sum(1 for f in report.active if f.fixable and f.confidence == "high")
    if fixable:
        notes.append(f"{fixable} fixable with `trnready fix`")
    if notes:
        w("\n" + "; ".join(notes) + ".\n")
    active = sorted(report.active, key=lambda f: (-SEVERITY_RANK[f.severity], *f.sort_key()))
    if not active:
        return
    _plan(report, w)
    per_rule: dict = {}
    for f in active:
        per_rule.setdefault(f.rule, [0, f.severity, f.title or f.category])[0] += 1
    w("\n### By rule\n\n| Rule | Severity | Count | Title |\n|---|---|---:|---|\n")
    for rule, (n, s, title) in sorted(per_rule.items(), key=lambda kv: (-SEVERITY_RANK[kv[1][1]], -kv[1][0], kv[0])):
        w(f"| {rule} | {s} | {n} | {_cell(title)} |\n")
    shown = active[:top]
    w(f"\n### Top findings ({len(shown)} of {len(active)})\n\n| Severity | Location | Rule | Message |\n"
      "|---|---|---|---|\n")
    for f in shown:
        where = f"{f.path}:{f.line}" if f.cell is None else f"{f.path} (cell {f.cell + 1}, line {f.line})"
        w(f"| {_ICONS[f.severity]} {f.severity} | {_code(where)} | {f.rule} | {_cell(f.message)} |\n")
    if len(active) > len(shown):
        w(f"\n{len(active) - len(shown)} more finding(s): see the SARIF, JSON or HTML report.\n")


def _plan(report: Report, w) -> None:
    """The migration plan: items per phase by effort class, then the redesign work by name."""
    plan = build_plan(report)
    w("\n### Plan\n\n| Phase | Automatic | Local edit | Redesign |\n|---|---:|---:|---:|\n")
    for n, p in enumerate((p for p in plan["phases"] if p["items"]), 1):
        e = p["by_effort"]
        w(f"| {n}. {_cell(p['title'])} | {e['automatic']} | {e['local-edit']} | {e['redesign']} |\n")
    if plan["fixable"]:
        w(f"\n`trnready fix --write` clears {plan['fixable']} item(s).\n")
    if plan["redesign"]:
        w("\nRedesign work: " + "; ".join(
            f"{_cell(r['title'])} ({r['rule']}, {r['files']} file{'s' if r['files'] != 1 else ''})"
            for r in plan["redesign"]) + ".\n")
