"""The values a name can hold inside the arms of `if` tests that compare it with literals.

`if mode in {"bilinear", "bicubic"}: ...` / `elif mode in {"nearest", "area"}: F.interpolate(x, mode=mode)`: in the
second arm `mode` is "nearest" or "area", whatever its default. The values a call's argument resolves to (a
parameter default, an assignment) are pruned by the tests of the `if` / `elif` arms around the call, up to the
enclosing function: an arm taken when `name == lit` / `name in (lits)` holds keeps only values among those
literals; the `else` / `elif` of such a test drops them. Nothing is added (a literal in a test is no proof that a
caller passes it), and anything else (another form of test) is left as it is.
"""
from __future__ import annotations

import ast

from .values import UNKNOWN

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


def _compared(test, name: str):
    """The literals `test` requires `name` to equal (`name == "a"`, `name in {"a", "b"}`, either side), else None."""
    if type(test) is not ast.Compare or len(test.ops) != 1:
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if type(op) is ast.Eq:
        if type(right) is ast.Name and type(left) is ast.Constant:
            left, right = right, left
        if type(left) is ast.Name and left.id == name and type(right) is ast.Constant:
            return {right.value: right}
        return None
    if type(op) is ast.In and type(left) is ast.Name and left.id == name \
            and isinstance(right, (ast.Set, ast.List, ast.Tuple)) \
            and right.elts and all(isinstance(e, ast.Constant) for e in right.elts):
        return {e.value: e for e in right.elts if isinstance(e, ast.Constant)}
    return None


def narrowed(ctx, expr: ast.expr, at: ast.AST, pairs: list) -> list:
    """(value, origin) pairs of the Name `expr` (read at the node `at`) narrowed by the `if` arms around `at`."""
    if type(expr) is not ast.Name or ctx.tree is None or expr.id not in ctx.fact("narrowing:compared", _compared_names):
        return pairs  # (no `if` of the file compares the name: no arm narrows it, and no parent is looked up)
    allowed: dict | None = None
    excluded: set = set()
    node = at
    while True:
        up = ctx.parent(node)
        if up is None or isinstance(up, _SCOPES):
            break
        if type(up) is ast.If:
            lits = _compared(up.test, expr.id)
            if lits is not None:
                if any(s is node for s in up.body):
                    allowed = lits if allowed is None else {k: v for k, v in allowed.items() if k in lits}
                elif any(s is node for s in up.orelse):
                    excluded |= set(lits)
        node = up
    if allowed is None and not excluded:
        return pairs
    # pruning only: a value the arms rule out is dropped, nothing is added (the arm's literals are no proof that
    # a caller passes them)
    kept = [(v, o) for v, o in pairs if v is UNKNOWN or not _hashable(v)
            or (allowed is None or v in allowed) and v not in excluded]
    return kept or [(UNKNOWN, expr)]


def _compared_names(ctx) -> frozenset:
    """The names some `if` test of the file compares with one operator, on either side: every name `_compared` can
    answer for (and a few more). From the file's statements alone, no walk of its expressions."""
    out: set = set()
    for st in ctx.nodes(ast.If):
        test = st.test
        if type(test) is ast.Compare and len(test.ops) == 1:
            for side in (test.left, test.comparators[0]):
                if type(side) is ast.Name:
                    out.add(side.id)
    return frozenset(out)


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True
