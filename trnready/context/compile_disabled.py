"""compile-disabled: a torch.compile whose `disable=` is true on every Neuron machine never compiles there."""
from __future__ import annotations

import ast

from .base import imported_name, parent_of, predicate
from .neuron_guarded import _spans

_COMPILE = "torch.compile"


def _compile_call(ctx, node):
    """The torch.compile call holding the node (the node itself, or one of its keywords' values)."""
    p = node
    for _ in range(3):
        if type(p) is ast.Call and imported_name(ctx, p.func)[0] == _COMPILE:
            return p
        p = parent_of(ctx, p)
        if p is None:
            return None
    return None


@predicate("compile-disabled", kinds=("call", "keyword", "decorator"), effect="guard")
def compile_disabled(ctx, hit) -> bool:
    """A `torch.compile(...)` (call or decorator) whose `disable=` argument is true on every Neuron machine, as
    neuron-guarded reads conditions: `disable=not torch.cuda.is_available()`, or ColossalAI's `disable=cuda_arch <
    89` where `cuda_arch` falls back to 0 when the CUDA capability query raises. torch.compile then returns the
    function unchanged, so its backend, mode and options never apply on Trainium and the function runs eagerly there.
    Everywhere: every rule matching a torch.compile call (backend, mode, options, dynamic, NEFF cache)."""
    if ctx.index is None or not (hit.qualname or hit.name).endswith("compile") \
            or not ctx.fact("compile-disabled:may", lambda c: c.may_name("disable")):
        return False
    call = _compile_call(ctx, hit.node)
    if call is None:
        return False
    value = next((k.value for k in call.keywords if k.arg == "disable"), None)
    if value is None:
        return False
    spans = ctx.fact("neuron-guarded", _spans)
    return spans is not None and bool(spans.conds.always(value))
