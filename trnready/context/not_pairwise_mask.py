"""not-pairwise-mask: an `attention_mask=` argument not shown to hold one entry per query and key."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from ..astwalk import walk

MAX_DEPTH = 5
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
# methods whose result keeps the mask's shape (or adds a unit axis): their receiver is the mask
_SHAPE_KEEPING = frozenset({"bool", "float", "long", "int", "half", "to", "type", "type_as", "ne", "eq", "gt", "ge",
                            "lt", "le", "logical_not", "unsqueeze", "detach", "clone", "contiguous", "masked_fill"})


def _broadcast(e) -> bool:
    """`m[:, None, :]`, `m[:, :, None]`, `m.unsqueeze(1)`: a padding mask given a unit axis to broadcast against."""
    if type(e) is ast.Subscript and type(e.slice) is ast.Tuple:
        return any(type(x) is ast.Constant and x.value is None for x in e.slice.elts)
    return type(e) is ast.Call and type(e.func) is ast.Attribute and e.func.attr in ("unsqueeze", "view", "reshape") \
        and bool(e.args)


def _square_slice(e) -> bool:
    """`self.bias[:, a:b, :b]`: a slice of a stored buffer along two trailing axes (a square causal buffer)."""
    if type(e) is not ast.Subscript or type(e.value) is not ast.Attribute or type(e.slice) is not ast.Tuple:
        return False
    elts = e.slice.elts
    return len(elts) >= 3 and sum(type(x) is ast.Slice for x in elts[-2:]) == 2


def _last_assignment(fn, name: str, line: int):
    """The value of the last `name = ...` before `line` in the function, or None."""
    best = None
    for n in walk(fn):
        if type(n) is ast.Assign and n.lineno < line and any(type(t) is ast.Name and t.id == name for t in n.targets):
            if best is None or n.lineno > best.lineno:
                best = n
    return best.value if best is not None else None


def _pairwise(e, fn, line: int, depth: int) -> bool:
    if depth > MAX_DEPTH or e is None:
        return False
    t = type(e)
    if t is ast.BinOp and type(e.op) in (ast.Mult, ast.BitAnd, ast.BitOr):
        if _broadcast(e.left) and _broadcast(e.right):
            return True  # the outer product of two padding masks
        return _pairwise(e.left, fn, line, depth + 1) or _pairwise(e.right, fn, line, depth + 1)
    if _square_slice(e):
        return True
    if t is ast.Call and type(e.func) is ast.Attribute and e.func.attr in _SHAPE_KEEPING:
        return _pairwise(e.func.value, fn, line, depth + 1)
    if t is ast.Name and fn is not None:
        value = _last_assignment(fn, e.id, line)
        return value is not None and _pairwise(value, fn, getattr(value, "lineno", line), depth + 1)
    return False


@predicate("not-pairwise-mask")
def not_pairwise_mask(ctx, hit) -> bool:
    """For TRN175: the `attention_mask=` value is not shown, in the function, to hold one entry per query and key.
    Shown: the outer product of two padding masks given unit axes (`m[:, None, :] * m[:, :, None]`,
    `m.unsqueeze(1) * m.unsqueeze(2)`), a slice of a stored buffer along two trailing axes (`self.bias[:, a:b, :b]`,
    a square causal buffer), an `&`, `|` or `*` of either with anything, a shape-keeping method of either
    (`.bool()`, `.ne(1)`), or a local name whose last assignment before the call is one of these. A plain padding
    mask (`ids.ne(1)`, `batch["attention_mask"]`) and anything built elsewhere leave the call alone."""
    node = hit.node
    kw = node if type(node) is ast.keyword else parent_of(ctx, node)
    if type(kw) is not ast.keyword:
        return True
    fn = parent_of(ctx, kw)
    while fn is not None and not isinstance(fn, _FUNCS):
        fn = parent_of(ctx, fn)
    return not _pairwise(kw.value, fn, kw.value.lineno, 0)
