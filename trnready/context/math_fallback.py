"""math-fallback: a list of SDPA backends that still holds the math kernel."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("math-fallback", kinds=("reference",))
def math_fallback(ctx, hit) -> bool:
    """The backend is one element of a list, tuple or set literal that also holds `SDPBackend.MATH`:
    `sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])`. SDPA picks the
    first backend of the list that can run; the math kernel runs on every device, Neuron included, so the list
    restricts nothing there and nothing fails. Likewise a value of a dictionary that maps names to backends and
    holds the math kernel (`{"math": SDPBackend.MATH, "flash_attention": SDPBackend.FLASH_ATTENTION}` for a
    command-line choice): the table picks nothing by itself. A list of CUDA kernels alone stays reported."""
    up = parent_of(ctx, hit.node)
    if type(up) is ast.Dict and any(v is hit.node for v in up.values):
        elts = [v for v in up.values if v is not None]  # {"math": SDPBackend.MATH, "flash": ...}: a user's choice
    elif type(up) in (ast.List, ast.Tuple, ast.Set):
        elts = up.elts
    else:
        return False
    return any(type(e) is ast.Attribute and e.attr == "MATH" or type(e) is ast.Name and e.id == "MATH"
               for e in elts)
