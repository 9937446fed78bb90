"""Which findings become edits: scan, keep the active fixable findings, hand each file to its editor."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..api import build_engine, scan
from ..catalogue import Catalogue, load_catalogue
from ..config import Config
from ..discover import file_kind
from ..model import Finding
from .model import FixPlan
from .notebook import fix_notebook
from .python import fix_python

STYLES = ("neuron", "accelerator")
# file kind -> editor(path, rel, findings, engine, config, style) -> FileFix
EDITORS: dict[str, Callable] = {"python": fix_python, "notebook": fix_notebook}


def plan(paths, config: Config | None = None, style: str = "neuron", unsafe: bool = False,
         catalogue: Catalogue | None = None) -> FixPlan:
    """Scan, then compute every rewrite and its diff. Writes nothing."""
    if style not in STYLES:
        raise ValueError(f"unknown device style {style!r}")
    config = config or Config()
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    report = scan(paths, config, cat)
    engine = build_engine(config, cat)
    result = FixPlan(report)
    wanted: dict[str, list[Finding]] = {}
    for f in report.active:
        if not f.fixable:
            continue
        if f.confidence != "high" and not unsafe:
            result.unsafe_skipped += 1
            continue
        wanted.setdefault(f.path, []).append(f)
    root = Path(report.root)
    for rel in sorted(wanted):
        findings = wanted[rel]
        path = root / rel
        kind = "notebook" if path.suffix.lower() == ".ipynb" else file_kind(path.name) or "python"
        editor = EDITORS.get(kind)
        if editor is None or (kind != "notebook" and any(f.cell is not None for f in findings)):
            result.unsupported.append((rel, f"fix cannot edit {kind} files yet"))
            continue
        result.files.append(editor(path, rel, findings, engine, config, style))
    return result
