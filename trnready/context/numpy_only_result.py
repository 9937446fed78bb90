"""numpy-only-result: a tensor made on the default (CPU) device whose only use is its conversion to NumPy."""
from __future__ import annotations

import ast

from .base import assigned_name, call_taking, parent_of, predicate
from ..astwalk import walk

# `.numpy()` and the conversions that hand a tensor's values to host Python.
_TO_HOST = frozenset({"numpy", "tolist", "item"})


@predicate("numpy-only-result", kinds=("reference",), effect="guard")
def numpy_only_result(ctx, hit) -> bool:
    """The match is an argument of a torch call that names no device (`torch.linspace(a, b, n,
    dtype=torch.float64)`), and the result, possibly through arithmetic, is converted to host values as it is made
    (`(torch.linspace(...) ** 2).numpy()`) or is assigned to a name (`betas = (...) ** 2`) every read of which in
    the function converts it (`return betas.numpy()`, `.tolist()`, `.item()`). Such a tensor is made on the
    default device, the CPU, and leaves torch before it could reach the neuron device: a host-side table or
    schedule, not device work. Only categories in `host-data-categories` are guarded."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    call = call_taking(ctx, hit.node)
    if call is None or any(kw.arg == "device" or kw.arg is None for kw in call.keywords):
        return False
    # up through arithmetic and parentheses to the assignment that names the result
    top = call
    while True:
        up = parent_of(ctx, top)
        if type(up) in (ast.BinOp, ast.UnaryOp):
            top = up
            continue
        break
    if _to_host(ctx, top, up):
        return True  # `(torch.linspace(..., dtype=torch.float64) ** 2).numpy()`: converted as it is made
    bound = assigned_name(ctx, top)
    if bound is None:
        return False
    name, fn = bound
    reads = [n for n in walk(fn) if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load]
    return bool(reads) and all(_to_host(ctx, n, parent_of(ctx, n)) for n in reads)


def _to_host(ctx, value, attr) -> bool:
    """`value.numpy()` / `.tolist()` / `.item()`: `attr` (the parent of `value`) is the conversion, called."""
    return type(attr) is ast.Attribute and attr.value is value and attr.attr in _TO_HOST \
        and type(parent_of(ctx, attr)) is ast.Call
