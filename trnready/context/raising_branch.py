"""raising-branch: a data-dependent operation inside a branch that ends by raising an error."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("raising-branch", kinds=("call", "method", "subscript"), effect="guard")
def raising_branch(ctx, hit) -> bool:
    """The match is a statement of an `if` (or `else`) block whose last statement is a `raise`: `if
    out_of_range.any(): first = out_of_range.nonzero()[0].item()` then `raise RuntimeError(f"... {first}")`. The
    block only finds what to say about the error the program then stops with; the data-dependent size it makes
    never reaches a compiled step, and the normal path does not run it. The check deciding to raise stays reported
    on its own (it runs every time). A block that goes on after the raise in a loop, or raises only in a nested
    branch, is not such a block. Only categories in `error-branch-categories` (dynamic shapes) are guarded."""
    if hit.rule.category not in ctx.values.get("error-branch-categories", ()):
        return False
    node = hit.node
    while node is not None and not isinstance(node, ast.stmt):
        node = parent_of(ctx, node)
    if node is None or type(node) is ast.Raise:
        return False  # the raise itself: raised-message judges its arguments
    block = parent_of(ctx, node)
    if type(block) is not ast.If:
        return False
    for arm in (block.body, block.orelse):
        if any(s is node for s in arm):
            return type(arm[-1]) is ast.Raise
    return False
