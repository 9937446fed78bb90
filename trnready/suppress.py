"""Inline suppressions: `# trnready: ignore[TRN191] reason` and `# trnready: ignore-file[...] reason`.

Applied by trnready/postprocess.py to the findings of one stretch of text (a file, a notebook
cell), whatever its kind, with that kind's comment syntax (filekinds.py): Python comments are
found with `tokenize`; `#`, `//` and `/* */` comments of other kinds line by line.

- `ignore[...]` on the finding's line, or on the first line of the statement
  containing it (for a call spread over several lines);
- `ignore-file[...]` in the leading comment block of the file (before any code);
- selectors are those of --select: ids (TRN191), id prefixes (TRN19),
  categories (upsampling) or ALL; several are separated by commas.

Suppressed findings stay in the report with `suppressed = True`. Two meta rules
keep suppressions accountable: one without a reason (TRN901) and one that
suppresses nothing (TRN902, like ruff's RUF100). In Python a `#` inside a string is
never a suppression; in line-oriented kinds a `#` or `//` counts when it starts the line
or follows whitespace.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field, replace

from .config import selector_matches_id
from .model import Finding, Occurrences, make_finding
from .astwalk import walk

MISSING_REASON = "suppression-without-reason"
UNUSED = "unused-suppression"

_DIRECTIVE = re.compile(r"#\s*trnready\s*:\s*(ignore-file|ignore)\s*\[([^\]]*)\]([^#]*)", re.I)
_REASON_LEAD = re.compile(r"^[\s:\-–—]+")


@dataclass
class Directive:
    kind: str  # ignore | ignore-file
    selectors: list[str]
    reason: str
    line: int
    column: int  # 1-based, of the `#`
    end_column: int
    text: str  # the directive as written
    leading: bool  # in the file's leading comment block
    used: set = field(default_factory=set)


_BODY = r"trnready\s*:\s*(ignore-file|ignore)\s*\[([^\]]*)\]"
# Line-oriented comment syntaxes: a marker at the start of the line or after whitespace.
_LINE_DIRECTIVES = {
    "#": re.compile(r"(?:^|(?<=\s))#\s*" + _BODY + r"([^#]*)", re.I),
    "//": re.compile(r"(?:^|(?<=\s))//\s*" + _BODY + r"(.*)", re.I),
    "/*": re.compile(r"/\*\s*" + _BODY + r"((?:(?!\*/).)*)(?:\*/)?", re.I),
}
_COMMENT_LEADS = {"#": ("#",), "//": ("//",), "/*": ("/*", "*")}


def parse_directives(text: str, comments: tuple[str, ...] = ("python",)) -> list[Directive]:
    """Every `trnready: ignore...` comment in text written with those comment markers. Never raises."""
    if "python" in comments:
        return _python_directives(text)
    patterns = [_LINE_DIRECTIVES[c] for c in comments if c in _LINE_DIRECTIVES]
    leads = tuple(x for c in comments for x in _COMMENT_LEADS.get(c, ()))
    out: list[Directive] = []
    leading = True
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if "trnready" in line:
            found = sorted((m for p in patterns for m in p.finditer(line)), key=lambda m: m.start())
            for m in found:
                out.append(_directive(m, n, m.start(), m.end(), leading and stripped.startswith(leads)))
        if stripped and not stripped.startswith(leads):
            leading = False
    return out


def _directive(m, line: int, start: int, end: int, leading: bool) -> Directive:
    sels = [s.strip() for s in m.group(2).split(",") if s.strip()]
    reason = _REASON_LEAD.sub("", m.group(3)).strip()
    return Directive(kind=m.group(1).lower(), selectors=sels, reason=reason, line=line, column=start + 1,
                     end_column=end + 1, text=m.group(0).strip(), leading=leading)


def _python_directives(text: str) -> list[Directive]:
    out: list[Directive] = []
    leading = True
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            for m in _DIRECTIVE.finditer(tok.string):
                out.append(_directive(m, tok.start[0], tok.start[1] + m.start(), tok.start[1] + m.end(), leading))
        elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING):
            leading = False
    return out


def statement_starts(tree: ast.AST) -> dict[int, int]:
    """line -> first line of the innermost statement spanning it."""
    starts: dict[int, int] = {}
    for node in walk(tree):  # breadth first: inner statements overwrite outer ones
        if isinstance(node, ast.stmt):
            end = getattr(node, "end_lineno", None) or node.lineno
            for ln in range(node.lineno, end + 1):
                starts[ln] = node.lineno
    return starts


def _meta_rules(engine) -> dict:
    out = {}
    for rule in getattr(engine, "rules", ()):
        for m in rule.matchers:
            if m.kind == "meta":
                for name in m.names:
                    out[name] = rule
    return out


def _known(sel: str, rules) -> bool:
    return any(selector_matches_id(sel, r.id, r.category) for r in rules)


def apply(findings: list[Finding], text: str, tree: ast.AST | None, rel: str, engine,
          cell: int | None = None, comments: tuple[str, ...] = ("python",)) -> list[Finding]:
    """Mark suppressed findings and add the meta findings. Pure: returns a new list."""
    if not getattr(engine, "suppressions", True) or "trnready" not in text:
        return findings
    directives = parse_directives(text, comments)
    if not directives:
        return findings
    starts = statement_starts(tree) if tree is not None else {}
    by_line: dict[int, list[Directive]] = {}
    file_level = [d for d in directives if d.kind == "ignore-file" and d.leading]
    for d in directives:
        if d.kind == "ignore":
            by_line.setdefault(d.line, []).append(d)
    out: list[Finding] = []
    for f in findings:
        candidates: list = []
        lines = [f.line]
        first = starts.get(f.line)
        if first is not None and first != f.line:
            lines.append(first)
        # A finding its reader already gave places (a CUDA file's one finding at line 1, its kernels as places) is
        # suppressed from any of them too: the comment sits where the code is, on the kernel it keeps.
        lines.extend(o[0] for o in f.occurrences if o[0] not in lines)
        for ln in lines:
            candidates.extend(by_line.get(ln, ()))
        candidates.extend(file_level)
        reasons = []
        for d in candidates:
            for sel in d.selectors:
                if selector_matches_id(sel, f.rule, f.category):
                    d.used.add(sel)
                    reasons.append(d.reason)
        if reasons:
            f = replace(f, suppressed=True, suppression_reason=next((r for r in reasons if r), None))
        out.append(f)
    out.extend(_meta_findings(directives, text, rel, engine, cell))
    return out


def _meta_findings(directives: list[Directive], text: str, rel: str, engine, cell) -> list[Finding]:
    meta = _meta_rules(engine)
    if not meta:
        return []
    lines = text.splitlines()
    selected = list(getattr(engine, "rules", ()))
    everything = list(engine.catalogue.rules)
    out: list[Finding] = []
    occurrences = Occurrences()

    def emit(rule, d: Directive, message: str):
        out.append(make_finding(
            rule, occurrences, confidence="high", path=rel, line=d.line, column=d.column, end_line=d.line,
            end_column=d.end_column, snippet=lines[d.line - 1] if 0 < d.line <= len(lines) else "",
            message=message, code=d.text, cell=cell))

    for d in directives:
        if MISSING_REASON in meta and not d.reason:
            emit(meta[MISSING_REASON], d, f"{meta[MISSING_REASON].title}: `{d.text}`")
        if UNUSED in meta:
            problems = []
            if d.kind == "ignore-file" and not d.leading:
                problems.append("ignore-file only works in the leading comment block of a file")
            elif not d.selectors:
                problems.append("no rule selector between the brackets")
            else:
                for sel in d.selectors:
                    if sel in d.used:
                        continue
                    if not _known(sel, everything):
                        problems.append(f"{sel} (unknown rule selector)")
                    elif _known(sel, selected):
                        problems.append(sel)
                    # a selector for rules not selected in this run cannot be judged
            if problems:
                emit(meta[UNUSED], d, f"{meta[UNUSED].title}: " + ", ".join(problems))
    return out
