"""Machine-readable report; its shape is documented in README and schema/report.schema.json."""
from __future__ import annotations

import json

from ..model import PARTIAL_KINDS, Report

SCHEMA_VERSION = "1.0"


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
            "verdict": report.verdict(),
        },
        "findings": [f.to_json() for f in report.findings],
        "diagnostics": [d.to_json() for d in report.diagnostics],
    }
    if report.baseline is not None:
        out["summary"]["baseline"] = dict(report.baseline)
    return out


def render(report: Report, stream, **_options) -> None:
    json.dump(to_dict(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
