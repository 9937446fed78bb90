"""pick-for-parameters: a device pick whose only use is where a module's own parameters and buffers are first made."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, parent_of, predicate
from ..astwalk import walk

_PARAMETER = frozenset({"Parameter", "nn.Parameter", "torch.nn.Parameter"})


@predicate("pick-for-parameters", kinds=("reference", "device"))
def pick_for_parameters(ctx, hit) -> bool:
    """The match is the check or the device string of a device pick in a method of a class (`device =
    torch.device("cuda" if torch.cuda.is_available() else "cpu")`), and every read of the picked name in that
    method is the `device=` of a tensor made straight into the module's state: the argument of
    `nn.Parameter(torch.empty(n, device=device))`, or the tensor given to `self.register_buffer(name, ...)`. A
    parameter or buffer goes wherever the module goes: the model's owner moves it (`model.to(device)`), so on
    Trainium the CPU the pick falls back to only decides where the first copy is made (pytorch_geometric_temporal's
    A3TGCN). A pick also read for anything else (a tensor of the forward pass, a `.to(device)`, a value stored on
    `self`) stays a finding."""
    found = _pick(ctx, hit.node)
    if found is None:
        return False
    st, name = found
    fn = enclosing_function(ctx, st)
    if fn is None or type(parent_of(ctx, fn)) is not ast.ClassDef:
        return False
    reads = [n for n in walk(fn) if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load]
    return bool(reads) and all(_into_module_state(ctx, r) for r in reads)


def _pick(ctx, node):
    """(statement, name) when the node is in the value of `name = <pick>`, the pick being a conditional
    (`"cuda" if ... else "cpu"`), `torch.device(...)` of one, or a device string."""
    child, up = node, parent_of(ctx, node)
    while up is not None and not isinstance(up, ast.stmt):
        child, up = up, parent_of(ctx, up)
    if type(up) is not ast.Assign or child is not up.value or len(up.targets) != 1 \
            or type(up.targets[0]) is not ast.Name:
        return None
    value = up.value
    if type(value) is ast.Call and (dotted(value.func) or "").endswith("device") and len(value.args) == 1 \
            and not value.keywords:
        value = value.args[0]
    if type(value) is ast.IfExp or type(value) is ast.Constant and type(value.value) is str:
        return up, up.targets[0].id
    return None


def _into_module_state(ctx, read) -> bool:
    """`device=<read>` of a call that is the (first) argument of nn.Parameter(...) or the tensor argument of
    self.register_buffer(name, tensor)."""
    kw = parent_of(ctx, read)
    if type(kw) is not ast.keyword or kw.arg != "device":
        return False
    made = parent_of(ctx, kw)
    if type(made) is not ast.Call:
        return False
    outer = parent_of(ctx, made)
    if type(outer) is not ast.Call or made not in outer.args:
        return False
    name = dotted(outer.func) or ""
    if name in _PARAMETER:
        return outer.args[0] is made
    return name == "self.register_buffer" and len(outer.args) >= 2 and outer.args[1] is made
