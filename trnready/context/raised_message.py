"""raised-message: a value that only builds the text of an exception the code raises."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("raised-message", kinds=("call", "method", "reference", "subscript"))
def raised_message(ctx, hit) -> bool:
    """The match sits in an argument of the exception a `raise` statement builds (`raise ValueError(f"compute
    capability {torch.cuda.get_device_capability()} is too old")`): the query only fills in the message of an
    error the program stops with anyway, on a path the port reaches only when the check before it fails. The
    check deciding to raise is the place to change and is matched on its own. The exception class itself
    (`raise torch.cuda.OutOfMemoryError()`), the `from` cause, and a value bound or passed anywhere else still
    match."""
    node = hit.node
    child, p = node, parent_of(ctx, node)
    inside_argument = False
    while p is not None and not isinstance(p, ast.stmt):
        if isinstance(p, ast.Call) and child is not p.func:
            inside_argument = True
        if isinstance(p, (ast.Lambda, ast.NamedExpr)):
            return False
        child, p = p, parent_of(ctx, p)
    return inside_argument and type(p) is ast.Raise and p.exc is child
