"""unwrapped-at-once: a DataParallel wrapper built only to load a checkpoint saved from one, then taken off."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from ..astwalk import walk

# What a loader may do with the wrapper before taking it off: load the saved keys (`module.`-prefixed) and set
# the mode. Anything else (a forward call, passing it on) uses the wrapper.
_LOADING = frozenset({"load_state_dict", "eval", "train", "requires_grad_"})


@predicate("unwrapped-at-once", kinds=("call",))
def unwrapped_at_once(ctx, hit) -> bool:
    """`model = torch.nn.DataParallel(RAFT(args))`, then only `model.load_state_dict(torch.load(path))` (and
    `.eval()`), then `model = model.module` in the same block: the wrapper exists so that the checkpoint's
    `module.`-prefixed keys match, and is removed before the model runs. Nothing is scattered across devices.
    A wrapper used in any other way before it is taken off (called, passed, returned), or never taken off,
    stays reported."""
    call = hit.node
    st = parent_of(ctx, call)
    if type(st) is not ast.Assign or st.value is not call or len(st.targets) != 1 \
            or type(st.targets[0]) is not ast.Name:
        return False
    name = st.targets[0].id
    block = _block_of(ctx, st)
    if block is None:
        return False
    for later in block[block.index(st) + 1:]:
        if _unwraps(later, name):
            return True
        if not _only_loads(later, name):
            return False
    return False


def _block_of(ctx, st) -> list | None:
    holder = parent_of(ctx, st)
    if holder is None:
        holder = ctx.tree
    for field in ("body", "orelse", "finalbody"):
        block = getattr(holder, field, None)
        if isinstance(block, list) and any(s is st for s in block):
            return block
    return None


def _unwraps(st, name: str) -> bool:
    """`name = name.module`."""
    return type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name \
        and st.targets[0].id == name and type(st.value) is ast.Attribute and st.value.attr == "module" \
        and type(st.value.value) is ast.Name and st.value.value.id == name


def _only_loads(st, name: str) -> bool:
    """A statement that does nothing with `name` but load a checkpoint into it or set its mode (or does not
    mention it at all)."""
    value = st.value if type(st) in (ast.Expr, ast.Assign) else None
    uses = [n for n in walk(st) if type(n) is ast.Name and n.id == name]
    if not uses:
        return True
    if type(value) is not ast.Call or type(value.func) is not ast.Attribute or value.func.attr not in _LOADING:
        return False
    receiver = value.func.value
    if type(receiver) is not ast.Name or receiver.id != name:
        return False
    # the name appears only as the receiver (not among the arguments, nor as an assignment target)
    return len(uses) == 1 and not (type(st) is ast.Assign and any(
        type(n) is ast.Name and n.id == name for t in st.targets for n in walk(t)))
