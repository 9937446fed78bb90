"""Machine-readable report; its shape is documented in README and schema/report.schema.json."""
from __future__ import annotations

import json

from ..model import PARTIAL_KINDS, Report
from ..plan import build_plan, finding_effort, finding_phase

# 1.1 (additive): `plan`; `phase`, `effort` and `guarded` on every finding; summary.guarded.
# 1.2 (additive): `scope` on every finding, `occurrences` on findings that fold further places;
# summary.by_scope, summary.gate ({scopes, min_confidence, counted, medium_confidence}).
# 1.3 (additive): `guarded_by` on guarded findings (the predicate or step that decided: neuron-guarded,
# cpu-unit-test, vendored, ...).
# 1.4 (additive): `elsewhere` places in other files. 1.5 (additive): `file_line` on notebook occurrences.
# 1.6 (additive): `end_line` on occurrences spanning several lines.
# Readers of 1.0 keep working.
SCHEMA_VERSION = "1.6"


def _finding(f, report: Report) -> dict:
    out = f.to_json()
    rule = report.rules.get(f.rule)
    out["phase"] = finding_phase(f, rule)
    out["effort"] = finding_effort(f, rule)
    return out


def _gate(report: Report) -> dict:
    counted = report.counted
    by = {s: 0 for s in ("blocker", "change", "advisory")}
    for f in counted:
        by[f.severity] += 1
    return {"scopes": list(report.gate_scopes), "min_confidence": report.gate_min_confidence,
            "counted": by, "medium_confidence": sum(1 for f in counted if f.confidence == "medium")}


def to_dict(report: Report) -> dict:
    out = {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "trnready", "version": report.tool_version},
        "catalogue": {"version": report.catalogue_version, "sha256": report.catalogue_sha256},
        "root": report.root,
        "generated_at": report.started_at,
        "summary": {
            "files_scanned": report.files_scanned,
            "files_skipped": sum(1 for d in report.diagnostics if d.kind not in PARTIAL_KINDS),
            "files_by_kind": dict(sorted(report.files_by_kind.items())),
            "files_by_group": report.files_by_group(),
            "by_severity": report.by_severity(),
            "by_category": report.by_category(),
            "suppressed": sum(1 for f in report.findings if f.suppressed),
            "guarded": report.guarded,
            "by_scope": report.by_scope(),
            "gate": _gate(report),
            "verdict": report.verdict(),
        },
        "plan": build_plan(report),
        "findings": [_finding(f, report) for f in report.findings],
        "diagnostics": [d.to_json() for d in report.diagnostics],
    }
    if report.baseline is not None:
        out["summary"]["baseline"] = dict(report.baseline)
    return out


def render(report: Report, stream, **_options) -> None:
    json.dump(to_dict(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
