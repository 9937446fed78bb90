"""scan(paths, config) -> Report: wires discover -> read -> match -> Report.

This module never imports click: the CLI and the tests call the same API.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import replace
from pathlib import Path

from . import __version__
from .catalogue import Catalogue, load_catalogue
from .config import Config, drop_per_file_ignores, error_at, select_rules
from .discover import Discoverer, common_root
from .match import Engine
from .model import Diagnostic, Report
from .pyscan import scan_python
from .read import decode_python, read_bytes


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
            return scan_python(text, rel, engine)
        return [], None
    except Exception as e:  # one bad file must never stop the scan
        return [], Diagnostic(rel, "internal-error", f"{kind} scanner failed: {type(e).__name__}: {e}")


def build_engine(config: Config, catalogue: Catalogue | None = None) -> Engine:
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    rules = select_rules(cat.rules, config.select, config.ignore)
    if config.severity:
        rules = override_severity(rules, config, cat)
    return Engine(cat, rules, suppressions=config.suppressions)


def override_severity(rules, config: Config, cat: Catalogue):
    """Rules re-issued with the severities of the config file's `severity` table."""
    wanted = dict(config.severity)
    known = {r.id for r in cat.rules}
    for rid in wanted:
        if rid not in known:
            raise error_at(config.config_path, f"severity.{rid}", "unknown rule id")
    return [replace(r, severity=wanted[r.id]) if r.id in wanted else r for r in rules]


def _keep_file(sf, config: Config) -> bool:
    """--changed-since: only the files git reports as changed."""
    if config.only_files is None:
        return True
    try:
        return str(sf.path.resolve()) in config.only_files
    except OSError:
        return False


def scan(paths: list[str | Path], config: Config | None = None, catalogue: Catalogue | None = None) -> Report:
    config = config or Config()
    paths = [Path(p) for p in (paths or ["."])]
    engine = build_engine(config, catalogue)
    cat = engine.catalogue
    root = common_root(paths)
    report = Report(root=str(root.absolute()), catalogue_version=cat.version, catalogue_sha256=cat.sha256,
                    tool_version=__version__, rules=cat.by_id(),
                    started_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    disc = Discoverer(root, config.exclude, config.use_gitignore,
                      exclude_base=Path(config.base_dir) if config.base_dir else None)
    for sf in disc.files(paths):
        if not _keep_file(sf, config):
            continue
        findings, diag = scan_file(sf.path, sf.rel, sf.kind, engine, config)
        if config.per_file_ignores and findings:
            findings = drop_per_file_ignores(findings, root, config)
        if diag is not None:
            report.diagnostics.append(diag)
            continue
        report.files_scanned += 1
        report.files_by_kind[sf.kind] = report.files_by_kind.get(sf.kind, 0) + 1
        report.findings.extend(findings)
    report.diagnostics.extend(disc.diagnostics)
    report.findings.sort(key=lambda f: f.sort_key())
    report.diagnostics.sort(key=lambda d: (d.path, d.kind))
    return report


def scan_text(text: str, filename: str, engine: Engine):
    """Scan one in-memory snippet as if it were a file of that name (used for catalogue examples)."""
    from .discover import file_kind

    kind = file_kind(Path(filename).name) or "python"
    data = text.encode("utf-8")
    if kind == "python":
        decoded, diag = decode_python(data, filename)
        if diag is not None:
            return [], diag
        return scan_python(decoded, filename, engine)
    return [], None
