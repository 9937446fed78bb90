"""ends-on-cpu: a device pick in a function that moves its model to the CPU and never uses the device again."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, is_cpu, parent_of, places_on_device, predicate
from ..astwalk import walk


def _pick(ctx, node):
    """(statement, device name) when the node is in the test of `if <check>: device = ...` or in the value of
    `device = ... if <check> else ...`; None otherwise."""
    child, up = node, parent_of(ctx, node)
    while up is not None and not isinstance(up, ast.stmt):
        child, up = up, parent_of(ctx, up)
    if type(up) is ast.If and child is up.test:
        names = {t.id for st in up.body + up.orelse if type(st) is ast.Assign
                 for t in st.targets if type(t) is ast.Name}
        return (up, names.pop()) if len(names) == 1 else None
    # only a pick: a conditional device or a device string (`sizes = torch.cuda.LongTensor(n)` builds a tensor)
    if type(up) is ast.Assign and child is up.value and len(up.targets) == 1 and type(up.targets[0]) is ast.Name \
            and (type(up.value) is ast.IfExp or type(up.value) is ast.Constant and type(up.value.value) is str):
        return up, up.targets[0].id
    return None


def _to_cpu(st) -> str:
    """The moved object's text for `model.to("cpu")`, `model.cpu()` or `model = model.to(torch.device("cpu"))` as a
    whole statement, the object a name or an attribute of one (`self.model`); "" otherwise."""
    value = st.value if type(st) in (ast.Expr, ast.Assign) else None
    if type(value) is not ast.Call or type(value.func) is not ast.Attribute:
        return ""
    if not (value.func.attr == "cpu" and not value.args
            or value.func.attr == "to" and len(value.args) == 1 and is_cpu(value.args[0])):
        return ""
    return dotted(value.func.value)


def _brought_to_device(fn, obj: str, device: str, before: int) -> bool:
    """Before line `before`, the function moved `obj` to a device as a whole (`model.to(device)`, `model.cuda()`,
    `model = model.to(device)`), built it from a call handed the picked device (`model = load(path,
    device=device)`, `map_location=device`) or handed one of its methods what the device computed
    (`model.load_state_dict(average(paths, device))`): the object is a model the device only served, not a result
    computed there (`embedding = encoder(x.to(device))` ... `embedding = embedding.cpu()` is an inference script's
    output, and its device pick is a port item)."""
    for st in walk(fn):
        if not isinstance(st, (ast.Expr, ast.Assign)) or st.lineno >= before or type(st.value) is not ast.Call:
            continue
        call = st.value
        f = call.func
        if type(f) is ast.Attribute and dotted(f.value) == obj and (
                f.attr == "cuda" or f.attr == "to" and call.args and not is_cpu(call.args[0])):
            return True
        # `model.load_state_dict(average(paths, device))`: the model takes in what the device computed
        if type(st) is ast.Expr and type(f) is ast.Attribute and dotted(f.value) == obj and any(
                type(n) is ast.Name and n.id == device for a in (*call.args, *(k.value for k in call.keywords))
                for n in walk(a)):
            return True
        if type(st) is ast.Assign and any(dotted(t) == obj for t in st.targets) and any(
                type(a) is ast.Name and a.id == device for a in (*call.args, *(k.value for k in call.keywords))):
            return True
    return False


@predicate("ends-on-cpu", kinds=("reference", "device"), effect="guard")
def ends_on_cpu(ctx, hit) -> bool:
    """The match is the check or the device string of a device pick (`device = "cpu"` / `if torch.cuda.is_available():
    device = "cuda"`, or `device = "cuda" if ... else "cpu"`) in a function whose own body (not a branch of it)
    later moves the model to the CPU (`model.to("cpu")`, `model.cpu()`), and after that statement the function
    neither reads the picked device again nor places anything on a device. Export and conversion scripts do that:
    the device only speeds up work on the weights (averaging checkpoints), then the model is traced, scripted or
    saved on the CPU. Everything the script leaves behind is made on the host, so on Trainium the CPU the pick falls
    back to is already the intended result. A function that uses the device after the move stays a finding."""
    found = _pick(ctx, hit.node)
    if found is None:
        return False
    st, name = found
    fn = enclosing_function(ctx, st)
    if fn is None:
        return False
    moved, obj = next(((s, o) for s in fn.body if s.lineno > st.end_lineno for o in [_to_cpu(s)] if o), (None, ""))
    if moved is None or not _brought_to_device(fn, obj, name, moved.lineno):
        return False
    after = moved.end_lineno
    for n in walk(fn):
        line = getattr(n, "lineno", 0)
        if line <= after:
            continue
        if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load:
            return False
        if type(n) is ast.Call and places_on_device(n):
            return False
    return True
