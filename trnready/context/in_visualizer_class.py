"""in-visualizer-class: a match inside a visualiser class, which draws results for people to look at."""
from __future__ import annotations

import ast

from .base import predicate
from .in_dataset_class import _tail


@predicate("in-visualizer-class", effect="guard")
def in_visualizer_class(ctx, hit) -> bool:
    """The match sits in the body of a visualiser class: a class whose name, or one of whose base classes, ends in
    `Visualizer` (mmengine's `Visualizer`, `DetLocalVisualizer`, `class TextDetLocalVisualizer(BaseLocalVisualizer)`).
    Such a class selects the instances to draw (`pred[pred.scores > thr]`), converts them to host arrays and draws
    them on an image for a person to look at, once per shown sample and outside the training step, so a
    data-dependent shape there is no part of the compiled model. Used by the boolean-mask matchers of TRN104."""
    spans = ctx.memo.get("_visualizer_spans")
    if spans is None:
        spans = ctx.memo["_visualizer_spans"] = [
            (n.lineno, n.end_lineno or n.lineno) for n in ctx.nodes(ast.ClassDef)
            if any(_tail(x).endswith("Visualizer") for x in (n.name, *n.bases))
        ] if ctx.tree is not None else []
    line = getattr(hit.node, "lineno", None)
    return line is not None and any(first <= line <= last for first, last in spans)
