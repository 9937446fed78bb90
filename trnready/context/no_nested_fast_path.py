"""no-nested-fast-path: a TransformerEncoder whose layer rules out the nested-tensor fast path."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, predicate
from ..astwalk import walk

_LAYER = "TransformerEncoderLayer"


def _flag(call, name: str, position: int | None = None):
    """The constant passed for a keyword (or at a position), None when absent or not a constant."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value.value if type(kw.value) is ast.Constant else ...
    if position is not None and len(call.args) > position:
        a = call.args[position]
        return a.value if type(a) is ast.Constant else ...
    return None


def _layer_call(ctx, encoder):
    """The `nn.TransformerEncoderLayer(...)` call the encoder gets as its layer: inline, or a name assigned once
    from such a call in the same function (or at module level)."""
    layer = encoder.args[0] if encoder.args else next((k.value for k in encoder.keywords if k.arg == "encoder_layer"),
                                                      None)
    if type(layer) is ast.Call:
        return layer if dotted(layer.func).endswith(_LAYER) else None
    if type(layer) is not ast.Name:
        return None
    home = enclosing_function(ctx, encoder)
    found = []
    for st in (ctx.statements() if home is None else walk(home)):
        if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == layer.id for t in st.targets):
            if enclosing_function(ctx, st) is home:
                found.append(st.value)
    if len(found) == 1 and type(found[0]) is ast.Call and dotted(found[0].func).endswith(_LAYER):
        return found[0]
    return None


@predicate("no-nested-fast-path", kinds=("call",))
def no_nested_fast_path(ctx, hit) -> bool:
    """An `nn.TransformerEncoder` whose layer is an `nn.TransformerEncoderLayer` built (inline, or assigned once
    in the same function) without `batch_first=True`, or with `norm_first=True`. The encoder then turns its
    nested-tensor fast path off when it is built (torch checks the layer: the fast path needs batch-first
    attention and post-norm), so no NestedTensor is ever made, whatever `enable_nested_tensor` says. A layer
    passed in from elsewhere, or one whose flags are not constants, is unknown and stays reported."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    layer = _layer_call(ctx, call)
    if layer is None:
        return False
    # TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
    # norm_first, ...): positions 6 and 7
    batch_first = _flag(layer, "batch_first", 6)
    norm_first = _flag(layer, "norm_first", 7)
    return batch_first in (None, False) or norm_first is True
