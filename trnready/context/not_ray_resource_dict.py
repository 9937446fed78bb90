"""not-ray-resource-dict: a `gpu` count that is not an entry of a resource dict in a file using Ray."""
from __future__ import annotations

import ast

from .base import imported_roots, parent_of, predicate


@predicate("not-ray-resource-dict", kinds=("keyword",))
def not_ray_resource_dict(ctx, hit) -> bool:
    """Holds (the match is dropped) unless the value is an entry of a dict literal (`{"cpu": 4, "gpu": 1}`,
    `resources_per_trial={"gpu": 1}`) in a file that imports Ray. Ray Tune names the NVIDIA GPU resource `gpu` in
    its trial resources (`tune.with_resources(fn, {"gpu": 1})`, `tune.run(..., resources_per_trial=...)`); on a
    Trainium host no such resource exists and trials wait for it, the NeuronCores being `neuron_cores`. Elsewhere
    `gpu=1` is a device index or a switch (`parser.add_argument("--gpu", default=1)`), which other rules judge."""
    if "ray" not in imported_roots(ctx):
        return True
    return type(parent_of(ctx, hit.node)) is not ast.Dict
