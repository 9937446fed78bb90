"""no-tensor-evidence: a method match whose receiver is not shown to be a torch tensor."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, predicate


@predicate("no-tensor-evidence", kinds=("method",))
def no_tensor_evidence(ctx, hit) -> bool:
    """The method's receiver shows no sign of being a torch tensor in the file: it was not made by a
    torch function (`torch.cat(...).unique()`, `ids = torch.tensor(x)` then `ids.unique()`), directly
    or through a method chain. Names such as `unique` are common on pandas and NumPy values, so the
    method alone is not evidence."""
    call = hit.node
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute:
        return True
    return not masks.is_tensor(call.func.value, call_scope(ctx, call), ctx.resolver)
