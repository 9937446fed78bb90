"""not-an-iterator: a `.next()` call on something other than an iterator the code made with `iter()`."""
from __future__ import annotations

import ast

from .base import enclosing_function, predicate
from ..astwalk import walk


@predicate("not-an-iterator", kinds=("method",), effect="drop")
def not_an_iterator(ctx, hit) -> bool:
    """Python 2 iterators had a `.next()` method; Python 3 renamed it `__next__` and reaches it through the `next()`
    builtin. `val_iter = iter(val_loader)` then `val_iter.next()` (crnn.pytorch, and most PyTorch 0.x training loops)
    raises AttributeError on Python 3. Any other `.next()` may be a method the project or a library defines
    (`tokenizer.next()`, a pager), so the call stays a finding only when its receiver is a plain name that every
    assignment in its function (or module, at the top level) binds to `iter(...)`, or an iterator made on the spot
    (`sample_dataloader.__iter__().next()` in LearningToCompare_FSL, `iter(loader).next()`)."""
    node = hit.node
    attr = node.func if type(node) is ast.Call else node
    if type(attr) is ast.Attribute and _makes_iterator(attr.value):
        return False  # `loader.__iter__().next()`, `iter(loader).next()`: an iterator made on the spot
    if type(attr) is not ast.Attribute or type(attr.value) is not ast.Name:
        return True
    name = attr.value.id
    scope = enclosing_function(ctx, node) or ctx.tree
    if scope is None:
        return True
    values = []
    for n in walk(scope):
        if type(n) is ast.Assign:
            if any(type(t) is ast.Name and t.id == name for t in n.targets):
                values.append(n.value)
        elif type(n) in (ast.For, ast.AsyncFor, ast.With, ast.AugAssign, ast.AnnAssign) or \
                type(n) in (ast.FunctionDef, ast.AsyncFunctionDef) and n is scope:
            target = getattr(n, "target", None)
            if type(target) is ast.Name and target.id == name:
                return True
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = n.args
                if any(p.arg == name for p in a.posonlyargs + a.args + a.kwonlyargs):
                    return True
    return not values or not all(type(v) is ast.Call and type(v.func) is ast.Name and v.func.id == "iter"
                                 for v in values)


def _makes_iterator(e) -> bool:
    """`iter(x)` or `x.__iter__()`."""
    if type(e) is not ast.Call:
        return False
    f = e.func
    return (type(f) is ast.Name and f.id == "iter" and len(e.args) == 1) or \
        (type(f) is ast.Attribute and f.attr == "__iter__" and not e.args)
