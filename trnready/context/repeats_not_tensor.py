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


def _sliced(expr) -> bool:
    """`ptr[1:] - ptr[:-1]`: a slice is a run of values, never a Python int, and arithmetic on one is no int either;
    since repeat_interleave takes a tensor or an int, such repeats are a tensor of counts (per-graph sizes from
    offsets). A slice of a shape (`x.shape[1:]`) is a tuple, not counts."""
    t = type(expr)
    if t is ast.Subscript:
        parts = expr.slice.elts if type(expr.slice) is ast.Tuple else [expr.slice]
        return any(type(e) is ast.Slice for e in parts) \
            and not (type(expr.value) is ast.Attribute and expr.value.attr == "shape")
    if t is ast.BinOp:
        return _sliced(expr.left) or _sliced(expr.right)
    return False


# `.view(-1)` / `.unsqueeze(0)` with integer arguments: NumPy's `view` takes a dtype and arrays have no `unsqueeze`,
# and a Python int has neither, so the value so reshaped is a torch tensor.
_RESHAPE_METHODS = frozenset({"view", "unsqueeze"})


def _reshaped_tensor(expr) -> bool:
    if type(expr) is not ast.Call or type(expr.func) is not ast.Attribute or expr.func.attr not in _RESHAPE_METHODS:
        return False
    args = [a.operand if type(a) is ast.UnaryOp and type(a.op) is ast.USub else a for a in expr.args]
    return bool(args) and not expr.keywords and all(type(a) is ast.Constant and type(a.value) is int for a in args)


def _tensor_by_form(expr, scope, resolver, depth: int = 0) -> bool:
    """The repeats' own form says they are counts in a tensor: a slice, arithmetic on slices, a tensor-only reshape,
    or a name every assignment in reach binds to one of those."""
    if _column_of_array(expr) or _sliced(expr) or _reshaped_tensor(expr):
        return True
    if type(expr) is ast.Name and depth < 3:
        bindings = resolver.lookup(scope, expr.id) or ()
        return bool(bindings) and all(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                                      and _tensor_by_form(b.value, b.scope, resolver, depth + 1) for b in bindings)
    return False


# Tensor methods that answer from the shape, not the values: their result is a Python int in eager mode (a
# symbolic int of the input shapes under compilation), so repeating by it keeps a shape known before the data.
_SHAPE_METHODS = frozenset({"size", "numel", "nelement", "dim", "ndimension"})


def _shape_count(expr, scope, resolver, depth: int = 0) -> bool:
    """`t.shape[0]`, `t.size(0)`, `t.numel()`, `len(t)`, arithmetic on them with constants, or a name bound only to
    such values: a count read off a shape, never a tensor of counts, even when `t` itself is a tensor."""
    if depth > 4:
        return False
    t = type(expr)
    if t is ast.Constant:
        return type(expr.value) is int
    if t is ast.Subscript:
        return type(expr.value) is ast.Attribute and expr.value.attr == "shape"
    if t is ast.Attribute:
        return expr.attr == "ndim"
    if t is ast.Call:
        func = expr.func
        if type(func) is ast.Attribute:
            return func.attr in _SHAPE_METHODS
        return type(func) is ast.Name and func.id == "len"
    if t is ast.BinOp:
        return _shape_count(expr.left, scope, resolver, depth + 1) \
            and _shape_count(expr.right, scope, resolver, depth + 1)
    if t is ast.Name:
        bindings = resolver.lookup(scope, expr.id) or ()
        return bool(bindings) and all(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                                      and _shape_count(b.value, b.scope, resolver, depth + 1) for b in bindings)
    return False


@predicate("repeats-not-tensor", kinds=("call", "method"))
def repeats_not_tensor(ctx, hit) -> bool:
    """The `repeats` argument of repeat_interleave is not, by local evidence, a torch tensor (an int
    or an unknown value): `x.repeat_interleave(2, dim=0)` keeps a shape known before the data. A column of an
    array (`grid_thw[:, 0]`, indexed along two dimensions with a slice) is evidence: repeat_interleave takes a tensor
    or an int, and such a value is no int. A count read off a shape (`tokens.shape[0]`, `x.size(0)`, or a name
    bound to one) is an int even when it is read off a torch tensor."""
    call = hit.node
    if type(call) is not ast.Call:
        return True
    repeats = size_argument(hit, "repeats")
    if repeats is None:
        return True
    if _tensor_by_form(repeats, call_scope(ctx, call), ctx.resolver):
        return False
    if _shape_count(repeats, call_scope(ctx, call), ctx.resolver):
        return True
    return not masks.is_tensor(repeats, call_scope(ctx, call), ctx.resolver)
