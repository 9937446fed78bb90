"""scale-reciprocal: the float64 reciprocal of a loss scale, cast straight back to float32."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate


def _next_call(ctx, call, attr: str):
    """The call `call.<attr>()` with no arguments when the chain goes on that way, else None."""
    up = parent_of(ctx, call)
    if type(up) is not ast.Attribute or up.value is not call or up.attr != attr:
        return None
    nxt = parent_of(ctx, up)
    if type(nxt) is not ast.Call or nxt.func is not up or nxt.args or nxt.keywords:
        return None
    return nxt


@predicate("scale-reciprocal", kinds=("method",), effect="drop")
def scale_reciprocal(ctx, hit) -> bool:
    """`scale.double().reciprocal().float()` where the receiver's name ends in `scale` (`self._scale`,
    `loss_scale`): the inverse loss scale of a gradient scaler (Megatron, fairscale, ColossalAI and torch's own
    GradScaler copies). Loss scales are powers of two, whose reciprocal float32 holds exactly, and the chain casts
    the result back to float32 at once, so running it in float32 on Neuron gives the same number. Any other step
    between the casts (`.sum()`, `.sqrt()`), a receiver of another name, or a result kept in float64 stays a
    finding."""
    call = hit.node
    if type(call) is ast.Attribute:
        call = parent_of(ctx, call)
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute or call.func.attr != "double" \
            or call.args or call.keywords:
        return False
    if not (dotted(call.func.value) or "").rsplit(".", 1)[-1].lower().endswith("scale"):
        return False
    recip = _next_call(ctx, call, "reciprocal")
    return recip is not None and _next_call(ctx, recip, "float") is not None
