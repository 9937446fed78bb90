"""After the readers: one post-processing pipeline, the same for every file kind.

File steps run right after a file's reader, in the process that read it, and see only that file
(its findings, its text and the comment-bearing stretches the reader reported); their output is what
the result cache stores. Report steps run in the main process once every file is in, because they
depend on the configuration (per-file ignores) or on other files (repository-level rules).

    file:   suppressions (+ TRN901/TRN902) -> de-duplication -> notebook file lines -> sort
    report: per-file ignores (per file) -> repository scope -> sort

A step is a plain function; adding one (more de-duplication, scope) means adding it to the tuple.
"""
from __future__ import annotations

from dataclasses import replace

from . import suppress
from .config import drop_per_file_ignores

# Part of the result cache's key: raise it when a file step changes what a file's findings look like
# (2: suppressions honoured in every file kind with comments).
VERSION = 2


# ---------------------------------------------------------------- file steps

def suppressions(findings: list, ctx, result) -> list:
    """`trnready: ignore[...]` in each stretch of text the reader reported, with its kind's comment syntax."""
    if not result.sources or not getattr(ctx.engine, "suppressions", True):
        return findings
    for src in result.sources:
        if not src.comments or "trnready" not in src.text:
            continue
        mine = [f for f in findings if f.cell == src.cell and f.path == ctx.rel]
        others = [f for f in findings if not (f.cell == src.cell and f.path == ctx.rel)]
        findings = others + suppress.apply(mine, src.text, src.tree, ctx.rel, ctx.engine, cell=src.cell,
                                           comments=src.comments)
    return findings


def dedupe(findings: list, ctx, result) -> list:
    """Identical findings (same rule, place and message) from two readers of one file count once."""
    seen: set = set()
    out = []
    for f in findings:
        key = (f.rule, f.path, f.cell, f.line, f.column, f.end_line, f.end_column, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def notebook_file_lines(findings: list, ctx, result) -> list:
    """Notebook findings also get their line in the .ipynb text (SARIF / GitHub annotate the file)."""
    if ctx.kind != "notebook" or not findings:
        return findings
    from .nblines import file_line, source_lines

    mapping = source_lines(ctx.text)
    return [replace(f, file_line=file_line(mapping, f.cell, f.line)) if f.cell is not None else f
            for f in findings]


def sort(findings: list, *_) -> list:
    return sorted(findings, key=lambda f: f.sort_key())


FILE_STEPS = (suppressions, dedupe, notebook_file_lines, sort)


def file_findings(ctx, result) -> list:
    findings = result.findings
    for step in FILE_STEPS:
        findings = step(findings, ctx, result)
    return findings


# ---------------------------------------------------------------- report steps

def per_file_ignores(findings: list, root, config) -> list:
    """`per-file-ignores` of the configuration, applied to one file's findings."""
    if config.per_file_ignores and findings:
        return drop_per_file_ignores(findings, root, config)
    return findings


def report_findings(findings: list, engine, mentioned) -> list:
    """Repository-level rules (one finding per repository unless mentioned anywhere), then report order."""
    from .repo_rules import collapse

    return sort(collapse(findings, engine, mentioned))
