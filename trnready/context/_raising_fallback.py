"""An optional import whose fallback only raises: `try: from x import Op; has_x = True` / `except ImportError:
has_x = False`, and every read of `has_x` in the module is `if has_x: ... else: raise ...` (or `if not has_x:
raise ...`, `assert has_x`). The path without the package ends in an error where the op is used, so the import
is no optional dependency: the module cannot do its work without it."""
from __future__ import annotations

import ast


def _raises(body) -> bool:
    return bool(body) and type(body[-1]) is ast.Raise


def _handler_flags(try_node) -> set:
    """Names an ImportError handler binds to False or None (`has_mmcv_full = False`)."""
    out: set = set()
    for h in try_node.handlers:
        for st in h.body:
            if type(st) is ast.Assign and type(st.value) is ast.Constant and st.value.value in (False, None):
                out.update(t.id for t in st.targets if type(t) is ast.Name)
    return out


def _flag_test(test, flags: set):
    """(flag, negated) when the test is `flag` or `not flag`, else None."""
    if type(test) is ast.Name and test.id in flags:
        return test.id, False
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not and type(test.operand) is ast.Name \
            and test.operand.id in flags:
        return test.operand.id, True
    return None


def fallback_raises(ctx, import_node) -> bool:
    """The import sits in a `try:` whose ImportError handler sets flags, and each flag is read at least once and
    only by checks whose flag-false arm raises. The file's `if`s, asserts and names come from its one shared walk
    (FileContext.nodes)."""
    try_node = ctx.parent(import_node)
    while try_node is not None and type(try_node) is not ast.Try:
        try_node = ctx.parent(try_node)
    if try_node is None:
        return False
    flags = _handler_flags(try_node)
    if not flags:
        return False
    checked: dict = {f: 0 for f in flags}
    allowed: set = set()
    for n in ctx.nodes(ast.If):
        got = _flag_test(n.test, flags)
        if got is not None and _raises(n.body if got[1] else n.orelse):
            checked[got[0]] += 1
            test = n.test
            allowed.add(id(test.operand) if isinstance(test, ast.UnaryOp) else id(test))
    for n in ctx.nodes(ast.Assert):
        got = _flag_test(n.test, flags)
        if got is not None and not got[1]:
            checked[got[0]] += 1
            allowed.add(id(n.test))
    for n in ctx.nodes(ast.Name):
        if n.id in flags and type(n.ctx) is ast.Load and id(n) not in allowed:
            return False
    return all(checked.values())
