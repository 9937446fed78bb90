"""fallback-binding: a name the file imports in a `try` and again in its ImportError handler."""
from __future__ import annotations

import ast

from .base import predicate, root_name
from ..astwalk import walk

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception"})


def _bound(statements) -> set:
    """Names the import statements among `statements` bind."""
    out: set = set()
    for st in statements:
        for n in walk(st):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                out.update((a.asname or a.name).split(".", 1)[0] for a in n.names if a.name != "*")
    return out


def _catches_import_error(h) -> bool:
    t = h.type
    names = [t] if t is not None and type(t) is not ast.Tuple else list(getattr(t, "elts", ()))
    return t is None or any(type(e) is ast.Name and e.id in _IMPORT_ERRORS for e in names)


def _both_bound(tree) -> frozenset:
    out: set = set()
    if tree is None:
        return frozenset()
    for node in walk(tree):
        if type(node) is not ast.Try:
            continue
        first = _bound(node.body)
        if not first:
            continue
        for h in node.handlers:
            if _catches_import_error(h):
                out |= first & _bound(h.body)
    return frozenset(out)


@predicate("fallback-binding", kinds=("reference",))
def fallback_binding(ctx, hit) -> bool:
    """A reference whose first name the file binds by an import in a `try` body and again by an import in that
    try's `except ImportError:` handler: `try: from collections.abc import Iterable` / `except ImportError: from
    collections import Iterable` (fairseq's `data_utils.py`, copied into NeuralSpeech twice, fresh60). Whichever
    of the two works on the running Python binds the name, so a removed spelling in one of them never fails on
    3.12: the program takes the other."""
    name = root_name(hit.node)
    return name is not None and name in ctx.fact("fallback-binding", lambda c: _both_bound(c.tree))
