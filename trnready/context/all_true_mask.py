"""all-true-mask: an attention mask built as all True, which masks nothing."""
from __future__ import annotations

import ast

from ..masks import tail_of
from .base import argument_of, call_scope, not_none_arguments, predicate

_ONES = frozenset({"ones", "ones_like", "new_ones"})
_FULL = frozenset({"full", "full_like", "new_full"})
_MAX_DEPTH = 3


def _names_bool(expr) -> bool:
    return (type(expr) is ast.Name and expr.id == "bool") or (type(expr) is ast.Attribute and expr.attr == "bool")


def _all_true(expr, scope, ctx, depth=0) -> bool:
    """`torch.ones(..., dtype=torch.bool)`, `torch.ones_like(x, dtype=bool)`, `torch.full(shape, True)`,
    `torch.ones(n, n).bool()`, `torch.empty(n, n, dtype=torch.bool).fill_(True)`, or a name bound only to one
    of those and never changed in place."""
    if depth > _MAX_DEPTH:
        return False
    t = type(expr)
    if t is ast.Call:
        tail = tail_of(expr.func)
        if tail in _ONES:
            return any(kw.arg == "dtype" and _names_bool(kw.value) for kw in expr.keywords)
        if tail in _FULL:
            fill = next((kw.value for kw in expr.keywords if kw.arg == "fill_value"),
                        expr.args[1] if len(expr.args) > 1 else None)
            return type(fill) is ast.Constant and fill.value is True
        if type(expr.func) is ast.Attribute and not expr.keywords:
            inner = expr.func.value
            if tail == "bool" and not expr.args and type(inner) is ast.Call and tail_of(inner.func) in _ONES:
                return True
            if tail == "fill_" and len(expr.args) == 1 and type(expr.args[0]) is ast.Constant \
                    and expr.args[0].value is True and type(inner) is ast.Call \
                    and any(kw.arg == "dtype" and _names_bool(kw.value) for kw in inner.keywords):
                return True
        return False
    if t is ast.Name:
        bindings = ctx.resolver.lookup(scope, expr.id)
        if not bindings or expr.id in _changed_in_place(ctx):
            return False
        return all(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                   and _all_true(b.value, b.scope, ctx, depth + 1) for b in bindings)
    return False


def _changed_in_place(ctx) -> set:
    """Names the file writes into (`m[:, k:] = False`, `m.masked_fill_(...)`, `m.tril_()`): any of them may
    mask something after all."""
    found: set | None = ctx.memo.get("all-true-mask:changed")
    if found is None:
        found = set()
        ctx.memo["all-true-mask:changed"] = found
        for st in ctx.nodes(ast.Assign) + ctx.nodes(ast.AugAssign):
            for t in getattr(st, "targets", None) or [getattr(st, "target", None)]:
                if type(t) is ast.Subscript and type(t.value) is ast.Name:
                    found.add(t.value.id)
        for call in ctx.calls():
            f = call.func
            if type(f) is ast.Attribute and f.attr.endswith("_") and not f.attr.startswith("_") \
                    and type(f.value) is ast.Name:
                found.add(f.value.id)
    return found


@predicate("all-true-mask", kinds=("call",))
def all_true_mask(ctx, hit) -> bool:
    """Every mask argument the matcher asks for (`attn_mask`, `key_padding_mask`) is all True: built in
    reach as `torch.ones(..., dtype=torch.bool)`, `torch.ones_like(x, dtype=bool)`, `torch.full(shape, True)`,
    `.bool()` of a ones tensor or `.fill_(True)` of a bool tensor, and never written into in place in the file
    (`m[:, k:] = False`, `m.tril_()`). A boolean attention mask that is True everywhere lets every position
    attend: the call is plain attention. A float ones mask (added to the scores) and any other mask still match.
    Only for SDPA's convention (True = may attend): nn.MultiheadAttention reads True as "masked out", so its
    rule (TRN172) does not use it."""
    wanted = not_none_arguments(hit)
    if not wanted:
        return False
    call = hit.node
    scope = call_scope(ctx, call)
    found = False
    for p in wanted:
        arg = argument_of(p, call)
        if arg is None or (type(arg) is ast.Constant and arg.value is None):
            continue
        if not _all_true(arg, scope, ctx):
            return False
        found = True
    return found
