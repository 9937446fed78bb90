"""The migration plan: findings grouped by phase and effort class.

A checklist says what is wrong; a plan says what to do first and how big each piece is. Phase and effort
are catalogue data (every rule's `phase` / `effort`, titles and advice in the `[plan]` table); this module
only counts. Every reporter that shows a plan reads `build_plan()`, so text, JSON, Markdown and HTML agree.
"""
from __future__ import annotations

from .model import EFFORTS, PHASES, Finding, Report, Rule


def finding_effort(f: Finding, rule: Rule | None) -> str:
    """`automatic` only when plain `trnready fix` rewrites this very finding. A rule whose rewrite does not
    apply here (an unknown device string, a call shape the rewrite skips), or applies only with --unsafe
    (a medium-confidence match a person should look at), is a local edit."""
    if f.fixable and f.confidence == "high":
        return "automatic"
    effort = rule.effort if rule is not None else "local-edit"
    return "local-edit" if effort == "automatic" else effort


def finding_phase(f: Finding, rule: Rule | None) -> str:
    return rule.phase if rule is not None else "eager-port"


def build_plan(report: Report) -> dict:
    """The stable `plan` object of the JSON report (documented in docs/json-schema.md)."""
    texts = report.plan_text or {}
    phases = {p: {"id": p, "title": texts.get("phases", {}).get(p, {}).get("title", p),
                  "advice": texts.get("phases", {}).get(p, {}).get("advice", ""),
                  "items": 0, "fixable": 0, "by_effort": {e: 0 for e in EFFORTS},
                  "by_severity": {"blocker": 0, "change": 0, "advisory": 0}, "rules": []}
              for p in PHASES}
    redesign: dict[str, dict] = {}
    efforts = {e: 0 for e in EFFORTS}
    for f in report.active:
        rule = report.rules.get(f.rule)
        phase, effort = finding_phase(f, rule), finding_effort(f, rule)
        ph = phases[phase]
        ph["items"] += 1
        ph["by_effort"][effort] += 1
        ph["by_severity"][f.severity] += 1
        ph["fixable"] += 1 if effort == "automatic" else 0
        if f.rule not in ph["rules"]:
            ph["rules"].append(f.rule)
        efforts[effort] += 1
        if effort == "redesign":
            item = redesign.setdefault(f.rule, {"rule": f.rule, "title": f.title, "category": f.category,
                                                "phase": phase, "severity": f.severity, "files": set(),
                                                "occurrences": 0, "fix": f.fix})
            item["files"].add(f.path)
            item["occurrences"] += 1
    for ph in phases.values():
        ph["rules"].sort()
    items = sorted(redesign.values(), key=lambda i: (PHASES.index(i["phase"]), -len(i["files"]), i["rule"]))
    for i in items:
        i["files"] = len(i["files"])
    return {
        "phases": list(phases.values()),
        "by_effort": efforts,
        "fixable": efforts["automatic"],
        "fix_command": "trnready fix --write",
        "redesign": items,
    }
