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
from dataclasses import replace

from .overwritten_facts import _KEYWORD, _fact

GUARD = "overwritten-parameter"
_KEEP_TREES = 8
# the text before a keyword argument's value: `name=` (not `==`, `<=`, `>=`, `!=`)


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
