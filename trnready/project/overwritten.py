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
    for rel, fs in cands.items():
        rec = _unpack(rel, py[rel][1]).get("callers")
        if not rec or not rec["calls"]:
            continue
        tree = tree_of(rel)
        if tree is None:
            continue
        for f in fs:
            got = _keyword_at(tree, f.line, f.column)
            if got is None:
                continue
            kw, call = got
            callee = next((c[4] for c in rec["calls"] if (c[0], c[1]) == (call.lineno, call.col_offset)), None)
            if callee is not None and "@" in callee:
                continue
            if linker is None:
                from .link import Linker
                from .summary import Compacted

                linker = Linker(Compacted({r: _packed(s) for r, (_sf, s) in py.items()}, _EMPTY), None)
            if callee is None:
                # `from fastvideo.distributed import init_distributed_environment` inside the calling function: the
                # summary records module-level imports only
                fn = _locally_imported(linker, tree, call, tree_of)
            else:
                fn = _definition(linker, rel, callee, tree_of)
            if fn is not None:
                from .summary import overwritten

                if kw.arg in overwritten(fn):
                    guarded.add(id(f))
    if not guarded:
        return findings
    return [replace(f, guarded=True, guarded_by=GUARD) if id(f) in guarded else f for f in findings]


def _locally_imported(linker, tree, call, tree_of):
    """The def node of a bare name the file imports absolutely from a project module inside a function (only when
    the file binds that name by one such import and nothing else at any depth)."""
    if type(call.func) is not ast.Name:
        return None
    name = call.func.id
    froms = []
    for n in walk(tree):
        if type(n) is ast.ImportFrom and n.level == 0 and n.module:
            froms += [n.module for a in n.names if (a.asname or a.name) == name and a.name == name]
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name:
            return None
        elif type(n) is ast.Name and n.id == name and type(n.ctx) is not ast.Load:
            return None
    if len(froms) != 1 or froms[0] not in linker.mods:
        return None
    return _resolved_definition(linker.lookup(linker.mods[froms[0]], name, 1, frozenset()), tree_of)


def _definition(linker, rel: str, callee: str, tree_of):
    """The def node the callee resolves to: a project function, or a project class's `__init__`."""
    return _resolved_definition(linker.expr(rel, callee, 0), tree_of)


def _resolved_definition(r, tree_of):
    from .link import Class, Func

    if isinstance(r, Func):
        owner, name = None, r.name
    elif isinstance(r, Class):
        owner, name = r.name, "__init__"
    else:
        return None
    tree = tree_of(r.module)
    if tree is None:
        return None
    body = tree.body
    if owner is not None:
        cls = next((n for n in body if type(n) is ast.ClassDef and n.name == owner), None)
        if cls is None:
            return None
        body = cls.body
    found = [n for n in body if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef) and n.name == name]
    return found[0] if len(found) == 1 else None


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
