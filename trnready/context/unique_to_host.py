"""unique-to-host: the distinct values of a tensor handed to Python as they are computed."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

# Calls that leave the values where they are on the way to the host.
_PASS = frozenset({"cpu", "detach"})


@predicate("unique-to-host", kinds=("call", "method"))
def unique_to_host(ctx, hit) -> bool:
    """The match is `torch.unique(x)` / `x.unique()` whose result is turned into a Python list at once
    (`torch.unique(mask).tolist()`, `set(t.unique().cpu().tolist())`, through `.cpu()` / `.detach()`). The
    data-dependent size then lives in a Python list (feature ids to loop over, a count for a progress bar): no
    tensor of that shape goes on to a device op, so there is nothing to pad. `unique` with `return_inverse` or
    `return_counts` returns a tuple and never qualifies; `nonzero().tolist()` is not covered (its positions index
    tensors of the model again: a recorded true positive builds an attention mask from them). A count
    (`x.unique().numel()`, `len(...)`) or a loop over the values is no such read: the distinct values are still
    computed on the device with a data-dependent size (blind69 labels two `.unique().numel()` in training loops as
    hits; MaskFormer's criterion builds one target per value of `for label in torch.unique(seg):`)."""
    node = hit.node
    if type(node) is not ast.Call:
        return False
    f = node.func
    name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
    if name != "unique" or any(k.arg in ("return_inverse", "return_counts") for k in node.keywords):
        return False
    while True:
        up = parent_of(ctx, node)
        if type(up) is not ast.Attribute or up.value is not node:
            return False
        call = parent_of(ctx, up)
        if type(call) is not ast.Call or call.func is not up or call.args or call.keywords:
            return False
        if up.attr == "tolist":
            return True
        if up.attr not in _PASS:
            return False
        node = call
