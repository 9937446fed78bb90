"""import-with-fallback: an import the program goes on without (`try: import cPickle as pickle` / `except ImportError:
import pickle`)."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("import-with-fallback", kinds=("import",))
def import_with_fallback(ctx, hit) -> bool:
    """The import sits where the program goes on without it: in a `try` whose `except ImportError` handler does not
    raise, or under an availability check (the optional imports of index.py). Used by TRN324's Python 2 modules: `try:
    import cPickle as pickle` / `except ImportError: import pickle` runs on both Pythons, so it is no Python 2 code to
    port, while a plain `import cPickle` fails on Python 3."""
    st = hit.node
    return type(st) in (ast.Import, ast.ImportFrom) and st in ctx.index.guarded
