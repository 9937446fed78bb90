"""method-defined-here: a removed method name that the file itself defines."""
from __future__ import annotations

import ast

from .base import predicate
from ..astwalk import walk


def _defined(tree) -> frozenset:
    return frozenset(n.name for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))) \
        if tree is not None else frozenset()


@predicate("method-defined-here", kinds=("method",))
def method_defined_here(ctx, hit) -> bool:
    """A method call of a name Python 3 removed from dict (`.iteritems()`, `.iterkeys()`, `.has_key()`) where the
    file defines a function or method of that name itself: a Python 3 module whose own class keeps the old names
    (the prefix Trie of wenet's `compute_hotwords_f1.py`, `def iterkeys(self, prefix=...)`, called as
    `self.iterkeys()`). The call may reach that method, so it shows no Python 2 code."""
    return hit.name in ctx.fact("method-defined-here", lambda c: _defined(c.tree))
