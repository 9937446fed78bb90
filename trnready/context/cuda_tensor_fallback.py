"""cuda-tensor-fallback: a CUDA-only operator the file reaches only for CUDA tensors, beside a PyTorch path."""
from __future__ import annotations

import ast

from .base import dotted, predicate
from .neuron_guarded import _fails

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _bound_names(st) -> set:
    if type(st) is ast.ImportFrom:
        return {a.asname or a.name for a in st.names if a.name != "*"}
    if type(st) is ast.Import:
        return {a.asname or a.name.split(".", 1)[0] for a in st.names}
    return set()


def _cuda_tensor_test(test) -> bool:
    """`x.is_cuda`, `x.device.type == "cuda"`, `torch.cuda.is_available()`, or an `and` with one of them."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for p in parts:
        if type(p) is ast.Attribute and p.attr == "is_cuda":
            return True
        if type(p) is ast.Call and dotted(p.func) == "torch.cuda.is_available" and not p.args:
            return True
        if type(p) is ast.Compare and len(p.ops) == 1 and type(p.ops[0]) in (ast.Eq, ast.Is):
            sides = (p.left, p.comparators[0])
            if any(type(s) is ast.Constant and s.value == "cuda" for s in sides) and \
                    any(type(s) is ast.Attribute and s.attr in ("type", "device") for s in sides):
                return True
    return False


def _alternative(arm: list, avoid: set) -> str | None:
    """The other arm as a working path: not empty, not failing, naming none of `avoid`; its first name called or
    assigned (the fallback), or "" when it names none."""
    if not arm or _fails(arm):
        return None
    names = [n.id for st in arm for n in ast.walk(st) if type(n) is ast.Name and type(n.ctx) is ast.Load]
    if any(n in avoid for n in names):
        return None
    return names[0] if names else ""


def _fallback_at(ctx, node, avoid: set, stop) -> str | None:
    """The fallback of the innermost CUDA-tensor arm holding `node` below `stop` (a def, or None for the module),
    when that arm has a working alternative."""
    child, p = node, ctx.parent(node)
    while p is not None and p is not stop and not isinstance(p, _DEFS):
        if type(p) is ast.If and any(s is child for s in p.body) and _cuda_tensor_test(p.test):
            return _alternative(p.orelse, avoid)
        if type(p) is ast.IfExp and child is p.body and _cuda_tensor_test(p.test):
            return _alternative([ast.Expr(p.orelse)], avoid)
        child, p = p, ctx.parent(p)
    return None


def _enclosing_def(ctx, node):
    p = ctx.parent(node)
    while p is not None and not isinstance(p, _DEFS):
        p = ctx.parent(p)
    return p


@predicate("cuda-tensor-fallback", kinds=("import",), effect="advisory",
           note="(used only for CUDA tensors; other tensors take the PyTorch path `{held}`, which runs on Neuron)")
def cuda_tensor_fallback(ctx, hit) -> bool | str:
    """An import of a CUDA-only operator (a category of `fallback-categories`: custom kernels, CUDA-only operator
    libraries) whose every use in the file is chosen only for CUDA tensors, beside a PyTorch path for the others:
    the use sits in the arm of an `if` testing `x.is_cuda`, `x.device.type == "cuda"` or
    `torch.cuda.is_available()` whose `else` arm goes on with another function (mmdetection's `FocalLoss`:
    `calculate_loss_func = sigmoid_focal_loss` if `pred.is_cuda`, else `py_sigmoid_focal_loss`), or in a module-level
    function that the file names only in such arms. On Neuron the PyTorch path runs; the operator is worth porting
    for speed, not for the port to work, so the finding is an advisory naming the fallback. An else arm that raises,
    or that uses the operator too, is no fallback; a function the file never names (another module may call it)
    keeps the finding."""
    if hit.rule.category not in ctx.values.get("fallback-categories", ()):
        return False
    st = hit.node
    while st is not None and not isinstance(st, ast.stmt):
        st = ctx.parent(st)
    names = _bound_names(st) if st is not None else set()
    if not names:
        return False
    uses = [n for n in ctx.nodes(ast.Name) if n.id in names and type(n.ctx) is ast.Load]
    if not uses:
        return False
    fallbacks: list = []
    for u in uses:
        got = _fallback_at(ctx, u, names, None)
        if got is not None:
            fallbacks.append(got)
            continue
        fn = _enclosing_def(ctx, u)
        if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef) or ctx.parent(fn) is not ctx.tree:
            return False
        refs = [n for n in ctx.nodes(ast.Name) if n.id == fn.name and type(n.ctx) is ast.Load
                and _enclosing_def(ctx, n) is not fn]
        if not refs:
            return False
        for r in refs:
            got = _fallback_at(ctx, r, names | {fn.name}, _enclosing_def(ctx, r))
            if got is None:
                return False
            fallbacks.append(got)
    return next((f for f in fallbacks if f), "the other arm")
