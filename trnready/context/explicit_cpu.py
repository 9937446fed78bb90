"""explicit-cpu: a value the code itself creates on the CPU (`device="cpu"`)."""
from __future__ import annotations

import ast

from .base import enclosing_function, is_cpu, parent_of, places_on_device, predicate

# How far up the syntax tree the creating call may sit: `f(x, dtype=torch.float64, device="cpu")` holds the
# dtype two levels up (keyword, call), `torch.zeros(n, dtype=torch.int64, device="cpu")` likewise.
_UP = 3


def _creates_on_cpu(call, arg) -> bool:
    """`arg` is an argument (not the callee) of a call with `device="cpu"`. A later `.cpu()` or
    `.to("cpu")` does not count: the operation before it ran wherever its inputs were."""
    if arg is call.func:
        return False
    return any(kw.arg == "device" and is_cpu(kw.value) for kw in call.keywords)


def _moved_to_cpu(e) -> bool:
    """`x.cpu()`, `x[None].cpu()`, `x.to("cpu").float()`: the expression itself takes its tensor to the host (the
    receivers are followed through indexing and further method calls, `x.cpu().float()`)."""
    for _ in range(8):
        if type(e) is ast.Subscript:
            e = e.value
            continue
        if type(e) is not ast.Call or type(e.func) is not ast.Attribute:
            return False
        attr = e.func.attr
        if attr == "cpu" and not e.args:
            return True
        if attr == "to" and (e.args and is_cpu(e.args[0]) or any(kw.arg == "device" and is_cpu(kw.value)
                                                                 for kw in e.keywords)):
            return True
        e = e.func.value
    return False


def _input_on_cpu(call) -> bool:
    """The operation's input tensor (its first positional argument) is taken to the host in the call itself:
    `F.interpolate(img[None].cpu(), size=(h, w), mode="bicubic")` runs on the CPU on every machine."""
    return type(call) is ast.Call and bool(call.args) and _moved_to_cpu(call.args[0])


def _root_name(e):
    """`featmap[None]`, `v.unsqueeze(0).float()`: the name whose tensor the expression reads, through indexing and
    method calls that place nothing (`x.cuda()[0]` has none)."""
    for _ in range(8):
        if type(e) is ast.Name:
            return e
        if type(e) is ast.Subscript:
            e = e.value
        elif type(e) is ast.Call and type(e.func) is ast.Attribute and not places_on_device(e):
            e = e.func.value
        else:
            return None
    return None


def _reads(value, name: str) -> bool:
    return any(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load for n in ast.walk(value))


def _name_on_host(ctx, call) -> bool:
    """The operation's input is a name its function binds only to the host: `featmap = featmap.detach().cpu()`
    (or `v = preds[k].cpu()`), then only values computed from that name without a device move (`featmap =
    featmap[..., :h, :w]`). A visualiser resizing a feature map it took off the device, or a plot helper
    normalising a copy of a prediction, runs on the CPU on every machine. A parameter of the function counts only
    when the move is a statement of the function's own body before the operation (its caller's tensor may be
    anywhere until then)."""
    if type(call) is not ast.Call or not call.args:
        return False
    root = _root_name(call.args[0])
    fn = enclosing_function(ctx, call)
    if root is None or fn is None:
        return False
    name, moved, before = root.id, False, False
    at = (call.lineno, call.col_offset)
    loops = []  # the loops of the function around the operation: a binding later in one of them reaches it
    up = parent_of(ctx, call)
    while up is not None and up is not fn:
        if type(up) in (ast.For, ast.AsyncFor, ast.While):
            loops.append(up)
        up = parent_of(ctx, up)
    for n in ast.walk(fn):
        if type(n) is not ast.Name or n.id != name or type(n.ctx) is not ast.Store:
            continue
        if (n.lineno, n.col_offset) > at and not any(
                (lp.lineno, lp.col_offset) <= (n.lineno, n.col_offset) <= (lp.end_lineno, lp.end_col_offset)
                for lp in loops):
            continue  # bound after the operation, outside every loop around it: never its input
        st = parent_of(ctx, n)
        if type(st) is not ast.Assign or len(st.targets) != 1 or st.targets[0] is not n:
            return False
        if _moved_to_cpu(st.value):
            moved = True
            before = before or (st in fn.body and (st.lineno, st.col_offset) < at)
        elif not _reads(st.value, name) or any(type(c) is ast.Call and places_on_device(c)
                                               for c in ast.walk(st.value)):
            return False
    a = fn.args
    if any(p.arg == name for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p is not None):
        return before
    return moved


@predicate("explicit-cpu", kinds=("call", "method", "reference", "keyword"), effect="guard")
def explicit_cpu(ctx, hit) -> bool:
    """The matched expression is an argument of the nearest call around it, and that call creates its
    result on the CPU by name: `torch.zeros(n, dtype=torch.float64, device="cpu")`,
    `_init_scalar(step, device="cpu", dtype=torch.float64)`. The code chose the host on purpose (an
    optimizer step counter, a host-side schedule), so it runs there on every machine, Trainium included.
    A later `.cpu()` or `.to("cpu")` does not count: the operation before it ran wherever its inputs
    were. Likewise an operation whose input tensor is taken to the host in the call itself
    (`F.interpolate(img[None].cpu(), mode="bicubic")`), or is a name its function binds only to the host
    (`featmap = featmap.detach().cpu()` at the top of a visualiser, then `F.interpolate(featmap[None], ...)`).
    Only categories in `host-data-categories` are guarded; a device rule never is."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    if hit.matcher.kind == "call" and (_input_on_cpu(hit.node) or _name_on_host(ctx, hit.node)):
        return True
    node = hit.node
    for _ in range(_UP):
        up = parent_of(ctx, node)
        if up is None or isinstance(up, (ast.stmt, ast.Lambda, ast.comprehension)):
            return False
        if type(up) is ast.Call:
            return _creates_on_cpu(up, node)
        node = up
    return False
