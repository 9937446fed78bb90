"""Shared by the predicates that ask "is the match inside a class of this kind" (in-dataset-class,
in-visualizer-class): a class is of a kind when its name, or one of its base classes' names, ends in a word."""
from __future__ import annotations

import ast


def class_name_tail(x) -> str:
    """The last name of a class name or base class expression (`pkg.Dataset` -> "Dataset", `Dataset[int]` too)."""
    if isinstance(x, str):
        return x
    if type(x) is ast.Subscript:  # Dataset[int]
        x = x.value
    if type(x) is ast.Attribute:
        return x.attr
    if type(x) is ast.Name:
        return x.id
    return ""


def inside_class_ending(ctx, hit, suffix: str) -> bool:
    """The match sits in the body of a class whose name or a base's name ends in `suffix` (line spans kept per
    file in the context's memo)."""
    key = f"_class_spans_{suffix}"
    spans = ctx.memo.get(key)
    if spans is None:
        # (a class is a statement: the statement list has them all, no walk of every expression)
        spans = ctx.memo[key] = [
            (n.lineno, n.end_lineno or n.lineno) for n in ctx.nodes(ast.ClassDef)
            if any(class_name_tail(x).endswith(suffix) for x in (n.name, *n.bases))
        ] if ctx.tree is not None else []
    line = getattr(hit.node, "lineno", None)
    return line is not None and any(first <= line <= last for first, last in spans)
