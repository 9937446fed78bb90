"""plotting-code: a function that draws a figure from host arrays and never touches torch."""
from __future__ import annotations

import ast

from .base import enclosing_function, predicate
from ..astwalk import walk


def _draws(call: ast.Call, receivers: frozenset) -> bool:
    """`plt.scatter(...)`, `ax.add_patch(...)`, `axes[0].imshow(...)`: a call on a plotting receiver."""
    f = call.func
    if type(f) is not ast.Attribute:
        return False
    base: ast.expr = f.value
    while isinstance(base, (ast.Subscript, ast.Attribute)) and not (
            isinstance(base, ast.Attribute) and base.attr in receivers):
        base = base.value
    name = base.id if type(base) is ast.Name else base.attr if type(base) is ast.Attribute else ""
    return name in receivers


def _uses_torch(fn, names: frozenset) -> bool:
    """The function names torch (`torch.x`, `F.x`, `nn.x`) or moves a value (`.cuda()`, `.to(...)`)."""
    for n in walk(fn):
        if type(n) is ast.Name and n.id in names:
            return True
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in ("cuda", "to"):
            return True
    return False


@predicate("plotting-code", kinds=("subscript", "method"))
def plotting_code(ctx, hit) -> bool:
    """The match sits in a function that draws (a call on a receiver of `plotting-receivers`: `plt`, `ax`,
    `axes`, `fig`) and that names no torch module (`torch`, `F`, `nn`, the names of `plotting-torch-names`) and
    moves nothing (`.cuda()`, `.to(...)`): `coords[labels == 1]` in a `show_points(coords, labels, ax)` helper
    selects NumPy points for a scatter plot on the host. A data-dependent size there compiles nothing."""
    fn = enclosing_function(ctx, hit.node)
    if fn is None:
        return False
    receivers = frozenset(ctx.values.get("plotting-receivers", ()))
    if not any(type(n) is ast.Call and _draws(n, receivers) for n in walk(fn)):
        return False
    return not _uses_torch(fn, frozenset(ctx.values.get("plotting-torch-names", ("torch", "F", "nn"))))
