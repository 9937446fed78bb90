"""float64-count: a float64 tensor that only counts (correct predictions, samples), exact in float32."""
from __future__ import annotations

import ast

from ..masks import MASK_CALLS, tail_of
from .base import call_taking, parent_of, predicate

# Constructors of a tensor filled with one value: the start of an accumulator.
_FILLED = frozenset({"zeros", "zeros_like", "tensor", "full"})


def _words(name: str) -> set:
    return {w for w in name.lower().split("_") if w}


def _counting_name(ctx, call) -> str:
    """The name (or attribute) the call's value is assigned to, when the assignment is the whole statement."""
    up = parent_of(ctx, call)
    if type(up) is ast.Assign and len(up.targets) == 1:
        t = up.targets[0]
        return t.id if type(t) is ast.Name else t.attr if type(t) is ast.Attribute else ""
    return ""


def _comparison(e) -> bool:
    """`a == b`, `preds.eq(labels)`, `x.isnan()`: a tensor of zeros and ones (masks.py's boolean-making calls)."""
    return type(e) is ast.Compare or type(e) is ast.Call and type(e.func) is ast.Attribute \
        and e.func.attr in MASK_CALLS


@predicate("float64-count", kinds=("reference", "method"))
def float64_count(ctx, hit) -> bool:
    """The float64 dtype only holds a count of things, which float32 (what float64 runs as on Neuron) keeps
    exactly up to 2**24: the sum of a comparison (`(labels == predictions).sum(dtype=torch.float64)`: how many
    predictions are right) or an accumulator filled with one value whose name says it counts (a whole word of
    `float64-count-words` in `total_correct = torch.zeros(1, dtype=torch.float64, device=device)`). An
    accumulator of losses or log-probabilities (`total_log_probs`) names no count and stays reported, as does a
    sum of anything but a comparison. The `.double()` of a comparison holds only zeros and ones
    (pygcn's `accuracy()`, `correct = preds.eq(labels).double(); correct = correct.sum()`, copied into many graph
    libraries): the count it feeds is exact in float32 too."""
    node = hit.node
    if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "double" and not node.args:
        return _comparison(node.func.value)
    call = call_taking(ctx, hit.node)
    if call is None or not any(k.value is hit.node for k in call.keywords if k.arg == "dtype"):
        return False
    name = tail_of(call.func)
    if name == "sum" and type(call.func) is ast.Attribute:
        return type(call.func.value) is ast.Compare
    if name in _FILLED:
        words = frozenset(w.lower() for w in ctx.values.get("float64-count-words", ()))
        return bool(_words(_counting_name(ctx, call)) & words)
    return False
