"""unreachable-statement: statements after a `raise`, `return`, `break` or `continue` of the same block."""
from __future__ import annotations

import ast

from .base import predicate

_LEAVES = (ast.Raise, ast.Return, ast.Break, ast.Continue)
_BLOCKS = ("body", "orelse", "finalbody")


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
                    if isinstance(st, _LEAVES):
                        out.update(id(s) for s in block[i + 1:])
                        break
        return frozenset(out)
    return ctx.fact("unreachable-statement", compute)


@predicate("unreachable-statement", effect="guard")
def unreachable_statement(ctx, hit) -> bool:
    """The match sits in a statement that comes after a `raise`, `return`, `break` or `continue` of the same
    block: `if compile: raise NotImplementedError` followed by the compile set-up the author switched off, or a
    `return` left above old code. No path reaches such a statement, on Neuron or anywhere else, so it is no port
    item. Only these four statements count; a call that never returns (`sys.exit()`) is not assumed to."""
    dead = _unreachable(ctx)
    if not dead:
        return False
    node = hit.node
    while node is not None:
        if id(node) in dead:
            return True
        node = ctx.parent(node)
    return False
