"""only-shown: a call whose result only goes into a message (a log line, a warning, a print)."""
from __future__ import annotations

import ast

from .base import imported_name, parent_of, predicate


# libraries whose functions compute, some named like a logger's methods (`torch.log(x)`, `np.log`, `math.log`)
_COMPUTING_ROOTS = frozenset({"torch", "numpy", "math", "cmath", "jax"})


def _callee(ctx, call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        return "" if imported_name(ctx, f)[0].split(".")[0] in _COMPUTING_ROOTS else f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _metric_log(call) -> bool:
    """`self.log("n", v)`: Lightning's metric logging records a value every step; it is no message."""
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" \
        and f.attr.startswith("log")


@predicate("only-shown", kinds=("call", "method", "reference", "subscript"))
def only_shown(ctx, hit) -> bool:
    """The call sits, within its statement, in an argument of a call of `output-functions` (`logger.warning(
    "unexpected end at %s", str([i.item() for i in finish.nonzero()]))`, `print(torch.unique(labels))`): its
    result only builds the text of a message, which the program never computes with; so does a boolean-mask
    selection (`print("unlabeled", torch.bincount(dataset.y[~LABEL_MASK]))`, fresh78). Such a data-dependent
    shape sizes a string, not a tensor the model goes on with. For a reference, the same holds for the query it
    names when it answers on any machine (`shown-queries`: `print('CUDA available: {}'.format(
    torch.cuda.is_available()))` is a log line, no device decision; a memory statistic logged as 0 is a wrong
    figure and stays). A
    result bound to a name, returned, tested or passed to anything else, and Lightning's `self.log(...)` metric
    logging, still match."""
    shown = frozenset(ctx.values.get("output-functions", ()))
    node = hit.node
    if hit.matcher.kind == "reference":
        # only the queries that answer on any machine: a memory statistic reads 0 without CUDA (a wrong figure in
        # the log) and `memory_summary()` / `get_device_name()` raise. Not in Python run inline by a launcher
        # (`GPUS=$(python -c "import torch; print(torch.cuda.device_count())")`): the print is the value captured
        if hit.name not in ctx.values.get("shown-queries", ()) or not ctx.path.endswith((".py", ".ipynb")):
            return False
    elif not isinstance(node, (ast.Call, ast.Subscript)):
        return False  # a subscript: a boolean-mask selection read only into a message (`print(y[~mask].sum())`)
    if not shown:
        return False
    child, p = node, parent_of(ctx, node)
    while p is not None and not isinstance(p, ast.stmt):
        if isinstance(p, ast.Call) and child is not p.func and _callee(ctx, p) in shown and not _metric_log(p):
            return True
        if isinstance(p, (ast.Lambda, ast.NamedExpr)):
            return False
        child, p = p, parent_of(ctx, p)
    return False
