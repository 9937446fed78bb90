"""not-into-tensor: a value that is not handed straight to a torch function."""
from __future__ import annotations

import ast

from .base import predicate

_TENSOR_METHODS = frozenset({"new_tensor", "new_full", "fill_"})


@predicate("not-into-tensor", kinds=("call",))
def not_into_tensor(ctx, hit) -> bool:
    """The call's result is not passed directly to a torch function or a tensor-making method
    (`torch.tensor(time.time_ns())`, `x.new_tensor(...)`, `x.fill_(...)`). A nanosecond timestamp
    logged or compared in Python never reaches the device, so only one written into a tensor matters."""
    outer = ctx.index.outer_calls.get(id(hit.node)) if ctx.index.outer_calls else None
    if outer is None:
        return True
    func, scope = outer
    if type(func) is ast.Attribute and func.attr in _TENSOR_METHODS:
        return False
    resolver = ctx.resolver
    return not any(resolver.canonical(q).startswith("torch.") for q in resolver.qualnames(func, scope))
