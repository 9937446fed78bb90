"""foreign-keywords: a call passing a keyword the library function does not take calls the project's own."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("foreign-keywords", kinds=("method", "call"))
def foreign_keywords(ctx, hit) -> bool:
    """A method matched by name only (`x.compile(backend="inductor")`, meant as nn.Module.compile) called
    with a keyword the library function does not accept (`teacher.compile(backend=b, compile_model=True)`).
    The library would reject that call with a TypeError, so the callee is a method of the project's own
    class that happens to share the name; the library call it makes inside, if any, is matched where it is
    written. The accepted keywords are catalogue data: [context.values] `<name>-keywords` (for example
    `compile-keywords`); without such a list the predicate never holds. `**kwargs` proves nothing."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    accepted = ctx.values.get(f"{hit.name.rsplit('.', 1)[-1]}-keywords")
    if not accepted:
        return False
    return any(kw.arg is not None and kw.arg not in accepted for kw in call.keywords)
