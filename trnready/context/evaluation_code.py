"""evaluation-code: metric and evaluation code that runs once per evaluation, outside the compiled step."""
from __future__ import annotations

from .base import compiles, enclosing_function, name_globs, predicate


def _within(ctx, node, pat) -> bool:
    func = enclosing_function(ctx, node)
    while pat is not None and func is not None:
        if pat.match(func.name):
            return True
        func = enclosing_function(ctx, func)
    return False


@predicate("evaluation-code", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def evaluation_code(ctx, hit) -> bool:
    """A match of a category in `evaluation-categories` (dynamic shapes) inside a function whose name matches
    a glob of `evaluation-functions` (a metric's `compute`, `_binary_auroc_compute`, `evaluate`). A metric's
    `update` and the helpers it calls run on the device for every batch and stay reported, so a directory
    such as `metrics/` is not enough. Such code runs once per
    evaluation, eagerly, on accumulated results; a data-dependent shape there costs nothing on Neuron, and
    the category's own fix keeps the op off the hot path anyway. A file that calls `torch.compile` itself
    stays reported: its code may be traced."""
    if hit.rule.category not in ctx.values.get("evaluation-categories", ()):
        return False
    # The directory (metrics/) says too little: a metric's update and the state helpers it calls run on the
    # device for every evaluation batch, so only the once-per-evaluation functions are guarded.
    # (Asked first: most matches are in no such function, and _compiles walks the whole file.)
    return _within(ctx, hit.node, name_globs(ctx, "evaluation-functions")) and not compiles(ctx)
