"""repeats-not-tensor: repeat_interleave whose repeats are not shown to be a torch tensor."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, predicate, size_argument


def _column_of_array(expr) -> bool:
    """`grid_thw[:, 0]`: indexed along two dimensions with a slice, so an array, never a Python int; the repeats of
    repeat_interleave are a tensor or an int (a NumPy array is refused), so such repeats are a tensor."""
    return type(expr) is ast.Subscript and type(expr.slice) is ast.Tuple \
        and any(type(e) is ast.Slice for e in expr.slice.elts)


@predicate("repeats-not-tensor", kinds=("call", "method"))
def repeats_not_tensor(ctx, hit) -> bool:
    """The `repeats` argument of repeat_interleave is not, by local evidence, a torch tensor (an int
    or an unknown value): `x.repeat_interleave(2, dim=0)` keeps a shape known before the data. A column of an
    array (`grid_thw[:, 0]`, indexed along two dimensions with a slice) is evidence: repeat_interleave takes a tensor
    or an int, and such a value is no int."""
    call = hit.node
    if type(call) is not ast.Call:
        return True
    repeats = size_argument(hit, "repeats")
    if repeats is None:
        return True
    if _column_of_array(repeats):
        return False
    return not masks.is_tensor(repeats, call_scope(ctx, call), ctx.resolver)
