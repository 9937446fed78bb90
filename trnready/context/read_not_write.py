"""read-not-write: a setting that is read, neither assigned nor called."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("read-not-write", kinds=("reference",))
def read_not_write(ctx, hit) -> bool:
    """A reference that only reads a value: `old = torch.backends.cudnn.benchmark`,
    `if torch.backends.cuda.matmul.allow_tf32:`. For rules about settings, reading a flag changes
    nothing; assignments (`... = True`) and calls (`torch.backends.cudnn.flags(...)`) still match."""
    node = hit.node
    return type(getattr(node, "ctx", None)) is ast.Load and id(node) not in ctx.index.called_refs
