"""retried-with-argument: a call whose failure is handled by calling it again with the argument it lacks."""
from __future__ import annotations

import ast

from ..astwalk import walk
from .base import argument_of, caught_names, enclosing_try_bodies, imported_name, predicate

# handlers that catch what a device restore raises (RuntimeError), or anything
_BROAD = frozenset({"Exception", "BaseException", "RuntimeError"})


@predicate("retried-with-argument", kinds=("call",))
def retried_with_argument(ctx, hit) -> bool:
    """The matched call sits in the body of a `try:` whose handler (bare, `Exception`, `BaseException` or
    `RuntimeError`) calls the same function again and passes an argument the matcher requires absent:

        try:
            state = torch.load(path)
        except:
            state = torch.load(path, map_location="cpu")

    Where the first call fails on a machine without the device, the handler already does what the fix asks for,
    so the code works as written. lip2sp_pytorch does this in six scripts (fresh78: six `other` verdicts on
    TRN351). A handler that only logs, re-raises, or calls the function again without that argument keeps the
    finding. Used by TRN351."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    wanted = [p for p in hit.matcher.args if p.op == "absent"]
    if not wanted:
        return False
    try_node = next(enclosing_try_bodies(ctx, call), None)
    if try_node is None:
        return False
    name = imported_name(ctx, call.func)[0]
    if not name:
        return False
    for handler in try_node.handlers:
        named = caught_names(handler)
        if named is not None and not named & _BROAD:
            continue
        for st in handler.body:
            for n in walk(st):
                if type(n) is ast.Call and imported_name(ctx, n.func)[0] == name \
                        and any(argument_of(p, n) is not None for p in wanted):
                    return True
    return False
