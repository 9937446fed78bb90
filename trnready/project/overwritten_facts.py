"""What the overwritten-parameter step (overwritten.py) reads of a file's syntax tree, noted by the per-file pass in
the file's summary so that the step parses nothing again. Kept apart from the step itself, which reads the project's
summaries: the per-file reader imports this module and nothing of the project steps."""
from __future__ import annotations

import ast
import re

from ..astwalk import walk

_KEYWORD = re.compile(r"(?<![=!<>])\b[A-Za-z_]\w*\s*=\s*$")


def keyword_facts(tree, findings, summary) -> list:
    """What this step needs of the file's syntax tree, noted by the per-file pass for each finding at a keyword
    argument: [line, column, keyword, call line, call column, bare name called, module it is imported from inside
    a function or None] (`_fact`), so that the step parses no candidate file (123 files of diffusers/src)."""
    rec = summary.get("callers") if summary else None
    if not rec or not rec["calls"]:
        return []
    out: list = []
    seen: set = set()
    for f in findings:
        if f.cell is not None or (f.line, f.column) in seen:
            continue
        if _KEYWORD.search((f.snippet or "")[:max(f.column - 1, 0)]):
            seen.add((f.line, f.column))
            out.append([f.line, f.column, *_fact(tree, f.line, f.column, rec)])
    return out


def _fact(tree, line: int, column: int, rec: dict) -> list:
    """[keyword, call line, call column, bare name called or None, module or None] of the keyword argument whose
    value starts at line:column (keyword None: there is none). The module: the call's bare name is imported inside
    a function from that absolute module, asked only of a call the callers record does not hold (`_local_source`)."""
    got = _keyword_at(tree, line, column)
    if got is None:
        return [None, 0, 0, None, None]
    kw, call = got
    name = call.func.id if type(call.func) is ast.Name else None
    local = None
    if name is not None and next((c[4] for c in rec["calls"] if (c[0], c[1]) == (call.lineno, call.col_offset)),
                                 None) is None:
        local = _local_source(tree, name)
    return [kw.arg, call.lineno, call.col_offset, name, local]


def overwritten_table(tree) -> list:
    """[{function: [parameters]}, {class: [parameters of its __init__]}]: what `summary.overwritten` finds in each
    module-level function and in the `__init__` of each module-level class, for the ones this step can resolve (one
    definition of the name; the first class of the name, with one `__init__`) and where it finds something. Noted
    in the file's summary (`over`), so that the step parses no callee module. Empty when there is nothing."""
    from .summary import overwritten

    funcs: dict = {}
    classes: dict = {}
    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    count: dict = {}
    for n in tree.body:
        if type(n) in defs:
            count[n.name] = count.get(n.name, 0) + 1
    for n in tree.body:
        t = type(n)
        if t in defs and count[n.name] == 1:
            gone = overwritten(n)
            if gone:
                funcs[n.name] = sorted(gone)
        elif t is ast.ClassDef and n.name not in classes:
            inits = [s for s in n.body if type(s) in defs and s.name == "__init__"]
            gone = overwritten(inits[0]) if len(inits) == 1 else set()
            classes[n.name] = sorted(gone)  # the first class of the name decides, even with nothing
    classes = {k: v for k, v in classes.items() if v}
    return [funcs, classes] if funcs or classes else []


def _local_source(tree, name: str):
    """The absolute module a bare name is imported from anywhere in the file, when the file binds that name by one
    such import and nothing else at any depth; else None."""
    froms = []
    for n in walk(tree):
        if type(n) is ast.ImportFrom and n.level == 0 and n.module:
            froms += [n.module for a in n.names if (a.asname or a.name) == name and a.name == name]
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name:
            return None
        elif type(n) is ast.Name and n.id == name and type(n.ctx) is not ast.Load:
            return None
    return froms[0] if len(froms) == 1 else None


def _keyword_at(tree, line: int, column: int):
    """(keyword, call) whose value starts at line:column (1-based column), or None. Only nodes whose lines span
    `line` are entered: a walk of every node of every candidate file was most of this step's time."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            if first is not None and (first > line or (getattr(child, "end_lineno", None) or first) < line):
                continue
            if type(child) is ast.Call:
                for k in child.keywords:
                    if k.arg and k.value.lineno == line and k.value.col_offset + 1 == column:
                        return k, child
            todo.append(child)
    return None
