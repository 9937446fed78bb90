"""k-not-from-data: topk whose k is not shown to be read out of tensor data."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, predicate, size_argument


@predicate("k-not-from-data", kinds=("call", "method"))
def k_not_from_data(ctx, hit) -> bool:
    """The `k` of topk is not, by local evidence, read out of a tensor (`.item()`, `.tolist()`, `int(t)` of a
    torch tensor, or a name bound to one): `x.topk(5)` or `topk(x, k=self.k)` keeps a shape known before the
    data, while `topk(cost, k=ks[i].item())` keeps as many rows as a value computed on the device says."""
    call = hit.node
    if type(call) is not ast.Call:
        return True
    k = size_argument(hit, "k")
    if k is None:
        return True
    return not masks.from_tensor_data(k, call_scope(ctx, call), ctx.resolver)
