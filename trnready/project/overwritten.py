"""Keywords handed to a project function that assigns that parameter before reading it (`overwritten-parameter`).

`init_distributed_environment(world_size=1, backend="nccl")` matches the `backend="nccl"` keyword rule at the call.
When the callee resolves to a project function (or class, through its `__init__`) whose body assigns `backend` in a
statement of its own before any statement reads it (summary.overwritten: FastVideo's `backend = "nccl"` followed by
a platform `if`/`elif`/`else`), the value passed is never used: the finding is marked guarded. The assignment in the
callee is matched where it is written, as any other. A callee that does not resolve, a parameter assigned only in a
branch, or read before it is assigned, keeps the finding.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from ..astwalk import walk

GUARD = "overwritten-parameter"
_KEEP_TREES = 8
# the text before a keyword argument's value: `name=` (not `==`, `<=`, `>=`, `!=`)
_KEYWORD = re.compile(r"(?<![=!<>])\b[A-Za-z_]\w*\s*=\s*$")


def guard_overwritten_keywords(findings: list, files: list, summaries: list, read_text) -> list:
    """findings at a keyword argument whose callee, a project function, assigns that parameter before reading it,
    marked guarded. `read_text(source file)` reads a Python file (only those holding a candidate and its callee)."""
    from .report import _EMPTY, _packed, _unpack

    py = {sf.rel: (sf, s) for sf, s in zip(files, summaries) if sf.kind == "python" and s is not None}
    cands: dict = {}
    for f in findings:
        if f.guarded or f.suppressed or f.cell is not None or f.path not in py:
            continue
        if _KEYWORD.search((f.snippet or "")[:max(f.column - 1, 0)]):  # `name=` just before: a keyword argument
            cands.setdefault(f.path, []).append(f)
    if not cands:
        return findings
    trees: dict = {}  # the last few files parsed: keeping every candidate's tree took 116 MiB on diffusers/src

    def tree_of(rel):
        if rel in trees:
            trees[rel] = trees.pop(rel)
        else:
            while len(trees) >= _KEEP_TREES:
                del trees[next(iter(trees))]
            text = read_text(py[rel][0]) if rel in py else None
            try:
                trees[rel] = ast.parse(text) if text else None
            except (SyntaxError, ValueError, RecursionError):
                trees[rel] = None
        return trees[rel]

    linker = None
    guarded: set = set()
    tables: dict = {}  # rel -> the `over` table of its summary
    for rel, fs in cands.items():
        summary = _unpack(rel, py[rel][1])
        rec = summary.get("callers")
        if not rec or not rec["calls"]:
            continue
        # the keyword facts the per-file pass noted for its findings (`keyword_facts`); a finding added later (a
        # linked call) is looked for in the parsed file
        facts = {(row[0], row[1]): row[2:] for row in summary.get("kw", ())}
        tree = None
        for f in fs:
            fact = facts.get((f.line, f.column))
            if fact is None:
                if tree is None:
                    tree = tree_of(rel)
                    if tree is None:
                        break
                fact = _fact(tree, f.line, f.column, rec)
            arg, line, col, name, local = fact
            if arg is None:
                continue
            callee = next((c[4] for c in rec["calls"] if (c[0], c[1]) == (line, col)), None)
            if callee is not None and "@" in callee:
                continue
            if linker is None:
                from .link import Linker
                from .summary import Compacted

                linker = Linker(Compacted({r: _packed(s) for r, (_sf, s) in py.items()}, _EMPTY), None)
            if callee is None:
                # `from fastvideo.distributed import init_distributed_environment` inside the calling function: the
                # summary records module-level imports only
                if local is None or local not in linker.mods:
                    continue
                gone = _gone(linker.lookup(linker.mods[local], name, 1, frozenset()), py, tables)
            else:
                gone = _gone(linker.expr(rel, callee, 0), py, tables)
            if gone is not None and arg in gone:
                guarded.add(id(f))
    if not guarded:
        return findings
    return [replace(f, guarded=True, guarded_by=GUARD) if id(f) in guarded else f for f in findings]


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


def _gone(r, py: dict, tables: dict):
    """The parameters the function `r` resolves to (a project function, or a project class's `__init__`) assigns
    before reading them, from its module's summary (`over`); None when it resolves to no single definition."""
    from .link import Class, Func

    if isinstance(r, Func):
        kind = 0
    elif isinstance(r, Class):
        kind = 1
    else:
        return None
    if r.module not in py:
        return None
    table = tables.get(r.module)
    if table is None:
        from .report import _unpack

        table = tables[r.module] = _unpack(r.module, py[r.module][1]).get("over") or [{}, {}]
    return set(table[kind].get(r.name, ()))


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
