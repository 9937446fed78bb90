"""default-setting: a backend flag set to the value PyTorch already gives it."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate, stored_target


def _defaults(ctx) -> dict:
    """[context.values] flag-defaults (`torch.backends.cudnn.benchmark=false`) -> {name: value}."""
    found = ctx.memo.get("default-setting:defaults")
    if found is None:
        found = {}
        for entry in ctx.values.get("flag-defaults", ()):
            name, _, value = entry.partition("=")
            found[name.strip()] = {"true": True, "false": False}.get(value.strip().lower(), value.strip())
        ctx.memo["default-setting:defaults"] = found
    return found


def _other_values(ctx, written: str, default) -> bool:
    """The file writes the setting (spelled the same) with anything but the default: a literal of another value
    or a value it computes. Then the default write may undo that one, and it counts."""
    for st in ctx.nodes(ast.Assign):
        if any(dotted(t) == written for t in st.targets):
            v = st.value
            if not (type(v) is ast.Constant and v.value is default):
                return True
    return False


@predicate("default-setting", kinds=("reference",))
def default_setting(ctx, hit) -> bool:
    """An assignment of a literal equal to the flag's PyTorch default (`[context.values] flag-defaults`:
    `torch.backends.cudnn.benchmark = False`, `torch.backends.cudnn.enabled = True`), in a file that writes the
    flag with no other value. The flag already holds that value, on CUDA and on Neuron alike, so the line changes
    nothing and there is nothing to port. A default written after the file set another value (`benchmark = True`
    in one function, `= False` in another), a non-default literal, or a computed value still match."""
    target = stored_target(ctx, hit.node)
    stmt = parent_of(ctx, target) if target is not None else None
    if type(stmt) is not ast.Assign or target not in stmt.targets or type(stmt.value) is not ast.Constant:
        return False
    defaults = _defaults(ctx)
    name = hit.qualname or hit.name
    if name not in defaults or stmt.value.value is not defaults[name]:
        return False
    return not _other_values(ctx, dotted(target), defaults[name])
