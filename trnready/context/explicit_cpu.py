"""explicit-cpu: a value the code itself creates on the CPU (`device="cpu"`)."""
from __future__ import annotations

import ast

from .base import is_cpu, parent_of, predicate

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


@predicate("explicit-cpu", kinds=("call", "method", "reference", "keyword"), effect="guard")
def explicit_cpu(ctx, hit) -> bool:
    """The matched expression is an argument of the nearest call around it, and that call creates its
    result on the CPU by name: `torch.zeros(n, dtype=torch.float64, device="cpu")`,
    `_init_scalar(step, device="cpu", dtype=torch.float64)`. The code chose the host on purpose (an
    optimizer step counter, a host-side schedule), so it runs there on every machine, Trainium included.
    A later `.cpu()` or `.to("cpu")` does not count: the operation before it ran wherever its inputs
    were. Likewise an operation whose input tensor is taken to the host in the call itself
    (`F.interpolate(img[None].cpu(), mode="bicubic")`). Only categories in `host-data-categories` are guarded;
    a device rule never is."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    if hit.matcher.kind == "call" and _input_on_cpu(hit.node):
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
