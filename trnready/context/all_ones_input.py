"""all-ones-input: nonzero / argwhere of a tensor built all ones, whose count of nonzero entries is its shape's."""
from __future__ import annotations

import ast

from ..astwalk import walk
from ..masks import tail_of
from .base import enclosing_function, predicate

_ONES = frozenset({"ones", "ones_like", "new_ones"})
_FULL = frozenset({"full", "full_like", "new_full"})
# calls that keep every entry nonzero, or keep a fixed triangle of the entries (tril / triu of an all-ones matrix)
_KEEPING = frozenset({"bool", "float", "int", "long", "half", "to", "view", "reshape", "flatten", "expand",
                      "contiguous", "clone", "detach", "tril", "triu", "unsqueeze", "squeeze", "permute",
                      "transpose", "repeat"})
_SEARCHES = frozenset({"nonzero", "argwhere"})


def _fill(call: ast.Call):
    """The fill value of `torch.full(shape, v)` / `x.new_full(shape, v)` / `torch.full_like(x, v)`."""
    for kw in call.keywords:
        if kw.arg == "fill_value":
            return kw.value
    return call.args[1] if len(call.args) > 1 else None


def _all_ones(expr, fn, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if type(expr) is ast.Call:
        tail = tail_of(expr.func)
        if tail in _ONES:
            return True
        if tail in _FULL:
            v = _fill(expr)
            return type(v) is ast.Constant and type(v.value) in (int, float, bool) and bool(v.value)
        if tail in ("tril", "triu") and type(expr.func) is ast.Name:
            return False
        if tail in _KEEPING and type(expr.func) is ast.Attribute:
            return _all_ones(expr.func.value, fn, depth + 1)
        if tail in ("tril", "triu") and expr.args:  # torch.tril(ones)
            return _all_ones(expr.args[0], fn, depth + 1)
        return False
    if type(expr) is ast.Name and fn is not None:
        value = _only_value(fn, expr.id)
        return value is not None and _all_ones(value, fn, depth + 1)
    return False


def _only_value(fn, name: str):
    """The value of the one plain assignment of `name` in fn, when nothing else writes it or changes it in place
    (`m[i] = 0`, `m.fill_(0)`, `m &= other`, a loop or `with` target)."""
    value = None
    for node in walk(fn):
        if isinstance(node, ast.Assign):
            for tg in node.targets:
                if type(tg) is ast.Name and tg.id == name:
                    if value is not None or len(node.targets) != 1:
                        return None
                    value = node.value
                elif any(type(e) is ast.Name and e.id == name for e in walk(tg)):
                    return None  # unpacked, or written through a subscript / attribute
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr)):
            written = getattr(node, "target", None) or getattr(node, "optional_vars", None)
            if written is not None and any(type(e) is ast.Name and e.id == name for e in walk(written)):
                return None
        elif isinstance(node, ast.Call) and type(node.func) is ast.Attribute and node.func.attr.endswith("_") \
                and not node.func.attr.startswith("_") and type(node.func.value) is ast.Name \
                and node.func.value.id == name:
            return None  # `m.fill_(0)`, `m.masked_fill_(...)`: changed in place
        elif isinstance(node, ast.arg) and node.arg == name:
            return None
    return value


@predicate("all-ones-input", kinds=("call", "method"))
def all_ones_input(ctx, hit) -> bool:
    """`nonzero()` / `argwhere()` of a tensor built all ones (`torch.ones`, `x.new_ones`, `ones_like`, `full` with
    a nonzero literal), directly or through a name assigned once in the function and never changed in place,
    possibly cast, reshaped, or cut to a triangle by `tril` / `triu` (mmdetection3d's `dense_idx =
    new_ones((g, g, g)).nonzero()` enumerating grid points, pyro's `ones(n, n).tril(-1).nonzero()` listing
    pairs): how many entries are nonzero is fixed by the shape, so the result's size does not depend on the data.
    A tensor written after it is built (`m[i] = 0`, `m.fill_(0)`), assigned twice, a parameter, or built by any
    other call still matches."""
    call = hit.node
    if type(call) is not ast.Call or tail_of(call.func) not in _SEARCHES:
        return False
    if call.args and type(call.func) is ast.Attribute and type(call.func.value) is ast.Name \
            and call.func.value.id == "torch":
        target = call.args[0]  # torch.nonzero(m)
    elif type(call.func) is ast.Attribute and not call.args:
        target = call.func.value  # m.nonzero()
    else:
        return False
    return _all_ones(target, enclosing_function(ctx, call))
