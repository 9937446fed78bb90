"""python-int-limit: an integer limit from torch.iinfo used only as a Python number."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


def _compared(ctx, node) -> bool:
    """`node` is an operand of a comparison or sits in an assert's condition."""
    p = parent_of(ctx, node)
    while p is not None and isinstance(p, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Call)) and not (
            type(p) is ast.Call and p.func is not node):
        node, p = p, parent_of(ctx, p)
    if type(p) is ast.Compare:
        return True
    while p is not None and not isinstance(p, ast.stmt):
        if type(p) is ast.Call and _is_assertion(p.func):
            return True
        p = parent_of(ctx, p)
    return type(p) is ast.Assert


def _is_assertion(func) -> bool:
    """`self.assertEqual(...)`, `assert_close(...)`, `np.testing.assert_array_equal(...)`: a test's expected
    value is compared there, never computed on a device."""
    name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    return name.startswith("assert")


def _target_name(t) -> str | None:
    if type(t) is ast.Name:
        return t.id
    return t.attr if type(t) is ast.Attribute else None


def _only_compared(ctx, name: str) -> bool:
    """The name (or attribute) is read in this file, and every read is a comparison operand. A constant
    never read here may be used anywhere, so it does not count."""
    reads = 0
    for kind in (ast.Name, ast.Attribute):
        for n in ctx.nodes(kind):
            if type(n.ctx) is ast.Load and (n.id if kind is ast.Name else n.attr) == name:
                if not _compared(ctx, n):
                    return False
                reads += 1
    return reads > 0


@predicate("python-int-limit", kinds=("call",))
def python_int_limit(ctx, hit) -> bool:
    """`torch.iinfo(torch.int64).max` (or `.min`) used as a plain Python number: compared with another
    number (`if n * n > torch.iinfo(torch.int64).max:`), checked in an `assert`, part of an argument of an
    assertion call (`self.assertEqual(ids, [3, torch.iinfo(torch.int64).max])`), or stored in a name or
    attribute read in this file and only in such comparisons (`MAX_INT64 = ...` then `if n > MAX_INT64:`).
    No tensor holds the value, so no 64-bit device arithmetic is involved. A limit that fills a tensor,
    is read anywhere else in the file, or is never read in it still matches."""
    call = hit.node
    attr = parent_of(ctx, call)
    if type(attr) is not ast.Attribute or attr.attr not in ("max", "min"):
        return False
    if _compared(ctx, attr):
        return True
    stmt = parent_of(ctx, attr)
    if type(stmt) is ast.Assign and stmt.value is attr:
        names = [_target_name(t) for t in stmt.targets]
        return all(names) and all(_only_compared(ctx, n) for n in names if n is not None)
    return False
