"""SARIF 2.1.0 for code-scanning dashboards (GitHub code scanning, Azure DevOps, IDE viewers).

One run; `tool.driver.rules` holds one reportingDescriptor per rule that has a
finding (id, name, short/full description, helpUri, help, default level from
the catalogue severity: blocker -> error, change -> warning, advisory -> note).
Each result points at its rule by id and index, carries the finding's own level
(severity overrides apply), a location relative to `%SRCROOT%` (the scan root,
given in `originalUriBaseIds`), `partialFingerprints["trnready/v1"]` and, when
suppressed in source, `suppressions: [{"kind": "inSource"}]`. Files that could
not be scanned become tool execution notifications.

    {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "trnready", "rules": [...]}},
      "results": [{"ruleId": "TRN191", "level": "error", "locations": [...], ...}]}]}
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from ..model import Report
from ..plan import finding_effort, finding_phase

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/trnready/"
LEVELS = {"blocker": "error", "change": "warning", "advisory": "note"}


def _uri(rel: str) -> str:
    return quote(rel.replace("\\", "/"), safe="/")


def _root_uri(root: str) -> str:
    uri = Path(root).absolute().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _sources_text(rule) -> str:
    return "\n".join(f"- {s.title}: {s.url}" for s in rule.sources) or rule.source


def _sources_markdown(rule) -> str:
    # Titles are catalogue text: brackets would end the link text early.
    return "\n".join(f"- [{s.title.replace('[', '(').replace(']', ')')}]({s.url})" for s in rule.sources) \
        or rule.source


def _descriptor(rule, fallback) -> dict:
    if rule is None:  # a finding whose rule is not in the catalogue (should not happen)
        return {"id": fallback.rule, "shortDescription": {"text": fallback.title or fallback.rule},
                "defaultConfiguration": {"level": LEVELS[fallback.severity]},
                "properties": {"category": fallback.category, "tags": [fallback.category]}}
    d = {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.why},
        "help": {
            "text": f"{rule.why}\n\nFix: {rule.fix}\n\nSources:\n{_sources_text(rule)}\n\nReference: {rule.docs}",
            "markdown": f"{rule.why}\n\n**Fix{' (suggestion)' if rule.fix_is_suggestion else ''}:** {rule.fix}\n\n"
                        f"**Sources:**\n\n{_sources_markdown(rule)}\n\nReference: {rule.docs}",
        },
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"category": rule.category, "severity": rule.severity, "phase": rule.phase,
                       "effort": rule.effort, "tags": ["trnready", rule.category]},
    }
    if rule.docs.startswith(("https://", "http://")):
        d["helpUri"] = rule.docs
    return d


def to_dict(report: Report) -> dict:
    rule_ids = sorted({f.rule for f in report.findings})
    index = {rid: i for i, rid in enumerate(rule_ids)}
    first = {}
    for f in report.findings:
        first.setdefault(f.rule, f)
    rules = [_descriptor(report.rules.get(rid), first[rid]) for rid in rule_ids]
    results = []
    for f in report.findings:
        if f.cell is not None:
            # A notebook finding points into the .ipynb JSON text: the line of the cell's source line
            # there (cell-relative columns would be wrong, so none are given).
            region = {"startLine": f.file_line or 1}
        else:
            region = {"startLine": f.line, "startColumn": f.column, "endLine": max(f.end_line, f.line),
                      "endColumn": f.end_column if f.end_line > f.line else max(f.end_column, f.column)}
        if f.snippet:
            region["snippet"] = {"text": f.snippet}
        r = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": LEVELS[f.severity],
            "message": {"text": f"{f.message}. Fix: {f.fix}" if f.fix else f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"},
                "region": region,
            }}],
            "partialFingerprints": {"trnready/v1": f.fingerprint},
            "properties": {"category": f.category, "severity": f.severity, "confidence": f.confidence,
                           "phase": finding_phase(f, report.rules.get(f.rule)),
                           "effort": finding_effort(f, report.rules.get(f.rule))},
        }
        if f.cell is not None:
            r["properties"]["cell"] = f.cell
        if f.suppressed:
            sup = {"kind": "inSource"}
            if f.suppression_reason:
                sup["justification"] = f.suppression_reason
            r["suppressions"] = [sup]
        results.append(r)
    notifications = [{
        "level": "warning",
        "message": {"text": f"{d.kind}: {d.message}"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.path), "uriBaseId": "%SRCROOT%"}}}],
        "descriptor": {"id": d.kind},
    } for d in report.diagnostics]
    invocation = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    if report.started_at:
        invocation["startTimeUtc"] = report.started_at.replace("+00:00", "Z")
    run = {
        "tool": {"driver": {
            "name": "trnready",
            "version": report.tool_version,
            "semanticVersion": report.tool_version,
            "informationUri": INFORMATION_URI,
            "rules": rules,
            "properties": {"catalogueVersion": report.catalogue_version,
                           "catalogueSha256": report.catalogue_sha256},
        }},
        "invocations": [invocation],
        "originalUriBaseIds": {"%SRCROOT%": {"uri": _root_uri(report.root)}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report, stream, **_options) -> None:
    json.dump(to_dict(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
