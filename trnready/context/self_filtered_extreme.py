"""self-filtered-extreme: the smallest (or largest) element past a bound, `x[x > 0].min()`, a scalar at once."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

_EXTREMES = frozenset({"min", "max", "amin", "amax"})


def _constant(node) -> bool:
    """A literal bound, also negated (`-1`) or a capitalised module constant (`EPS`)."""
    if type(node) is ast.UnaryOp and type(node.op) is ast.USub:
        node = node.operand
    return type(node) is ast.Constant and isinstance(node.value, (int, float)) or \
        (type(node) is ast.Name and node.id.isupper())


@predicate("self-filtered-extreme", kinds=("subscript",))
def self_filtered_extreme(ctx, hit) -> bool:
    """The match is `x[x > c]` (any order comparison of the indexed tensor itself with a literal or a capitalised
    constant, on either side) reduced at once by `.min()` / `.max()` / `.amin()` / `.amax()` with no argument:
    k-diffusion's `sigma_min = sigmas[sigmas > 0].min()`, the smallest positive value of a schedule. The result is
    one number; the data-dependent selection lives only inside the expression, which equals
    `torch.where(x > c, x, inf).min()`, so nothing of a data-dependent shape reaches another op. A selection by
    another tensor's mask (`dist[mask].max()`), a sum or mean (which count the kept rows) and a selection kept in
    a variable stay findings."""
    node = hit.node
    if type(node) is not ast.Subscript or type(node.slice) is not ast.Compare:
        return False
    test = node.slice
    if len(test.ops) != 1 or type(test.ops[0]) not in (ast.Gt, ast.GtE, ast.Lt, ast.LtE):
        return False
    left, right = test.left, test.comparators[0]
    target = ast.dump(node.value)
    if not ((ast.dump(left) == target and _constant(right)) or (ast.dump(right) == target and _constant(left))):
        return False
    attr = parent_of(ctx, node)
    if type(attr) is not ast.Attribute or attr.value is not node or attr.attr not in _EXTREMES:
        return False
    call = parent_of(ctx, attr)
    return type(call) is ast.Call and call.func is attr and not call.args and not call.keywords
