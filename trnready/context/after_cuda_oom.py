"""after-cuda-oom: statements reached only after a CUDA out-of-memory error was swallowed."""
from __future__ import annotations

import ast

from .base import predicate

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _names_cuda_oom(handler) -> bool:
    """The handler looks at a CUDA out-of-memory message (`"CUDA out of memory" in str(e)`) or catches
    `torch.cuda.OutOfMemoryError` / `torch.OutOfMemoryError`."""
    t = handler.type
    if isinstance(t, ast.Attribute) and t.attr == "OutOfMemoryError":
        return True
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and "cuda out of memory" in n.value.lower()
               for st in handler.body for n in ast.walk(st))


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


@predicate("after-cuda-oom", effect="guard")
def after_cuda_oom(ctx, hit) -> bool:
    """A statement that follows, in the same block, a `with` of a context manager that swallows only CUDA
    out-of-memory errors and whose body returns: `with _ignore_torch_cuda_oom(): return func(*args)` then
    `torch.cuda.empty_cache()` and a retry on CPU copies under `autocast(enabled=False)` (detectron2's
    `retry_if_cuda_oom`, copied into Mask2Former and others). The context manager is a `@contextmanager`
    function of the same file whose `try: yield` has a handler that names the CUDA out-of-memory message or
    catches `OutOfMemoryError`. On Neuron no CUDA out-of-memory error is raised, so the first `return` always
    leaves and the retry path never runs. The first call inside the `with` is not guarded."""
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
