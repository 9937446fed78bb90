"""selection-to-host: the rows a boolean mask selects are only counted and handed to the host."""
from __future__ import annotations

import ast

from .base import assigned_name, parent_of, predicate

# Calls turning a tensor into host data (the selection's size then lives outside the compiled graph).
_TO_HOST = frozenset({"numpy", "tolist", "item"})
# Calls that keep the values on their way to the host.
_PASS = frozenset({"cpu", "detach"})


def _use(ctx, name: ast.Name) -> str:
    """'host' for `y.numpy(...)` / `y.cpu().numpy()` / `y.tolist()`, 'size' for `y.shape` / `y.size(...)` /
    `len(y)` / `y.numel()`, '' for any other use."""
    node: ast.expr = name
    while True:
        up = parent_of(ctx, node)
        if type(up) is ast.Call and up.func is not node and type(up.func) is ast.Name and up.func.id == "len" \
                and node is name:
            return "size"
        if type(up) is not ast.Attribute or up.value is not node:
            return ""
        if up.attr == "shape" and node is name:
            return "size"
        call = parent_of(ctx, up)
        if type(call) is not ast.Call or call.func is not up:
            return ""
        if up.attr in ("size", "numel", "dim") and node is name:
            return "size"
        if up.attr in _TO_HOST:
            return "host"
        if up.attr not in _PASS:
            return ""
        node = call


@predicate("selection-to-host", kinds=("subscript",))
def selection_to_host(ctx, hit) -> bool:
    """The match is `y = x[mask]` in a function whose every later read of `y` counts its rows (`y.shape[0]`,
    `len(y)`) or hands it to the host (`y.numpy()`, `y.cpu().tolist()`), at least one of them the latter: the
    selected rows leave the device at once (a CPU inference session, a metric), so no tensor of that
    data-dependent shape goes on to a device op. A selection read by anything else stays a finding."""
    got = assigned_name(ctx, hit.node)
    if got is None:
        return False
    name, fn = got
    line = hit.node.lineno
    uses = [_use(ctx, n) for n in ast.walk(fn) if type(n) is ast.Name and n.id == name
            and type(n.ctx) is ast.Load and n.lineno > line]
    return bool(uses) and "host" in uses and all(uses)
