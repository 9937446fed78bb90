"""counts-a-mask: a cumulative sum over a boolean mask, whose values never exceed the length summed over."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, predicate


@predicate("counts-a-mask", kinds=("call", "method"))
def counts_a_mask(ctx, hit) -> bool:
    """The cumulative sum runs over a mask (`input_mask.cumsum(-1, dtype=torch.long)`, `torch.cumsum(x > 0,
    0, dtype=torch.int64)`): each value counts True entries along one dimension, so it is at most that
    dimension's length, a position or a count of tokens that fits 32 bits however the device keeps int64. The
    mask is known by the same local evidence as a mask index (a comparison, `~m`, `.bool()`, ...) or by its
    name (`mask-words`, as for `x[mask_k]`). Products and sums of other int64 values stay findings."""
    call = hit.node
    if type(call) is not ast.Call or masks.tail_of(call.func) not in ("cumsum", "cumprod"):
        return False
    operand: ast.expr | None
    if hit.matcher.kind == "method":
        if type(call.func) is not ast.Attribute:
            return False
        operand = call.func.value
    else:
        operand = next((kw.value for kw in call.keywords if kw.arg == "input"), call.args[0] if call.args else None)
    if operand is None or type(operand) is ast.Starred:
        return False
    scope = call_scope(ctx, call)
    if masks.is_mask(operand, scope, ctx.resolver):
        return True
    words = frozenset(ctx.values.get("mask-words", ()))
    not_words = frozenset(ctx.values.get("mask-not-words", ()))
    return masks.named_mask(operand, scope, ctx.resolver, words, not_words)
