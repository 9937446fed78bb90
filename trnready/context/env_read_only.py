"""env-read-only: an environment variable named only to read its value, never to set it."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

_GETTERS = frozenset({"get", "getenv", "environ_get"})


def _environ(e) -> bool:
    """`os.environ` or a bare `environ` (from os import environ)."""
    return isinstance(e, ast.Attribute) and e.attr == "environ" or isinstance(e, ast.Name) and e.id == "environ"


@predicate("env-read-only", kinds=("env",))
def env_read_only(ctx, hit) -> bool:
    """The variable's name is the key of a read: `os.environ.get("NCCL_DEBUG")`, `os.getenv("NCCL_DEBUG", "")`,
    `os.environ["NCCL_DEBUG"]` as a value, `"NCCL_DEBUG" in os.environ`. A rule about a variable that only tunes a
    library Trainium does not use (NCCL's) has nothing to port where the program merely looks at it; every write
    (`os.environ[X] = ...`, `os.environ.setdefault(X, ...)`, `os.environ.update(X=...)`, `X=1` in a command) stays
    a finding."""
    node = hit.node
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    up = parent_of(ctx, node)
    if isinstance(up, ast.Call) and up.args and up.args[0] is node:
        f = up.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        return name in _GETTERS and (name != "get" or _environ(getattr(f, "value", None)))
    if isinstance(up, ast.Subscript) and up.slice is node:
        return _environ(up.value) and isinstance(up.ctx, ast.Load)
    if isinstance(up, ast.Compare) and up.left is node and len(up.ops) == 1:
        return isinstance(up.ops[0], (ast.In, ast.NotIn)) and _environ(up.comparators[0])
    return False
