"""evaluation-code: metric and evaluation code that runs once per evaluation, outside the compiled step."""
from __future__ import annotations

import ast

from .. import masks
from .base import compiles, enclosing_function, name_globs, parent_of, predicate
from ..astwalk import walk


def _within(ctx, node, pat) -> bool:
    func = enclosing_function(ctx, node)
    while pat is not None and func is not None:
        if pat.match(func.name):
            return True
        func = enclosing_function(ctx, func)
    return False


def _in_batch_loop(ctx, node, words) -> bool:
    """The node sits in a `for` loop over a data loader (`for batch in tqdm(data_loader)`): it runs once per
    evaluation batch, on what the loader and the model put on the device, not once on accumulated results."""
    p = parent_of(ctx, node)
    while p is not None and type(p) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        if type(p) in (ast.For, ast.AsyncFor) and _reads_batches(p.iter, words):
            return True
        p = parent_of(ctx, p)
    return False


def _reads_batches(it: ast.expr, words) -> bool:
    for n in walk(it):
        name = n.id if type(n) is ast.Name else n.attr if type(n) is ast.Attribute else None
        if name and masks.name_words(name) & words:
            return True
    return False


@predicate("evaluation-code", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def evaluation_code(ctx, hit) -> bool:
    """A match of a category in `evaluation-categories` (dynamic shapes) inside a function whose name matches
    a glob of `evaluation-functions` (a metric's `compute`, `_binary_auroc_compute`, `evaluate`). A metric's
    `update` and the helpers it calls run on the device for every batch and stay reported, so a directory
    such as `metrics/` is not enough. Such code runs once per
    evaluation, eagerly, on accumulated results; a data-dependent shape there costs nothing on Neuron, and
    the category's own fix keeps the op off the hot path anyway. A file that calls `torch.compile` itself
    stays reported: its code may be traced. So does code in a `for` loop over a data loader (an iterable
    naming a word of `evaluation-batch-words`: `for batch in tqdm(data_loader)` in a Trainer callback's
    `on_evaluate`): it runs for every evaluation batch on device tensors, and each new size compiles again."""
    if hit.rule.category not in ctx.values.get("evaluation-categories", ()):
        return False
    # The directory (metrics/) says too little: a metric's update and the state helpers it calls run on the
    # device for every evaluation batch, so only the once-per-evaluation functions are guarded.
    # (Asked first: most matches are in no such function, and _compiles walks the whole file.)
    if not _within(ctx, hit.node, name_globs(ctx, "evaluation-functions")) or compiles(ctx):
        return False
    return not _in_batch_loop(ctx, hit.node, frozenset(ctx.values.get("evaluation-batch-words", ())))
