"""flop-counter-hook: inside a FLOP-counting hook that a profiler calls on the host."""
from __future__ import annotations

import ast

from .base import enclosing_function, predicate
from ..astwalk import walk


def _counts_into_module(fn, attrs) -> bool:
    """The function adds to a counter attribute of its first parameter (`model.total_ops += ...`)."""
    params = fn.args.posonlyargs + fn.args.args
    if not params:
        return False
    first = params[0].arg
    return any(type(n) is ast.AugAssign and type(n.target) is ast.Attribute and n.target.attr in attrs
               and type(n.target.value) is ast.Name and n.target.value.id == first for n in walk(fn))


@predicate("flop-counter-hook")
def flop_counter_hook(ctx, hit) -> bool:
    """The match is in a function that adds to a counter attribute of the module it is given (`def
    count_flops_attn(model, _x, y): ... model.total_ops += th.DoubleTensor([matmul_ops])`): the protocol of a
    FLOP-counting profiler's custom hooks (thop's `custom_ops={QKVAttention: QKVAttention.count_flops}`), which
    the profiler calls on the host to add up operation counts while it measures a model. It computes no model
    output, so the float64 counter or the CUDA call it makes is not a use the port meets in training or
    inference. The counter attribute names are data: `flop-counter-attributes` in [context.values]."""
    node = getattr(hit, "node", None)
    attrs = frozenset(ctx.values.get("flop-counter-attributes", ()))
    if node is None or not attrs or ctx.tree is None:
        return False
    # A first look at the text: `model.total_ops += ...` spells the attribute, so a file naming none of them holds
    # no such hook (most files), and no enclosing function is looked up or walked.
    if not ctx.fact("flop-counter-hook:named", lambda c: any(c.may_name(a) for a in sorted(attrs))):
        return False
    fn = enclosing_function(ctx, node)
    while fn is not None:
        if _counts_into_module(fn, attrs):
            return True
        fn = enclosing_function(ctx, fn)
    return False
