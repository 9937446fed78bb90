"""Python source text -> findings: parse once, index once, match once."""
from __future__ import annotations

import ast
import sys
import warnings

from . import suppress
from .index import Indexer
from .limits import clip
from .match import Engine, Hit
from .model import Diagnostic, Finding, fingerprint
from .rewrite import FixableCheck


def parse(text: str, rel: str) -> tuple[ast.Module | None, Diagnostic | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our business
            return ast.parse(text, filename=rel), None
    except SyntaxError as e:
        where = f"line {e.lineno}" if e.lineno else "unknown line"
        hint = ""
        if "print" in (e.text or "") or "Missing parentheses" in (e.msg or ""):
            hint = " (looks like Python 2; TorchNeuron needs Python 3.12-3.14)"
        else:
            hint = (f" (if the file uses syntax newer than Python {sys.version_info.major}."
                    f"{sys.version_info.minor}, run trnready under a newer Python)")
        return None, Diagnostic(rel, "syntax-error", f"{where}: {e.msg}{hint}")
    except (RecursionError, MemoryError):
        return None, Diagnostic(rel, "too-complex", "nesting too deep for the Python parser")
    except ValueError as e:  # e.g. source contains NUL bytes
        return None, Diagnostic(rel, "syntax-error", str(e))


def _column(line: str, byte_offset: int) -> int:
    """ast columns count UTF-8 bytes; reports count characters (1-based)."""
    if line.isascii():
        return byte_offset + 1
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1


def hits_for_tree(tree: ast.Module, engine: Engine) -> list[Hit]:
    index = Indexer(engine.interest).run(tree)
    return engine.match(index)


def findings_from_hits(hits: list[Hit], lines: list[str], rel: str, cell: int | None = None,
                       line_offset: int = 0, tree: ast.AST | None = None) -> list[Finding]:
    out: list[Finding] = []
    fixable = FixableCheck(tree)
    seen: set = set()
    counts: dict = {}
    hits = sorted(hits, key=lambda h: (h.node.lineno, h.node.col_offset, h.rule.id))
    for h in hits:
        node = h.node
        key = (h.rule.id, node.lineno, node.col_offset)
        if key in seen:
            continue
        seen.add(key)
        lineno = node.lineno
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        end_lineno = getattr(node, "end_lineno", None) or lineno
        end_text = lines[end_lineno - 1] if 0 < end_lineno <= len(lines) else ""
        col = _column(text, node.col_offset)
        end_col = _column(end_text, getattr(node, "end_col_offset", node.col_offset) or 0)
        code = ast_segment(lines, node) or text
        if len(code) > LONG_CODE:
            # A generated or hostile line: fingerprint a window around the match, not the whole line
            # (hashing 100 kB per finding made many findings on one line quadratic).
            code = clip(code, col - 1, end_col - 1 if end_lineno == lineno else None)
        base = (rel, h.rule.id, " ".join(code.split()))
        n = counts.get(base, 0)
        counts[base] = n + 1
        message = h.matcher.message.format(name=h.name) if h.matcher.message else f"{h.rule.title}: `{h.name}`"
        message += h.note
        out.append(Finding(
            rule=h.rule.id, category=h.rule.category, severity=h.rule.severity,
            confidence=h.confidence or h.matcher.confidence,
            path=rel, line=lineno + line_offset, column=col, end_line=end_lineno + line_offset, end_column=end_col,
            snippet=text.rstrip("\r\n"), message=message, fix=h.rule.fix, docs=h.rule.docs, source=h.rule.source,
            fingerprint=fingerprint(rel if cell is None else f"{rel}#cell", h.rule.id, code, n),
            title=h.rule.title, cell=cell, context=context_lines(lines, lineno, line_offset),
            fixable=fixable(h.rule, node, h.qualname)))
    return out


# Fingerprinted code longer than this is cut to a window around the match (fingerprints of
# ordinary code, and so baselines, are unchanged).
LONG_CODE = 2000
CONTEXT_LINES = 2  # lines shown above and below a finding in the HTML report


def context_lines(lines: list[str], lineno: int, line_offset: int = 0) -> tuple[tuple[int, str], ...]:
    """((line_no, text), ...) for lineno-2..lineno+2, clipped to the file."""
    first = max(1, lineno - CONTEXT_LINES)
    last = min(len(lines), lineno + CONTEXT_LINES)
    return tuple((n + line_offset, lines[n - 1].rstrip("\r\n")) for n in range(first, last + 1))


def ast_segment(lines: list[str], node) -> str:
    """The node's source, cut to at most a few lines (fingerprints need no more)."""
    start, end = node.lineno, getattr(node, "end_lineno", None) or node.lineno
    if end - start > 5:
        end = start + 5
    chunk = lines[start - 1:end]
    return "\n".join(chunk)


def scan_python(text: str, rel: str, engine: Engine, cell: int | None = None):
    tree, diag = parse(text, rel)
    if diag is not None:
        return [], diag
    try:
        hits = hits_for_tree(tree, engine)
    except RecursionError:
        return [], Diagnostic(rel, "too-complex", "nesting too deep to analyse")
    findings = findings_from_hits(hits, text.splitlines(), rel, cell=cell, tree=tree)
    return suppress.apply(findings, text, tree, rel, engine, cell=cell), None
