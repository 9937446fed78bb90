"""in-visualizer-class: a match inside a visualiser class, which draws results for people to look at."""
from __future__ import annotations

from ._class_spans import inside_class_ending
from .base import predicate


@predicate("in-visualizer-class", effect="guard")
def in_visualizer_class(ctx, hit) -> bool:
    """The match sits in the body of a visualiser class: a class whose name, or one of whose base classes, ends in
    `Visualizer` (mmengine's `Visualizer`, `DetLocalVisualizer`, `class TextDetLocalVisualizer(BaseLocalVisualizer)`).
    Such a class selects the instances to draw (`pred[pred.scores > thr]`), converts them to host arrays and draws
    them on an image for a person to look at, once per shown sample and outside the training step, so a
    data-dependent shape there is no part of the compiled model. Used by the boolean-mask matchers of TRN104."""
    return inside_class_ending(ctx, hit, "Visualizer")
