"""repeats-not-tensor: repeat_interleave whose repeats are not shown to be a torch tensor."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, predicate, size_argument


@predicate("repeats-not-tensor", kinds=("call", "method"))
def repeats_not_tensor(ctx, hit) -> bool:
    """The `repeats` argument of repeat_interleave is not, by local evidence, a torch tensor (an int
    or an unknown value): `x.repeat_interleave(2, dim=0)` keeps a shape known before the data."""
    call = hit.node
    if type(call) is not ast.Call:
        return True
    repeats = size_argument(hit, "repeats")
    if repeats is None:
        return True
    return not masks.is_tensor(repeats, call_scope(ctx, call), ctx.resolver)
