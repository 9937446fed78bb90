"""cast-for-host: a cast whose result is handed straight to NumPy or Python."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

# Methods that keep a tensor's values on the way to the host, and the conversions that end there.
_PASS = frozenset({"detach", "cpu", "clone", "contiguous"})
_TO_HOST = frozenset({"numpy", "tolist", "item"})
# Ops whose output size depends on the data: no cast, they run on the device before anything reaches the host
# (`(tokens == sep).nonzero().tolist()` still computes nonzero on the device tensor).
_SIZED_BY_DATA = frozenset({"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount"})


def _cast_call(ctx, node):
    """The call that casts: `x.double()` for a method match (the node is the call or its attribute), `x.to(...)`
    or `x.type(...)` for a dtype passed to it."""
    for _ in range(3):
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            return node
        up = parent_of(ctx, node)
        if up is None or isinstance(up, ast.stmt):
            return None
        node = up
    return None


@predicate("cast-for-host", kinds=("method", "reference"), effect="guard")
def cast_for_host(ctx, hit) -> bool:
    """A cast to a 64-bit dtype whose result goes straight to the host: the call chain continues only with
    `.detach()`, `.cpu()`, `.clone()` or `.contiguous()` and ends in `.numpy()`, `.tolist()` or `.item()`
    (`points.double().cpu().numpy()` for open3d, `x.to(torch.float64).tolist()`). The 64-bit values are wanted
    by a host library, not by device arithmetic; the cast can as well run after `.cpu()`. Only categories in
    `host-data-categories` are guarded."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    call = _cast_call(ctx, hit.node)
    if call is None or call.func.attr in _SIZED_BY_DATA:
        return False
    node = call
    while True:
        attr = parent_of(ctx, node)
        if type(attr) is not ast.Attribute or attr.value is not node:
            return False
        up = parent_of(ctx, attr)
        if type(up) is not ast.Call or up.func is not attr:
            return False
        if attr.attr in _TO_HOST:
            return True
        if attr.attr not in _PASS:
            return False
        node = up
