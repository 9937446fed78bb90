"""narrow-int-operand: a shift or xor whose integer operand is a 32-bit (or narrower) tensor."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, predicate
from ..astwalk import walk

NARROW = {"int32", "int16", "int8", "uint8", "uint16", "uint32", "int", "short"}
NARROW_METHODS = {"int", "short", "char", "byte"}  # x.int() is int32, x.short() int16, ...


def _narrow_dtype(e) -> bool:
    name = dotted(e)
    return name.startswith("torch.") and name[6:] in NARROW


def _narrow_expr(e, func=None) -> bool:
    """`x.view(torch.int32)`, `x.to(torch.int32)`, `x.to(dtype=torch.int16)`, `x.int()`, `x.view(dt)` where
    every assignment of `dt` in the function is such a dtype."""
    if type(e) is not ast.Call or type(e.func) is not ast.Attribute:
        return False
    attr = e.func.attr
    if attr in NARROW_METHODS and not e.args and not e.keywords:
        return True
    if attr in ("view", "to", "type"):
        args = list(e.args) + [k.value for k in e.keywords if k.arg == "dtype"]
        return len(args) == 1 and (_narrow_dtype(args[0]) or _only_assigned(args[0], func, _narrow_dtype))
    return False


def _only_assigned(e, func, test) -> bool:
    """`e` is a local name of `func`, and every assignment to it there passes `test`."""
    if type(e) is not ast.Name or func is None:
        return False
    values = [st.value for st in walk(func) if type(st) is ast.Assign
              and any(type(t) is ast.Name and t.id == e.id for t in st.targets)]
    bound_otherwise = any(type(a) is ast.arg and a.arg == e.id for a in walk(func.args)) or any(
        type(n) in (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)
        and type(getattr(n, "target", None)) is ast.Name and n.target.id == e.id  # type: ignore[attr-defined]
        for n in walk(func))
    return bool(values) and not bound_otherwise and all(test(v) for v in values)


def _narrow(ctx, e, func) -> bool:
    return _narrow_expr(e, func) or _only_assigned(e, func, lambda v: _narrow_expr(v, func))


@predicate("narrow-int-operand", kinds=("call", "method"))
def narrow_int_operand(ctx, hit) -> bool:
    """A bit shift or xor whose tensor operand was just made 32 bits or narrower: `x.view(torch.int32)`
    (float bits reinterpreted), `x.to(torch.int32)`, `x.int()`, the same with a local dtype name every
    assignment of which is a narrow dtype, or a local name every assignment of which is such a cast. Its result
    never needs the upper 32 bits of an int64, so the int64 concern does not
    apply. An operand of unknown width (a parameter, a dtype held in a variable) still matches."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    func = enclosing_function(ctx, call)
    if hit.matcher.kind == "method":
        return type(call.func) is ast.Attribute and _narrow(ctx, call.func.value, func)
    return bool(call.args) and _narrow(ctx, call.args[0], func)
