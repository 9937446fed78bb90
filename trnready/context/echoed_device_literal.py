"""echoed-device-literal: a device string chosen only when the value tested already equals it."""
from __future__ import annotations

import ast

from ..resolve import echoed_arm
from .base import parent_of, predicate


@predicate("echoed-device-literal", kinds=("device", "keyword"))
def echoed_device_literal(ctx, hit) -> bool:
    """A device string that a conditional expression picks only when the value it tests already equals that string,
    the other arm being the tested value itself: `autocast_device = "cuda" if device.type == "cuda" else
    device.type` (ChituDiffusion's Z-Image adapter) is `device.type` on every device, `"neuron"` on Trainium. The
    string names nothing the port must change (and the values the resolver gives such an expression are the other
    arm's: resolve.echoed_arm)."""
    node = hit.node
    if type(node) is not ast.Constant or not isinstance(node.value, str):
        return False
    up = parent_of(ctx, node)
    if type(up) is not ast.IfExp or not (node is up.body or node is up.orelse):
        return False
    other = echoed_arm(up)
    return other is not None and other is not node
