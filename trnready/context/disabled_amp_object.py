"""disabled-amp-object: a gradient scaler built with the literal enabled=False."""
from __future__ import annotations

import ast

from ..masks import tail_of
from .base import call_built_by, predicate


@predicate("disabled-amp-object", kinds=("reference", "call"))
def disabled_amp_object(ctx, hit) -> bool:
    """The match builds an object listed in `[context.values] disabled-pass-through` (GradScaler,
    ShardedGradScaler) with the literal `enabled=False`: `scaler = GradScaler(enabled=False)`. A disabled scaler
    returns the loss unscaled and steps the optimizer as is; it never touches a CUDA device. So does a test that
    is false on every Neuron machine (`enabled=device.type == "cuda" and fp16`, session 50). A flag that is not
    the literal False (`enabled=args.fp16`) still matches, and so does `torch.autocast("cuda", enabled=False)`:
    autocast is not listed, since its device type is what the port changes even when disabled."""
    call = call_built_by(ctx, hit.node)
    if call is None or tail_of(call.func) not in ctx.values.get("disabled-pass-through", ()):
        return False
    for kw in call.keywords:
        if kw.arg != "enabled":
            continue
        if type(kw.value) is ast.Constant and kw.value.value is False:
            return True
        # `GradScaler(enabled=device.type == "cuda" and dtype == torch.float16)`: a test written in the call that is
        # false on every Neuron machine (neuron-guarded's reading) builds the scaler disabled there. A name set from
        # such a test (`use_amp = cfg.amp and device.type == "cuda"`) is a switch the port revisits: it is a place
        # of the finding (match.py `_switch_place`), so the finding stays
        if type(kw.value) not in (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Call):
            return False  # a literal other than False, or a named switch (`self.use_amp`, `use_amp`)
        from .neuron_guarded import never_test

        never = never_test(ctx)
        return never is not None and bool(never(kw.value))
    return False
