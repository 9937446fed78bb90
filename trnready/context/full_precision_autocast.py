"""full-precision-autocast: a CUDA autocast asking for a full-precision dtype, reported by its own matcher."""
from __future__ import annotations

from .base import call_built_by, dotted, predicate


@predicate("full-precision-autocast", kinds=("reference",))
def full_precision_autocast(ctx, hit) -> bool:
    """The reference is the callee of a call passing `dtype=` one of `[context.values] full-precision-dtypes`
    (`torch.cuda.amp.autocast(dtype=torch.float32)`, `autocast(dtype=torch.double)` after `from torch.cuda.amp
    import autocast`). Such a region keeps float32 inside a float16 one (an SVD, a geometric solver); the rule's
    call matcher reports it with what the port does to it, which is not the generic "switch to bfloat16"."""
    call = call_built_by(ctx, hit.node)
    if call is None:
        return False
    wanted = ctx.values.get("full-precision-dtypes", ())
    return any(kw.arg == "dtype" and dotted(kw.value) in wanted for kw in call.keywords)
