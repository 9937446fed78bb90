"""no-launcher: a distributed setting inside a runner configuration that says no launcher starts processes."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


def _launcher(node, names: frozenset, off: frozenset):
    """True / False when the call or dict literal sets a `launcher` key (keyword) to a literal that is / is not
    one of `off`; None when it sets none."""
    if type(node) is ast.Call:
        pairs = [(kw.arg, kw.value) for kw in node.keywords if kw.arg is not None]
    elif type(node) is ast.Dict:
        pairs = [(k.value, v) for k, v in zip(node.keys, node.values)
                 if type(k) is ast.Constant and type(k.value) is str]
    else:
        return None
    for key, value in pairs:
        if key in names:
            return type(value) is ast.Constant and value.value in off
    return None


@predicate("no-launcher", kinds=("keyword",))
def no_launcher(ctx, hit) -> bool:
    """The backend sits inside a runner configuration written as one call or dict literal that sets its launcher
    to a value meaning one process without a launcher (`Runner(..., launcher='none', env_cfg=dict(dist_cfg=
    dict(backend='nccl')))`, mmengine's test configs: `[context.values] launcher-keys` and `no-launcher-values`).
    Such a runner never initialises a process group, so the backend is never used. A launcher of another value
    (`'pytorch'`, `'slurm'`), one set elsewhere (a config file's `launcher = 'none'` that the command line
    overrides), or none at all keeps the finding."""
    names = frozenset(ctx.values.get("launcher-keys", ()))
    off = frozenset(ctx.values.get("no-launcher-values", ()))
    if not names or not off:
        return False
    node = hit.node
    p = parent_of(ctx, node)
    while p is not None and not isinstance(p, ast.stmt):
        got = _launcher(p, names, off)
        if got is not None:
            return got
        p = parent_of(ctx, p)
    return False
