"""after-cuda-oom: statements reached only after a CUDA out-of-memory error was swallowed."""
from __future__ import annotations

import ast

from .base import predicate
from ..astwalk import walk

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _names_cuda_oom(handler) -> bool:
    """The handler looks at a CUDA out-of-memory message (`"CUDA out of memory" in str(e)`) or catches
    `torch.cuda.OutOfMemoryError` / `torch.OutOfMemoryError`."""
    t = handler.type
    if isinstance(t, ast.Attribute) and t.attr == "OutOfMemoryError":
        return True
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and "cuda out of memory" in n.value.lower()
               for st in handler.body for n in walk(st))


def _oom_ignorers(ctx) -> frozenset:
    """Functions of the file decorated `@contextmanager` whose body is a `try: yield` with a handler that
    names the CUDA out-of-memory error (detectron2's `_ignore_torch_cuda_oom`, copied into many projects)."""
    def compute(c) -> frozenset:
        found = set()
        for fn in c.nodes(ast.FunctionDef):
            if not any((d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == "contextmanager"
                       for d in fn.decorator_list):
                continue
            for st in fn.body:
                if isinstance(st, ast.Try) and any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield)
                                                   for s in st.body) \
                        and any(_names_cuda_oom(h) for h in st.handlers):
                    found.add(fn.name)
        return frozenset(found)
    return ctx.fact("after-cuda-oom:ignorers", compute)


def _returns_under_ignorer(st, ignorers) -> bool:
    """`with _ignore_torch_cuda_oom(): return func(*args)`: the block returns unless the error was swallowed."""
    if not isinstance(st, ast.With) or not st.body or not isinstance(st.body[-1], ast.Return):
        return False
    return any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name)
               and i.context_expr.func.id in ignorers for i in st.items)


def _asks_cuda_oom(test) -> bool:
    """`"CUDA out of memory" in trace_content` (also inside `and` / `or`): the test holds only when the text is a
    CUDA out-of-memory error."""
    if isinstance(test, ast.BoolOp):
        return isinstance(test.op, ast.And) and any(map(_asks_cuda_oom, test.values)) \
            or isinstance(test.op, ast.Or) and all(map(_asks_cuda_oom, test.values))
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In) \
        and isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) \
        and "cuda out of memory" in test.left.value.lower()


def _in_oom_branch(ctx, node) -> bool:
    """Inside the body of an `if` that asks whether an error's text is a CUDA out-of-memory error (the handler of
    OpenNMT's training step: `if "CUDA out of memory" in trace_content: torch.cuda.empty_cache()`)."""
    child, p = node, ctx.parent(node)
    while p is not None and not isinstance(p, _DEFS):
        if isinstance(p, ast.If) and any(s is child for s in p.body) and _asks_cuda_oom(p.test):
            return True
        child, p = p, ctx.parent(p)
    return False


@predicate("after-cuda-oom", effect="guard")
def after_cuda_oom(ctx, hit) -> bool:
    """A statement that follows, in the same block, a `with` of a context manager that swallows only CUDA
    out-of-memory errors and whose body returns: `with _ignore_torch_cuda_oom(): return func(*args)` then
    `torch.cuda.empty_cache()` and a retry on CPU copies under `autocast(enabled=False)` (detectron2's
    `retry_if_cuda_oom`, copied into Mask2Former and others). The context manager is a `@contextmanager`
    function of the same file whose `try: yield` has a handler that names the CUDA out-of-memory message or
    catches `OutOfMemoryError`. On Neuron no CUDA out-of-memory error is raised, so the first `return` always
    leaves and the retry path never runs. The first call inside the `with` is not guarded. Likewise the body of an
    `if` whose test asks whether an error's text holds the CUDA out-of-memory message (`if "CUDA out of memory" in
    trace_content: torch.cuda.empty_cache()`): that text never comes from Neuron."""
    if _in_oom_branch(ctx, hit.node):
        return True
    ignorers = _oom_ignorers(ctx)
    if not ignorers:
        return False
    child = hit.node
    p = ctx.parent(child)
    while p is not None:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(p, field, None)
            if not isinstance(block, list) or not any(s is child for s in block):
                continue
            for st in block:
                if st is child:
                    break
                if _returns_under_ignorer(st, ignorers):
                    return True
        if isinstance(p, _DEFS):
            return False
        child, p = p, ctx.parent(p)
    return False
