"""Local evidence that a bit shift needs the full int64 range (the `operator = ["int64-wide-shift"]` kind).

`hi.to(torch.int64) << 32` packs two 32-bit halves into one int64 and `key >> 40` reads the top bits of
one: both are wrong if the upper 32 bits are lost. Reported only when the shift amount is a known
integer of 32 or more and the shifted value is an int64 tensor by local evidence: a cast to
torch.int64 / torch.long (`.to`, `.type`, `.view`, `.long()`), a tensor made with `dtype=torch.int64`,
or a name bound once to one of those in the same scope. A value made by a torch function (`torch.div(...)`,
`a + torch.index_select(...)`, a name bound once to one) counts too: its integer results are int64 unless
cast, and a shift by 32 or more has no other meaning (fairseq packs `(sent << 32) + idx`). Python integers
(`1 << 40`, `len(x) << 32`) and values of unknown origin are left alone.
"""
from __future__ import annotations

import ast

from .index import Scope, _tail
from .values import UNKNOWN

_INT64 = frozenset({"torch.int64", "torch.long"})
_MAX_DEPTH = 4
WIDE = 32


def is_wide_int64_shift(node: ast.BinOp, scope: Scope, resolver) -> bool:
    if type(node.op) not in (ast.LShift, ast.RShift):
        return False
    amounts = [v for v, _ in resolver.values(node.right, scope)]
    if not amounts or any(v is UNKNOWN or type(v) is not int or v < WIDE for v in amounts):
        return False
    return is_int64(node.left, scope, resolver) or _torch_made(node.left, scope, resolver)


def _torch_made(expr: ast.expr, scope: Scope, resolver, depth: int = 0) -> bool:
    """Made by a torch function: `torch.div(i, n, rounding_mode="trunc")`, arithmetic with one (`a + torch.x(...)`),
    or a name bound once to one of those. (A cast to another dtype is judged by is_int64 and the predicates.)"""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("to", "type", "view", "int", "short", "byte"):
            return False
        return any(resolver.canonical(q).startswith("torch.") and resolver.canonical(q) != "torch.iinfo"
                   for q in resolver.qualnames(expr.func, scope))
    if isinstance(expr, ast.BinOp) and type(expr.op) in (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.BitOr):
        return _torch_made(expr.left, scope, resolver, depth + 1) or _torch_made(expr.right, scope, resolver, depth + 1)
    if isinstance(expr, ast.Name):
        bindings = resolver.lookup(scope, expr.id)
        return bool(bindings) and len(bindings) == 1 and bindings[0].kind in ("expr", "call") \
            and isinstance(bindings[0].value, ast.expr) \
            and _torch_made(bindings[0].value, bindings[0].scope, resolver, depth + 1)
    return False


def is_int64(expr: ast.expr, scope: Scope, resolver, depth: int = 0) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, ast.Call):
        tail = _tail(expr.func)
        if tail == "long" and not expr.args and not expr.keywords and type(expr.func) is ast.Attribute:
            return True
        for kw in expr.keywords:
            if kw.arg == "dtype" and _names_int64(kw.value, scope, resolver):
                return True
        if tail in ("to", "type", "view") and type(expr.func) is ast.Attribute and len(expr.args) == 1:
            return _names_int64(expr.args[0], scope, resolver)
        return False
    if isinstance(expr, ast.Name):
        bindings = resolver.lookup(scope, expr.id)
        return bool(bindings) and len(bindings) == 1 and bindings[0].kind in ("expr", "call") \
            and isinstance(bindings[0].value, ast.expr) and is_int64(bindings[0].value, bindings[0].scope, resolver,
                                                                     depth + 1)
    return False


def _names_int64(expr: ast.expr, scope: Scope, resolver) -> bool:
    return any(resolver.canonical(q) in _INT64 for q in resolver.qualnames(expr, scope))
