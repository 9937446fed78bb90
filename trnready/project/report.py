"""The link step's report side: linked hits -> findings at the call where the value enters."""
from __future__ import annotations

from ..model import Occurrences, make_finding
from ..read import read_bytes


def link_findings(files, summaries, engine, cache, config, scan_bytes) -> list:
    from ..cache import LinkMemo
    from .link import Linker, use_text
    from .summary import VERSION

    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    table = {sf.rel: (s if s is not None else _EMPTY) for sf, s in zip(files, summaries) if sf.rel in py}
    if not any(s["uses"] for s in table.values()):
        return []
    def scan(text: str) -> list:
        findings, _ = scan_bytes(text.encode("utf-8", "surrogatepass"), "link_snippet.py", "python", engine,
                                 prefilter=True)
        return findings

    linker = Linker(table, scan, LinkMemo(cache))
    rules = {r.id: r for r in engine.rules}
    out = []
    lines_of: dict = {}
    occurrences = Occurrences()
    seen = set()
    for rel, use, rule_id, message, confidence, guarded, chain in linker.link():
        rule = rules.get(rule_id)
        line, col, end_line, end_col, src = use
        if rule is None or (rule_id, rel, line, col) in seen:
            continue
        seen.add((rule_id, rel, line, col))
        if rel not in lines_of:
            data, diag = read_bytes(py[rel].path, rel, config.max_file_size)
            lines_of[rel] = data.decode("utf-8", "replace").splitlines() if diag is None else []
        lines = lines_of[rel]
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        end_text = lines[end_line - 1] if 0 < end_line <= len(lines) else ""
        steps = " → ".join(f"{r}:{n} {t}" if n else f"{r} {t}" for r, n, t in chain)
        via = f"{rel}:{line} {use_text(src, linker, rel)}" + (f" → {steps}" if steps else "")
        out.append(make_finding(
            rule, occurrences, confidence=confidence, path=rel, line=line, column=_column(text, col) ,
            end_line=end_line, end_column=_column(end_text, end_col), snippet=text,
            message=f"{message} (via {via})", code=src, context=_context(lines, line), guarded=guarded))
    return out


_EMPTY = {"v": 1, "imports": {}, "consts": {}, "classes": {}, "aliases": {}, "funcs": {}, "uses": []}


def _column(line: str, byte_offset: int) -> int:
    from ..readers.python import _column as col

    return col(line, byte_offset)


def _context(lines, lineno):
    from ..readers.python import context_lines

    return context_lines(lines, lineno)
