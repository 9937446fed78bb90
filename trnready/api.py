"""scan(paths, config) -> Report: wires discover -> read -> match -> Report.

This module never imports click: the CLI and the tests call the same API.
"""
from __future__ import annotations

import datetime as _dt
from pathlib import Path

from . import __version__
from .catalogue import Catalogue, load_catalogue
from .config import Config, select_rules
from .discover import Discoverer, common_root
from .match import Engine
from .model import Diagnostic, Report
from .pyscan import scan_python
from .read import decode_python, read_bytes
from .repo_rules import collapse, mentioned_in_files, repo_files
from .surface import decode_text, scan_surface


def scan_file(path: Path, rel: str, kind: str, engine: Engine, config: Config):
    """One file -> (findings, diagnostic or None). Never raises for bad input."""
    data, diag = read_bytes(path, rel, config.max_file_size)
    if diag is not None:
        return [], diag
    try:
        if kind == "python":
            text, diag = decode_python(data, rel)
            if diag is not None:
                return [], diag
            return _scan_python_file(text, rel, engine, path)
        text, diag = decode_text(data, rel)
        if diag is not None:
            return [], diag
        return scan_surface(text, rel, kind, engine, path)
    except Exception as e:  # one bad file must never stop the scan
        return [], Diagnostic(rel, "internal-error", f"{kind} scanner failed: {type(e).__name__}: {e}")


def _scan_python_file(text: str, rel: str, engine: Engine, path: Path | None = None):
    findings, diag = scan_python(text, rel, engine)
    if diag is None and rel.rsplit("/", 1)[-1] == "setup.py":  # install_requires & co, read from the AST
        extra, _ = scan_surface(text, rel, "setup-py", engine, path)
        findings = sorted(findings + extra, key=lambda f: f.sort_key())
    return findings, diag


def build_engine(config: Config, catalogue: Catalogue | None = None) -> Engine:
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    rules = select_rules(cat.rules, config.select, config.ignore)
    return Engine(cat, rules)


def scan(paths: list[str | Path], config: Config | None = None, catalogue: Catalogue | None = None) -> Report:
    config = config or Config()
    paths = [Path(p) for p in (paths or ["."])]
    engine = build_engine(config, catalogue)
    cat = engine.catalogue
    root = common_root(paths)
    report = Report(root=str(root.absolute()), catalogue_version=cat.version, catalogue_sha256=cat.sha256,
                    tool_version=__version__, rules=cat.by_id(),
                    started_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    disc = Discoverer(root, config.exclude, config.use_gitignore)
    scanned = []
    for sf in disc.files(paths):
        findings, diag = scan_file(sf.path, sf.rel, sf.kind, engine, config)
        if diag is not None:
            report.diagnostics.append(diag)
            continue
        scanned.append(sf)
        report.files_scanned += 1
        report.files_by_kind[sf.kind] = report.files_by_kind.get(sf.kind, 0) + 1
        report.findings.extend(findings)
    report.diagnostics.extend(disc.diagnostics)
    mentioned = mentioned_in_files(scanned, config.max_file_size, repo_files(root, paths, config))
    report.findings = collapse(report.findings, engine, mentioned)
    report.findings.sort(key=lambda f: f.sort_key())
    report.diagnostics.sort(key=lambda d: (d.path, d.kind))
    return report


def scan_text(text: str, filename: str, engine: Engine):
    """Scan one in-memory snippet as if it were a file of that name (used for catalogue examples)."""
    from .discover import file_kind

    kind = file_kind(Path(filename).name)
    if kind is None:
        if "." in Path(filename).name:
            return [], None  # a file kind trnready does not read (kernels/add.cpp, notes.txt)
        kind = "python"
    data = text.encode("utf-8")
    if kind == "python":
        decoded, diag = decode_python(data, filename)
        if diag is not None:
            return [], diag
        findings, diag = _scan_python_file(decoded, filename, engine)
    else:
        findings, diag = scan_surface(text, filename, kind, engine)
    return collapse(findings, engine, lambda strings: any(x in text for x in strings)), diag
