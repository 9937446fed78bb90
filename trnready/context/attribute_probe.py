"""attribute-probe: a module named only to probe for one of its attributes that the file uses anyway."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate

_TESTS = (ast.If, ast.IfExp, ast.While, ast.Assert, ast.BoolOp, ast.UnaryOp)


@predicate("attribute-probe", kinds=("reference",))
def attribute_probe(ctx, hit) -> bool:
    """`if getattr(torch.cuda.amp, 'autocast') is not None: has_native_amp = True` (or `hasattr(torch.cuda.amp,
    'autocast')`) only asks whether the attribute exists; the feature is used where the file names it in full
    (`amp_autocast = torch.cuda.amp.autocast`), and that use is the finding. The probe holds only when the file
    names `<module>.<attribute>` elsewhere (or the attribute in the module's device-neutral home, `torch.autocast`):
    a probe with no use beside it stays reported."""
    node = hit.node
    call = parent_of(ctx, node)
    if type(call) is not ast.Call or type(call.func) is not ast.Name or call.func.id not in ("getattr", "hasattr"):
        return False
    if len(call.args) < 2 or call.args[0] is not node or type(call.args[1]) is not ast.Constant \
            or not isinstance(call.args[1].value, str):
        return False
    if call.func.id == "getattr" and not _tested(ctx, call):
        return False
    base = dotted(node)
    if not base:
        return False
    name = call.args[1].value
    if not ctx.may_name(name):
        return False
    # the attribute used in full (`torch.cuda.amp.autocast`), or, for a module with a device-neutral home, used
    # there (`torch.autocast(device_type=...)` after timm's `getattr(torch.cuda.amp, 'autocast')`: the probe only
    # tells an old PyTorch from a new one, and the use is already the port's form)
    homes = {base, *_neutral_homes(ctx, base)}
    return any(n.attr == name and dotted(n.value) in homes for n in ctx.nodes(ast.Attribute))


def _neutral_homes(ctx, base: str) -> list:
    """`[context.values] device-neutral-homes`: "torch.cuda.amp=torch,torch.amp" -> ["torch", "torch.amp"]."""
    for entry in ctx.values.get("device-neutral-homes", ()):
        module, _, homes = entry.partition("=")
        if module == base:
            return homes.split(",")
    return []


def _tested(ctx, call) -> bool:
    """The getattr's value is only tested: `is None` / `is not None`, or truth in a condition."""
    up = parent_of(ctx, call)
    if type(up) is ast.Compare:
        return len(up.ops) == 1 and type(up.ops[0]) in (ast.Is, ast.IsNot) and type(up.comparators[0]) is \
            ast.Constant and up.comparators[0].value is None
    return type(up) in _TESTS and getattr(up, "body", None) is not call and getattr(up, "orelse", None) is not call
