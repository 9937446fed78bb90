"""mask-never-passed: an attention mask parameter that every caller in the file leaves at its None default."""
from __future__ import annotations

import ast

from .base import argument_of, predicate


@predicate("mask-never-passed", kinds=("call",))
def mask_never_passed(ctx, hit) -> bool:
    """The mask argument the matcher requires not None (`attn_mask=mask`, `key_padding_mask=pad`) is a parameter
    of the enclosing method with the default None, and every call of that method the file makes (through `self`
    from its class; for `forward`, through the instances other classes of the file keep, in a loop or an index of
    a ModuleList) leaves it out or passes None, or passes a parameter of its own that its callers treat the same
    way (trnready/mask_sources.py `never_passed`). Demucs' cross-attention layer `forward(self, q, k, mask=None)`
    hands `attn_mask=mask` to nn.MultiheadAttention, and the encoder calls `self.layers[idx](x, xt)`: the mask is
    always None and the call is plain attention. A method no call of the file reaches (other files may pass a
    mask), a call passing anything else, or one spreading `*args` / `**kwargs` still matches."""
    from ..mask_sources import never_passed

    call = hit.node
    if type(call) is not ast.Call:
        return False
    masks = [argument_of(p, call) for p in hit.matcher.args if p.op == "is-not-none"]
    return bool(masks) and all(a is not None and never_passed(ctx, call, a) for a in masks)
