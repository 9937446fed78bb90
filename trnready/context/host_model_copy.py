"""host-model-copy: a float64 copy of a model taken while the model is still on the host and never moved."""
from __future__ import annotations

import ast

from .base import assigned_name, call_taking, dotted, parent_of, places_on_device, predicate
from ..astwalk import walk

_COPIES = frozenset({"copy.deepcopy", "deepcopy"})


def _cast(ctx, hit):
    """`x.to(torch.float64)` for a dtype match, `x.double()` for a method match; None for anything else."""
    if hit.matcher.kind == "method":
        node = hit.node
        if type(node) is ast.Attribute:
            node = parent_of(ctx, node)
        ok = type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "double"
        return node if ok else None
    call = call_taking(ctx, hit.node, up=2)
    if call is None or type(call.func) is not ast.Attribute or call.func.attr != "to" or hit.node not in call.args:
        return None
    return call


@predicate("host-model-copy", kinds=("reference", "method"), effect="drop")
def host_model_copy(ctx, hit) -> bool:
    """The match is the dtype of `avg = copy.deepcopy(model).to(torch.float64)` or `.double()` (a name bound inside
    a function),
    a later statement of that function moves `model` to a device (`model.to(device)`, `model.cuda()`), and no
    statement of the function moves `avg` (`avg.to(device)`, `avg.cuda()`, `avg = avg.to(device)`). The copy is
    taken while the model is still on the host, so the float64 model (an averaged or EMA copy kept for
    checkpoints) lives in host memory and is only updated there: no float64 tensor reaches the device. A copy
    moved in the same function, or taken after the model is moved, stays a finding."""
    call = _cast(ctx, hit)
    if call is None:
        return False
    made = call.func.value
    if type(made) is not ast.Call or dotted(made.func) not in _COPIES or len(made.args) != 1 \
            or type(made.args[0]) is not ast.Name:
        return False
    bound = _bound_name(ctx, call)
    if bound is None:
        return False
    (copy_name, fn), source, line = bound, made.args[0].id, call.lineno
    moved_later = copy_moved = False
    for node in walk(fn):
        if type(node) is not ast.Call or type(node.func) is not ast.Attribute or not places_on_device(node):
            continue
        receiver = node.func.value
        if type(receiver) is not ast.Name:
            continue
        if receiver.id == copy_name:
            copy_moved = True
        elif receiver.id == source and node.lineno > line:
            moved_later = True
    return moved_later and not copy_moved


def _bound_name(ctx, value):
    """(name, function) for `name = value` or `name: T = value` inside a function."""
    found = assigned_name(ctx, value)
    if found is not None:
        return found
    up = parent_of(ctx, value)
    if type(up) is ast.AnnAssign and up.value is value and type(up.target) is ast.Name:
        p = parent_of(ctx, up)
        while p is not None and type(p) not in (ast.FunctionDef, ast.AsyncFunctionDef):
            p = parent_of(ctx, p)
        return (up.target.id, p) if p is not None else None
    return None
