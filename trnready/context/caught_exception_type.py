"""caught-exception-type: a CUDA exception class named only as what a handler catches or a check tests."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("caught-exception-type", kinds=("reference",))
def caught_exception_type(ctx, hit) -> bool:
    """The matched name is the type an `except` clause catches (alone or in its tuple: `except (RuntimeError,
    torch.cuda.OutOfMemoryError):`) or the class an `isinstance(e, ...)` check tests. `torch.cuda.OutOfMemoryError`
    is an alias of the device-neutral `torch.OutOfMemoryError` (PyTorch 2.5+), defined in every build, CUDA or
    not, so naming it in a handler runs unchanged on Neuron; raising it is still reported."""
    node = hit.node
    up = parent_of(ctx, node)
    if type(up) is ast.Tuple:
        node, up = up, parent_of(ctx, up)
    if type(up) is ast.ExceptHandler:
        return up.type is node
    return type(up) is ast.Call and type(up.func) is ast.Name and up.func.id == "isinstance" \
        and len(up.args) == 2 and up.args[1] is node
