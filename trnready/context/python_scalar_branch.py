"""python-scalar-branch: a float64 chosen only when the value is a Python float, never a tensor."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


@predicate("python-scalar-branch", kinds=("reference",))
def python_scalar_branch(ctx, hit) -> bool:
    """The reference sits in code that runs only for a Python float: in the non-tensor arm of a tensor check (the
    body of `if not torch.is_tensor(t):` or `if not isinstance(t, torch.Tensor):`, the `else` of `if
    torch.is_tensor(t):`, also as a conditional expression) and, inside it, in the arm of `isinstance(x, float)`
    (or a tuple of types holding `float`) that holds. That is how diffusers-style models turn a timestep given as a
    Python number into a tensor, `dtype = torch.float64 if isinstance(timestep, float) else torch.int64`, keeping
    the number's own precision: a pipeline handing over `scheduler.timesteps` (tensors) never gets there. A float64
    made outside either check (`torch.zeros(n, dtype=torch.float64)`, or a non-tensor arm that makes every value
    float64: `torch.tensor(t, dtype=torch.double)` for all-reduced metrics) stays reported."""
    non_tensor = python_float = False
    child, up = hit.node, parent_of(ctx, hit.node)
    while up is not None and not isinstance(up, _SCOPES):
        if type(up) in (ast.If, ast.IfExp) and child is not up.test:
            arm = child in up.body if type(up.body) is list else child is up.body
            for e, truth in _facts(up.test, arm):
                non_tensor = non_tensor or (not truth and _tensor_check(e))
                python_float = python_float or (truth and _float_check(e))
        child, up = up, parent_of(ctx, up)
    return non_tensor and python_float


def _facts(e, truth: bool):
    """(condition, whether it holds) for the parts of a test known to hold or fail in one arm."""
    if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
        yield from _facts(e.operand, not truth)
    elif type(e) is ast.BoolOp and (type(e.op) is ast.And) == truth:
        for v in e.values:  # every part of a true `and`, of a false `or`
            yield from _facts(v, truth)
    else:
        yield e, truth


def _isinstance(e):
    if type(e) is ast.Call and type(e.func) is ast.Name and e.func.id == "isinstance" and len(e.args) == 2:
        t = e.args[1]
        return t.elts if type(t) is ast.Tuple else [t]
    return None


def _tensor_check(e) -> bool:
    """`torch.is_tensor(t)`, `is_tensor(t)`, `isinstance(t, torch.Tensor)`."""
    if type(e) is ast.Call and dotted(e.func).rsplit(".", 1)[-1] == "is_tensor":
        return True
    types = _isinstance(e)
    return types is not None and len(types) == 1 and dotted(types[0]).endswith("Tensor")


def _float_check(e) -> bool:
    """`isinstance(x, float)` or `isinstance(x, (int, float))`: a Python number, no tensor type among them."""
    types = _isinstance(e)
    return types is not None and any(type(t) is ast.Name and t.id == "float" for t in types) and not any(
        dotted(t).endswith("Tensor") for t in types)
