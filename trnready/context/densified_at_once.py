"""densified-at-once: a sparse tensor built on the host and turned dense in the same expression."""
from __future__ import annotations

import ast
import re

from .base import is_cpu, parent_of, predicate

# the constructors: `torch.sparse_coo_tensor`, `torch.sparse.FloatTensor` and the other legacy tensor types
_CONSTRUCTOR = re.compile(r"(?:^|\.)sparse(?:_\w+_tensor|\.\w*Tensor)$")


@predicate("densified-at-once", kinds=("call", "reference"))
def densified_at_once(ctx, hit) -> bool:
    """A sparse constructor's result is made dense at once, `.to_dense()` chained on the call
    (`torch.sparse.FloatTensor(i, v, shape).to_dense()`, `torch.sparse_coo_tensor(i, v, size).to_dense()`), and the
    call puts it on no device but the CPU. A sparse matrix saved in COO form (SMPL's joint regressor in
    MeshTransformer) is only read that way: no sparse tensor outlives the expression, and none reaches the device."""
    name = hit.qualname or hit.name
    if not _CONSTRUCTOR.search(name):
        return False  # `torch.sparse.sum(A).to_dense()` reads a sparse tensor: still a sparse operation
    node = hit.node
    call = node if type(node) is ast.Call else parent_of(ctx, node)
    if type(call) is not ast.Call or (call is not node and call.func is not node):
        return False
    if any(k.arg == "device" and not is_cpu(k.value) for k in call.keywords):
        return False
    up = parent_of(ctx, call)
    if type(up) is not ast.Attribute or up.value is not call or up.attr != "to_dense":
        return False
    outer = parent_of(ctx, up)
    return type(outer) is ast.Call and outer.func is up
