"""cast-for-host: a cast whose result is handed straight to NumPy or Python."""
from __future__ import annotations

import ast

from ..astwalk import walk
from .base import enclosing_function, parent_of, predicate

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


# Methods that keep a tensor where it is, between `.cpu()` and a cast after it.
_KEEP = frozenset({"detach", "clone", "contiguous"})


def _on_host_already(call) -> bool:
    """The cast's receiver was brought to the host in the same chain: `x.detach().cpu().to(torch.float64)`,
    `x.cpu().double()`."""
    node = call.func.value
    while type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _KEEP:
        node = node.func.value
    return type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "cpu"


def _dtype_only(call) -> bool:
    """`.to(torch.float32)`, `.to(dtype=x.dtype)`: a cast, no placement."""
    if any(k.arg != "dtype" for k in call.keywords):
        return False
    return all(type(a) is ast.Attribute and type(a.value) is ast.Name and a.value.id == "torch" for a in call.args)


def _placed(call) -> bool:
    return type(call) is ast.Call and type(call.func) is ast.Attribute and (
        call.func.attr == "cuda" or call.func.attr == "to" and not _dtype_only(call))


def _stays_on_host(ctx, call) -> bool:
    """Nothing after the cast moves its result to a device: not the rest of its chain, nor (when the chain is
    assigned to a name) any `.cuda()` / `.to(...)` other than a dtype cast on that name in its function."""
    node = call
    while True:
        attr = parent_of(ctx, node)
        if type(attr) is not ast.Attribute or attr.value is not node:
            break
        up = parent_of(ctx, attr)
        if type(up) is not ast.Call or up.func is not attr:
            break
        if _placed(up):
            return False
        node = up
    stmt = parent_of(ctx, node)
    if type(stmt) is ast.Assign and stmt.value is node:
        names = {t.id for t in stmt.targets if type(t) is ast.Name}
        if len(names) != len(stmt.targets):
            return False
        scope = enclosing_function(ctx, stmt) or ctx.tree
        for n in walk(scope):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _placed(n) \
                    and type(n.func.value) is ast.Name and n.func.value.id in names:
                return False
    return True


@predicate("cast-for-host", kinds=("method", "reference"), effect="guard")
def cast_for_host(ctx, hit) -> bool:
    """A cast to a 64-bit dtype whose result goes straight to the host: the call chain continues only with
    `.detach()`, `.cpu()`, `.clone()` or `.contiguous()` and ends in `.numpy()`, `.tolist()` or `.item()`
    (`points.double().cpu().numpy()` for open3d, `x.to(torch.float64).tolist()`). The 64-bit values are wanted
    by a host library, not by device arithmetic; the cast can as well run after `.cpu()`. So does a cast that does
    run after `.cpu()` in its own chain (`pred["energy"].detach().cpu().to(torch.float64)`, `At_val.cpu().double()`
    for a CPU sparse solver), when nothing moves its result back: not the rest of the chain, nor a `.cuda()` /
    `.to(device)` of the name it is assigned to in its function (branch prec35a). Only categories in
    `host-data-categories` are guarded."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    call = _cast_call(ctx, hit.node)
    if call is None or call.func.attr in _SIZED_BY_DATA:
        return False
    if call.func.attr in ("double", "to", "type") and _on_host_already(call) and _stays_on_host(ctx, call):
        return True
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
