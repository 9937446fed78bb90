"""JUnit XML for CI systems that show test reports (GitLab, Jenkins, Azure, CircleCI).

One <testsuite name="trnready">; one <testcase> per finding (classname = path,
name = "RULE path:line:col") with a <failure type="severity"> for an active
finding and <skipped> for a suppressed one; one <testcase> with an <error> per
file that could not be scanned. A clean scan has a single passing testcase, so
the suite is never empty.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..model import Report

# Characters XML 1.0 cannot hold at all (scanned code may contain them).
_INVALID_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(s: str) -> str:
    return _INVALID_XML.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                            else "\\u%04x" % ord(m.group()), s)


def to_element(report: Report) -> ET.Element:
    findings = report.findings
    failures = sum(1 for f in findings if not f.suppressed and not f.guarded)
    skipped = len(findings) - failures
    errors = len(report.diagnostics)
    tests = len(findings) + errors or 1
    suites = ET.Element("testsuites", name="trnready", tests=str(tests), failures=str(failures),
                        errors=str(errors), skipped=str(skipped))
    suite = ET.SubElement(suites, "testsuite", name="trnready", tests=str(tests), failures=str(failures),
                          errors=str(errors), skipped=str(skipped), timestamp=report.started_at.split("+")[0],
                          hostname="localhost")
    props = ET.SubElement(suite, "properties")
    for k, v in (("trnready.version", report.tool_version), ("catalogue.version", report.catalogue_version),
                 ("root", report.root), ("verdict", report.verdict())):
        ET.SubElement(props, "property", name=k, value=_x(v))
    for f in findings:
        loc = f"{f.path}:{f.line}:{f.column}" if f.cell is None else f"{f.path}:cell {f.cell + 1}:{f.line}:{f.column}"
        case = ET.SubElement(suite, "testcase", classname=_x(f.path), name=_x(f"{f.rule} {loc}"),
                             file=_x(f.path), line=str(f.line))
        if f.suppressed:
            ET.SubElement(case, "skipped", message="suppressed in source")
            continue
        if f.guarded:
            ET.SubElement(case, "skipped", message="guarded: the code never runs on a Neuron machine")
            continue
        fail = ET.SubElement(case, "failure", type=f.severity, message=_x(f"{f.rule} {f.message}"))
        fail.text = _x(f"{loc} {f.rule} [{f.severity}, {f.category}] {f.message}\n"
                       f"    | {f.snippet.strip()}\nFix: {f.fix}\nDocs: {f.docs}\n")
    for d in report.diagnostics:
        case = ET.SubElement(suite, "testcase", classname=_x(d.path), name=_x(f"scan {d.path}"), file=_x(d.path))
        err = ET.SubElement(case, "error", type=d.kind, message=_x(d.message))
        err.text = _x(f"{d.path}: {d.kind}: {d.message}")
    if not findings and not report.diagnostics:
        ET.SubElement(suite, "testcase", classname="trnready", name=f"scan: {report.verdict()}")
    return suites


def render(report: Report, stream, **_options) -> None:
    root = to_element(report)
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode"))
    stream.write("\n")
