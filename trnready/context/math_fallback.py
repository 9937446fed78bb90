"""math-fallback: a list of SDPA backends that still holds the math kernel."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("math-fallback", kinds=("reference",))
def math_fallback(ctx, hit) -> bool:
    """The backend is one element of a list, tuple or set literal that also holds `SDPBackend.MATH`:
    `sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])`. SDPA picks the
    first backend of the list that can run; the math kernel runs on every device, Neuron included, so the list
    restricts nothing there and nothing fails. A list of CUDA kernels alone stays reported."""
    up = parent_of(ctx, hit.node)
    if type(up) not in (ast.List, ast.Tuple, ast.Set):
        return False
    return any(type(e) is ast.Attribute and e.attr == "MATH" or type(e) is ast.Name and e.id == "MATH"
               for e in up.elts)
