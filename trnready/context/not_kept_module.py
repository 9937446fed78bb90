"""not-kept-module: a reference of a module rule that names something below the module, or the module elsewhere
than as a kept value."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("not-kept-module")
def not_kept_module(ctx, hit) -> bool:
    """For a rule about a module kept as a value (TRN355, `self.tt = torch.cuda`): the reference names something
    below the module (`torch.cuda.is_available`, which other rules report), or names the module itself anywhere but
    as the value of an assignment or one arm of a conditional expression assigned (`tt = torch.cuda if cuda else
    torch`): an argument (`hasattr(torch.cuda, "amp")`), a comparison or a string is no module kept for later use.
    Nor is a plain name bound to the module alone (`tt = torch.cuda`): the resolver reads `tt.FloatTensor(n)` as
    `torch.cuda.FloatTensor`, reported at each use, while an instance attribute or a conditional pick is opaque
    to it."""
    if hit.qualname and hit.qualname != hit.name:
        return True
    node = hit.node
    up = parent_of(ctx, node)
    picked = type(up) is ast.IfExp and node is not up.test
    if picked:
        node, up = up, parent_of(ctx, up)
    if not (type(up) in (ast.Assign, ast.AnnAssign) and up.value is node):
        return True
    targets = up.targets if type(up) is ast.Assign else [up.target]
    return not picked and all(type(t) is ast.Name for t in targets)
