"""in-dataset-class: a match inside a dataset class, whose code runs on the host."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("in-dataset-class")
def in_dataset_class(ctx, hit) -> bool:
    """The match sits in the body of a dataset class: a class whose name, or one of whose base
    classes, ends in `Dataset` (`class Pairs(InMemoryDataset)`, `torch.utils.data.Dataset`). A
    dataset's methods prepare samples on the CPU (in DataLoader workers or once, when the data is
    processed), so a data-dependent shape there costs no compilation on the device."""
    spans = ctx.memo.get("_dataset_spans")
    if spans is None:
        # (a class is a statement: the statement list has them all, no walk of every expression)
        spans = ctx.memo["_dataset_spans"] = [
            (n.lineno, n.end_lineno or n.lineno) for n in ctx.nodes(ast.ClassDef)
            if any(_tail(x).endswith("Dataset") for x in (n.name, *n.bases))
        ] if ctx.tree is not None else []
    line = getattr(hit.node, "lineno", None)
    return line is not None and any(first <= line <= last for first, last in spans)


def _tail(x) -> str:
    if isinstance(x, str):
        return x
    if type(x) is ast.Subscript:  # Dataset[int]
        x = x.value
    if type(x) is ast.Attribute:
        return x.attr
    if type(x) is ast.Name:
        return x.id
    return ""
