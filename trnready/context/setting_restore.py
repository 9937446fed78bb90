"""setting-restore: a setting put back to the value saved before it was changed."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate


def _saved_names(ctx, setting: str) -> set:
    """Names assigned straight from a read of the setting (`old = torch._inductor.config.x`)."""
    found = ctx.memo.setdefault("setting-restore:saved", {})
    if setting not in found:
        found[setting] = {t.id for st in ctx.nodes(ast.Assign) if dotted(st.value) == setting
                          for t in st.targets if type(t) is ast.Name}
    return found[setting]


def _in_finally(ctx, stmt) -> bool:
    child, p = stmt, parent_of(ctx, stmt)
    while p is not None:
        if type(p) in (ast.Try, getattr(ast, "TryStar", ast.Try)) and child in p.finalbody:
            return True
        if type(p) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            return False
        child, p = p, parent_of(ctx, p)
    return False


@predicate("setting-restore", kinds=("reference",))
def setting_restore(ctx, hit) -> bool:
    """An assignment in a `finally:` block that puts a setting back to the value saved from it earlier
    (`old = torch._inductor.config.x` ... `finally: torch._inductor.config.x = old`). The restore
    undoes a change made elsewhere and is reported there; on its own it changes nothing. Assigning any
    other value in `finally:` still matches."""
    node = hit.node
    stmt = parent_of(ctx, node)
    if type(stmt) is not ast.Assign or node not in stmt.targets or type(stmt.value) is not ast.Name:
        return False
    return stmt.value.id in _saved_names(ctx, dotted(node)) and _in_finally(ctx, stmt)
