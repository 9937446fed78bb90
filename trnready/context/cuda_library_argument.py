"""cuda-library-argument: the keyword is an argument of a CUDA-only library's own API."""
from __future__ import annotations

import ast

from .base import call_scope, parent_of, predicate


@predicate("cuda-library-argument", kinds=("keyword",))
def cuda_library_argument(ctx, hit) -> bool:
    """A keyword passed to a function of a package listed in `cuda-only-packages` (`tensorrt_llm.Mapping(world_size,
    rank, gpus_per_node=n)`): it configures that library's own layout, not a job or a cluster. The library is
    replaced whole on Trainium, and its import is the item that says so. A value stored under the name
    (`{"gpus_per_node": 8}`) and a keyword of any other call (a submitit executor's
    `update_parameters(gpus_per_node=8)`) still match."""
    if hit.stored:
        return False
    call = parent_of(ctx, hit.node)  # the keyword (the hit is its value), then the call
    if type(call) is ast.keyword:
        call = parent_of(ctx, call)
    if type(call) is not ast.Call:
        return False
    packages = frozenset(ctx.values.get("cuda-only-packages", ()))
    for name in ctx.resolver.qualnames(call.func, call_scope(ctx, call)):
        if ctx.resolver.canonical(name).split(".", 1)[0] in packages:
            return True
    return False
