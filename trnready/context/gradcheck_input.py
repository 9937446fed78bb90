"""gradcheck-input: float64 inputs of a numerical gradient check, which needs 64 bits by design."""
from __future__ import annotations

import ast

from .base import enclosing_function, name_globs, predicate
from ..astwalk import walk


def _calls_gradcheck(func, pat) -> bool:
    for n in walk(func):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if pat.match(name):
                return True
    return False


@predicate("gradcheck-input", kinds=("call", "method", "reference", "keyword"), effect="guard")
def gradcheck_input(ctx, hit) -> bool:
    """A float64 match inside a function that runs a numerical gradient check, or prepares its inputs: the
    function's name, or the name of a call it makes, matches `gradcheck-functions` (`gradcheck`,
    `gradgradcheck`, a project's `self.gradcheck(...)` or `tensor_to_gradcheck_var`). Finite-difference
    gradient checks need 64-bit floats on purpose; casting them to float32, the category's usual fix, would
    break the check. The port decision is where such tests run (the CPU), not their dtype. Only float64
    findings are guarded."""
    if hit.rule.category != "float64":
        return False
    pat = name_globs(ctx, "gradcheck-functions")
    if pat is None:
        return False
    func = enclosing_function(ctx, hit.node)
    while func is not None:
        key = "gradcheck-input:%d" % id(func)
        found = ctx.memo.get(key)
        if found is None:
            found = ctx.memo[key] = bool(pat.match(func.name)) or _calls_gradcheck(func, pat)
        if found:
            return True
        func = enclosing_function(ctx, func)
    return False
