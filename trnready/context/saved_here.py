"""saved-here: a file this code has just written with torch.save is read back by torch.load."""
from __future__ import annotations

import ast

from .base import call_scope, enclosing_function, predicate
from ..astwalk import walk


@predicate("saved-here", kinds=("call",))
def saved_here(ctx, hit) -> bool:
    """The torch.load call sits in a function (or, outside any function, in a module) that calls torch.save
    earlier: a round trip (`torch.save(state, path)` then `torch.load(path)` in one test or helper). The file
    holds tensors from the device this very run uses, so on a Trainium host it never carries CUDA storages and
    loads without a map_location. A load with no save before it in the same function reads a file made
    elsewhere, possibly on a GPU machine, and stays reported."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    owner = enclosing_function(ctx, call) or ctx.tree
    line = call.lineno
    resolver = ctx.resolver
    for node in _walk(owner):
        if type(node) is not ast.Call or node.lineno >= line:
            continue
        func = node.func
        tail = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
        if tail != "save":
            continue
        if any(resolver.canonical(q) == "torch.save"
               for q in resolver.qualnames(func, call_scope(ctx, node))):
            return True
    return False


def _walk(owner):
    """The nodes of a function, or of a module outside its functions and classes (a save inside some other
    function of the module is not known to run before a top-level load)."""
    if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        yield from walk(owner)
        return
    todo = list(getattr(owner, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))
