"""cuda-only-argument: the argument a matcher needs is passed only where a check false on Neuron holds."""
from __future__ import annotations

import ast

from .base import argument_of, not_none_arguments, predicate
from .neuron_guarded import _spans


def _none(e) -> bool:
    return type(e) is ast.Constant and e.value is None


@predicate("cuda-only-argument", effect="guard", kinds=("call",))
def cuda_only_argument(ctx, hit) -> bool:
    """A call whose rule asks for an argument that is not None (`is-not-none`) and gets it as a conditional
    expression that is None on every Neuron machine: `DistributedDataParallel(model, device_ids=[args.local_rank] if
    args.cuda else None)` with `args.cuda` bound to `torch.cuda.is_available()` (kfac-pytorch's examples), or
    `None if not use_cuda else [rank]`. There DDP gets no device_ids, which is what a non-CUDA device needs. The
    test is read as neuron-guarded reads conditions (a flag bound to a CUDA check counts). A value picked between
    two real values (`"nccl" if cuda else "gloo"`) is no `is-not-none` condition and stays with its rule."""
    wanted = not_none_arguments(hit)
    if not wanted:
        return False
    call = hit.node
    spans = ctx.fact("neuron-guarded", _spans)
    if spans is None:
        return False
    conds = spans.conds
    for p in wanted:
        e = argument_of(p, call)
        if type(e) is not ast.IfExp:
            return False
        if not (conds.never(e.test) and _none(e.orelse) or conds.always(e.test) and _none(e.body)):
            return False
    return True
