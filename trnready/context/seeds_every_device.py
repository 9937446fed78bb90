"""seeds-every-device: a CUDA-only seed next to a call that already seeds every device."""
from __future__ import annotations

import fnmatch

from .base import enclosing_function, imported_name, predicate


def _seeded_scopes(ctx) -> set:
    """ids of the functions (None: module level) that call a seeder of `seed-every-device-calls`."""
    globs = tuple(ctx.values.get("seed-every-device-calls", ()))
    found: set = set()
    for call in ctx.calls():
        name = imported_name(ctx, call.func)[0]
        if name and any(fnmatch.fnmatchcase(name, g) for g in globs):
            fn = enclosing_function(ctx, call)
            found.add(id(fn) if fn is not None else None)
    return found


@predicate("seeds-every-device", kinds=("reference", "call"))
def seeds_every_device(ctx, hit) -> bool:
    """The function holding a CUDA-only seed (`torch.cuda.manual_seed_all(seed)`), or the module level when the
    seed is there, also calls a seeder of `seed-every-device-calls`: `torch.manual_seed`, Lightning's
    `seed_everything`, `transformers.set_seed`, `accelerate.utils.set_seed`. Those seed the CPU and every
    accelerator, Neuron included, so the CUDA call is a no-op on Trainium and nothing needs to change. Used by
    TRN249."""
    seeded = ctx.fact("seeds-every-device:scopes", _seeded_scopes)
    fn = enclosing_function(ctx, hit.node)
    return (id(fn) if fn is not None else None) in seeded
