"""optional-import: the name was imported under an optional-import guard."""
from __future__ import annotations

from .base import predicate, root_name


@predicate("optional-import", kinds=("reference",))
def optional_import(ctx, hit) -> bool:
    """A reference whose first name was bound by an import inside `try: ... except ImportError:`
    or `if is_x_available():` (for example `if XLA_AVAILABLE: xm.mark_step()`). That path runs
    only where the optional package is installed, and the import itself is already reported
    (at medium confidence), so each use would repeat it."""
    guarded = ctx.index.guarded_names
    return bool(guarded) and root_name(hit.node) in guarded
