"""unreachable-statement: statements after a `raise`, `return`, `break` or `continue` of the same block."""
from __future__ import annotations

import ast

from .base import imported_name, predicate

_LEAVES = (ast.Raise, ast.Return, ast.Break, ast.Continue)
_BLOCKS = ("body", "orelse", "finalbody")
# Calls that never return: the interpreter's own exits, read through the file's imports (`import sys` then
# `sys.exit()`), and the `exit` / `quit` builtins when the file binds no other object to those names.
_EXITS = frozenset({"sys.exit", "os._exit", "os.abort"})
_BUILTIN_EXITS = frozenset({"exit", "quit"})


def _divides_by_zero(st) -> bool:
    """`1/0` as a whole statement (or assigned): a stop written into a script (Pytorch_Quantize_impls's
    `optimize.py` and `compress.py` stop themselves near the top; blind80 look-alikes)."""
    v = st.value if type(st) in (ast.Expr, ast.Assign) else None
    return type(v) is ast.BinOp and type(v.op) in (ast.Div, ast.FloorDiv, ast.Mod) \
        and type(v.right) is ast.Constant and type(v.right.value) in (int, float) and v.right.value == 0 \
        and type(v.left) is ast.Constant


def _exits(ctx, st) -> bool:
    """`sys.exit(...)`, `os._exit(...)`, `exit()` or `quit()` as a whole statement, or a literal division by zero."""
    if _divides_by_zero(st):
        return True
    if type(st) is not ast.Expr or type(st.value) is not ast.Call:
        return False
    func = st.value.func
    if type(func) is ast.Name and func.id in _BUILTIN_EXITS:
        module = ctx.index.module
        return module is None or not ctx.resolver.lookup(module, func.id)
    if type(func) is not ast.Attribute or func.attr not in ("exit", "_exit", "abort"):
        return False  # (most statements are calls of something else: no lookup for them)
    name, imported = imported_name(ctx, func)
    return imported and name in _EXITS


def _unreachable(ctx) -> frozenset:
    """ids of the statements that follow a statement leaving their block (the first such statement and the
    rest of the block after it). Blocks of every kind: bodies, `else`, `finally`, `except` and `case` arms."""
    def compute(c) -> frozenset:
        out: set = set()
        if c.tree is None:
            return frozenset()
        holders = [c.tree, *c.statements(), *c.nodes(ast.ExceptHandler), *c.nodes(ast.match_case)]
        for node in holders:
            for field in _BLOCKS:
                block = getattr(node, field, None)
                if type(block) is not list:
                    continue
                for i, st in enumerate(block):
                    if isinstance(st, _LEAVES) or _exits(c, st):
                        out.update(id(s) for s in block[i + 1:])
                        break
        return frozenset(out)
    return ctx.fact("unreachable-statement", compute)


@predicate("unreachable-statement", effect="guard")
def unreachable_statement(ctx, hit) -> bool:
    """The match sits in a statement that comes after a `raise`, `return`, `break` or `continue` of the same
    block: `if compile: raise NotImplementedError` followed by the compile set-up the author switched off, or a
    `return` left above old code. No path reaches such a statement, on Neuron or anywhere else, so it is no port
    item. A call that never returns counts too when the file cannot have rebound it: `sys.exit()` / `os._exit()`
    through the file's imports, `exit()` / `quit()` when the file binds nothing else to the name (pyg-lib's
    benchmark keeps its old timing loop below a `quit()`)."""
    dead = _unreachable(ctx)
    if not dead:
        return False
    node = hit.node
    while node is not None:
        if id(node) in dead:
            return True
        node = ctx.parent(node)
    return False
