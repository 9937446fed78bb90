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


def _tail(name: str) -> str:
    return ".".join(name.split(".")[-2:])


def _changes_others(ctx, stmt, defaults: dict) -> bool:
    """Its function (or the module's top level) writes another backend flag with a value that is not its default
    (`cudnn.deterministic = True` beside `cudnn.benchmark = False`, `cuda.matmul.allow_tf32 = True` beside
    `cudnn.allow_tf32 = True`): the defaults are then part of a setting block that does change things, ported as
    one."""
    from .base import enclosing_function

    tails = {_tail(n): v for n, v in defaults.items()}
    scope = enclosing_function(ctx, stmt)
    for st in ctx.nodes(ast.Assign):
        if st is stmt or enclosing_function(ctx, st) is not scope:
            continue
        for t in st.targets:
            written = dotted(t)
            if not written or not (written.startswith("torch.backends.") or _tail(written) in tails):
                continue
            default = tails.get(_tail(written), stmt)  # a flag without a known default: a change
            if not (type(st.value) is ast.Constant and st.value.value is default):
                return True
    return False


@predicate("default-setting", kinds=("reference",))
def default_setting(ctx, hit) -> bool:
    """An assignment of a literal equal to the flag's PyTorch default (`[context.values] flag-defaults`:
    `torch.backends.cudnn.benchmark = False`, `torch.backends.cudnn.enabled = True`), in a file that writes the
    flag with no other value. The flag already holds that value, on CUDA and on Neuron alike, so the line changes
    nothing and there is nothing to port. A default written after the file set another value (`benchmark = True`
    in one function, `= False` in another), a default written beside another backend flag set to a non-default
    value in the same function (`deterministic = True; benchmark = False`: a determinism block, ported as one), a
    write at the top of a module (it runs right after the file's imports and overrides what they may have set:
    `torch.backends.cudnn.benchmark = False  # True leads to slow down in conv3d`), a non-default literal, or a
    computed value still match."""
    from .base import enclosing_function

    target = stored_target(ctx, hit.node)
    stmt = parent_of(ctx, target) if target is not None else None
    if type(stmt) is not ast.Assign or target not in stmt.targets or type(stmt.value) is not ast.Constant:
        return False
    if enclosing_function(ctx, stmt) is None:
        return False  # at the top of a module it follows the file's imports and overrides what they may have set
    defaults = _defaults(ctx)
    name = hit.qualname or hit.name
    if name not in defaults or stmt.value.value is not defaults[name]:
        return False
    return not _other_values(ctx, dotted(target), defaults[name]) and not _changes_others(ctx, stmt, defaults)
