"""GitHub Actions workflow commands: one annotation per active finding.

    ::error file=src/train.py,line=34,col=17,endLine=34,endColumn=68,title=TRN191 Bilinear or bicubic interpolation::…

blocker -> error, change -> warning, advisory -> notice. Values are escaped as
GitHub's runner expects: `%`, CR and LF everywhere, and also `:` and `,` in
properties. Paths are relative to the current directory (the workspace in
Actions) when the finding lies under it.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..model import Report

COMMANDS = {"blocker": "error", "change": "warning", "advisory": "notice"}


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _path(root: str, rel: str) -> str:
    # GitHub decodes %0A back to a newline; a path cannot be annotated anyway, so show it escaped.
    if any(c in rel for c in "\n\r\t"):
        rel = rel.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    full = Path(root) / rel
    try:
        r = os.path.relpath(full, os.getcwd())
    except ValueError:
        return full.as_posix()
    return full.as_posix() if r.startswith("..") else Path(r).as_posix()


def render(report: Report, stream, **_options) -> None:
    for f in report.active:
        if f.cell is not None:  # annotate the line of the .ipynb text; name the cell in the title
            props = [("file", _path(report.root, f.path)), ("line", str(f.file_line or 1)),
                     ("title", f"{f.rule} {f.title or f.message} (cell {f.cell + 1}, line {f.line})")]
        else:
            props = [("file", _path(report.root, f.path)), ("line", str(f.line)), ("col", str(f.column)),
                     ("endLine", str(f.end_line)), ("endColumn", str(f.end_column)),
                     ("title", f"{f.rule} {f.title or f.message}")]
        prop_text = ",".join(f"{k}={escape_property(v)}" for k, v in props)
        body = f.message + (f"\n\nFix: {f.fix}" if f.fix else "") + (f"\nDocs: {f.docs}" if f.docs else "")
        stream.write(f"::{COMMANDS[f.severity]} {prop_text}::{escape_data(body)}\n")
    for d in report.diagnostics:
        stream.write(f"::warning file={escape_property(_path(report.root, d.path))},"
                     f"title={escape_property('trnready: ' + d.kind)}::{escape_data(d.message)}\n")
