"""env-only-logged: an environment variable read only to be shown in a log line or a message."""
from __future__ import annotations

import ast

from .base import enclosing_function, parent_of, predicate
from ..astwalk import walk

# Expressions a read of the variable may sit in on its way to the value a statement binds:
# `os.environ["X"] if "X" in os.environ else "ALL"`, `os.environ.get("X", "")`, `str(os.getenv("X"))`.
_CARRIERS = (ast.Subscript, ast.Attribute, ast.Call, ast.IfExp, ast.BoolOp, ast.Compare, ast.keyword,
             ast.JoinedStr, ast.FormattedValue, ast.BinOp)


def _callee(call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _in_output(ctx, node, shown: frozenset) -> bool:
    """The node is (inside) an argument of a call of `output-functions` (`logger.info("X=%s" % v)`), within its
    statement."""
    child, p = node, parent_of(ctx, node)
    while p is not None and not isinstance(p, ast.stmt):
        if isinstance(p, ast.Call) and child is not p.func and _callee(p) in shown:
            return True
        child, p = p, parent_of(ctx, p)
    return False


@predicate("env-only-logged", kinds=("env",))
def env_only_logged(ctx, hit) -> bool:
    """A CUDA_VISIBLE_DEVICES (or other variable) name that only shows a value: the text of a log line or a
    message (`logger.info('CUDA_VISIBLE_DEVICES=%s' % gpu_list)`, an argument of a call of `output-functions`),
    or a read of the variable bound to a local name that is only ever handed to such calls
    (`gpu_list = os.environ['CUDA_VISIBLE_DEVICES'] if ... else 'ALL'` then `logger.info(... % gpu_list)`).
    Nothing is set or chosen: there is no setting to port. A read whose value is used otherwise (counted,
    split into device ids, passed on) stays a finding, as does every write."""
    node = hit.node
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    shown = frozenset(ctx.values.get("output-functions", ()))
    if not shown:
        return False
    if _in_output(ctx, node, shown):
        return True
    cur: ast.AST = node
    up = parent_of(ctx, node)
    while isinstance(up, _CARRIERS):
        if isinstance(up, ast.Call) and cur is up.func:
            return False
        cur, up = up, parent_of(ctx, up)
    if not (isinstance(up, ast.Assign) and up.value is cur and len(up.targets) == 1
            and isinstance(up.targets[0], ast.Name)):
        return False
    fn = enclosing_function(ctx, up)
    if fn is None:
        return False  # a module-level name may be imported and used elsewhere
    name = up.targets[0].id
    uses = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(_in_output(ctx, n, shown) for n in uses)
