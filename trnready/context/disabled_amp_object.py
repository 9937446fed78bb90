"""disabled-amp-object: a gradient scaler built with the literal enabled=False."""
from __future__ import annotations

import ast

from ..masks import tail_of
from .base import call_built_by, predicate


@predicate("disabled-amp-object", kinds=("reference", "call"))
def disabled_amp_object(ctx, hit) -> bool:
    """The match builds an object listed in `[context.values] disabled-pass-through` (GradScaler,
    ShardedGradScaler) with the literal `enabled=False`: `scaler = GradScaler(enabled=False)`. A disabled scaler
    returns the loss unscaled and steps the optimizer as is; it never touches a CUDA device. A flag that is not
    the literal False (`enabled=args.fp16`) still matches, and so does `torch.autocast("cuda", enabled=False)`:
    autocast is not listed, since its device type is what the port changes even when disabled."""
    call = call_built_by(ctx, hit.node)
    if call is None or tail_of(call.func) not in ctx.values.get("disabled-pass-through", ()):
        return False
    return any(kw.arg == "enabled" and type(kw.value) is ast.Constant and kw.value.value is False
               for kw in call.keywords)
