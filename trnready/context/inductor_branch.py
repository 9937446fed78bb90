"""inductor-branch: code inside the branch taken only when the compile backend is Inductor."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


def _names_inductor(test) -> bool:
    """`backend == "inductor"`, `"inductor" == cfg.backend`, `backend in ("inductor", ...)`."""
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        return any(_names_inductor(v) for v in test.values)
    if type(test) is not ast.Compare or len(test.ops) != 1:
        return False
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if type(op) is ast.Eq:
        return any(type(s) is ast.Constant and s.value == "inductor" for s in (left, right))
    if type(op) is ast.In and type(right) in (ast.Tuple, ast.List, ast.Set):
        elts = right.elts  # type: ignore[attr-defined]  # checked just above: a Tuple, List or Set
        return bool(elts) and all(type(e) is ast.Constant and e.value == "inductor" for e in elts)
    return False


@predicate("inductor-branch", kinds=("reference", "call", "method", "keyword"))
def inductor_branch(ctx, hit) -> bool:
    """The match sits in the body of `if backend == "inductor":` (or an `elif` of that form, or
    `backend in ("inductor",)`): the code already runs only when Inductor is the compile backend,
    which is what the fix of an Inductor-option rule asks for. On the neuron backend the branch is
    not taken. The `else` branch and the condition itself are not covered."""
    child, p = hit.node, parent_of(ctx, hit.node)
    while p is not None:
        if type(p) is ast.If and child in p.body and _names_inductor(p.test):
            return True
        if type(p) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            return False
        child, p = p, parent_of(ctx, p)
    return False
