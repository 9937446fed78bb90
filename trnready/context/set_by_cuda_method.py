"""set-by-cuda-method: code that runs only when an attribute is set, and only a `cuda()` method sets it."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from ..astwalk import walk


@predicate("set-by-cuda-method", effect="guard")
def set_by_cuda_method(ctx, hit) -> bool:
    """The match sits in the body of `if self.res is not None:` (or `if self.res:`) inside a class whose only
    assignments of `self.res` to something other than None, False or 0 are in a method named `cuda` (`def
    cuda(self): self.res = StandardGpuResources()`; `cpu()` and `__init__` set it to None). The body runs only after
    the object was moved with its own `.cuda()`, which a port replaces: on a Neuron machine the attribute stays
    None and the block never runs. An attribute set anywhere else (another method, a subclass in the file, a
    `setattr`) leaves the block reported."""
    node = hit.node
    child, p = node, parent_of(ctx, node)
    while p is not None and type(p) not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        if type(p) is ast.If and any(s is child for s in p.body):
            name = _tested_attribute(p.test)
            if name:
                key = ("set-by-cuda-method", id(p), name)
                if key not in ctx.memo:
                    ctx.memo[key] = _set_only_in_cuda(ctx, p, name)
                if ctx.memo[key]:
                    return True
        child, p = p, parent_of(ctx, p)
    return False


def _tested_attribute(test) -> str:
    """`self.X is not None` / `self.X` -> "X"."""
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.IsNot \
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None:
        test = test.left
    if type(test) is ast.Attribute and type(test.value) is ast.Name and test.value.id == "self":
        return test.attr
    return ""


def _set_only_in_cuda(ctx, node, name: str) -> bool:
    cls = node
    while cls is not None and type(cls) is not ast.ClassDef:
        cls = parent_of(ctx, cls)
    if cls is None or ctx.tree is None:
        return False
    seen = False
    for n in walk(ctx.tree):
        if type(n) is ast.Call and getattr(n.func, "id", getattr(n.func, "attr", "")) == "setattr":
            return False
        targets: list = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
            targets = [n.target]
        for t in targets:
            for e in walk(t):
                if type(e) is ast.Attribute and e.attr == name and type(e.ctx) is ast.Store:
                    value = getattr(n, "value", None)
                    if type(value) is ast.Constant and value.value in (None, False, 0) and type(n) is not ast.AugAssign:
                        continue
                    fn = parent_of(ctx, n)
                    while fn is not None and type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
                        fn = parent_of(ctx, fn)
                    if fn is None or fn.name != "cuda" or parent_of(ctx, fn) is not cls:
                        return False
                    seen = True
    return seen
