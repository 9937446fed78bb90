"""compare-without-device: a backend comparison whose arms pick no device."""
from __future__ import annotations

import ast

from .base import parent_of, places_on_device, predicate
from ..astwalk import walk

_DEVICE_CALLS = frozenset({"device", "set_device", "cuda", "cpu"})


def _names_a_device(stmts) -> bool:
    for top in stmts:
        for n in walk(top):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and (
                    n.value in ("cuda", "cpu") or n.value.startswith("cuda:")):
                return True
            if isinstance(n, ast.Call):
                f = n.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name in _DEVICE_CALLS or places_on_device(n):
                    return True
    return False


@predicate("compare-without-device", kinds=("keyword",))
def compare_without_device(ctx, hit) -> bool:
    """The value an `if` test compares a backend with (`if dist.get_backend() == "nccl":`, a keyword matcher with
    `compared = true`) when no arm of that `if` names or picks a device: sam2 opens an extra gloo group for CPU
    gathers under `if dist.get_backend() == "nccl":` and otherwise keeps the world group, which works on any
    backend. Only a test whose arms pick the device (`torch.device("cuda")` against `torch.device("cpu")`,
    `.cuda()`, `set_device`) silently moves the work to the CPU on Trainium, and that test is the finding."""
    node = hit.node
    cur, up = node, parent_of(ctx, node)
    while up is not None and not isinstance(up, ast.If):
        if isinstance(up, ast.stmt):
            return False  # not in an if test
        cur, up = up, parent_of(ctx, up)
    if up is None or up.test is not cur:
        return False
    return not _names_a_device(up.body + up.orelse)
