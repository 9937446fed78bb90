"""cuda-checked: inside the body of a CUDA check."""
from __future__ import annotations

import ast
import re

from .base import predicate

_CUDA_NAME = re.compile(r"(^|_)(cuda|gpu)($|_)", re.I)


def _tail(e) -> str:
    return e.attr if type(e) is ast.Attribute else e.id if type(e) is ast.Name else ""


def is_cuda_check(test: ast.expr) -> bool:
    """torch.cuda.is_available(), x.device.type == "cuda", device.startswith("cuda"), args.cuda, use_cuda,
    x.is_cuda, combined with `and`; a negated test is not a check that CUDA is there."""
    t = type(test)
    if t is ast.BoolOp:
        parts = [is_cuda_check(v) for v in test.values]
        return any(parts) if type(test.op) is ast.And else all(parts)
    if t is ast.Call:
        f = test.func
        if type(f) is ast.Attribute and f.attr == "is_available" and _tail(f.value) == "cuda":
            return True
        if type(f) is ast.Attribute and f.attr == "startswith" and test.args and type(test.args[0]) is ast.Constant:
            return test.args[0].value in ("cuda", "cuda:")
        return False
    if t is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Eq, ast.In):
        return any(type(o) is ast.Constant and o.value in ("cuda", "gpu") for o in (test.left, *test.comparators))
    if t in (ast.Name, ast.Attribute):
        return bool(_CUDA_NAME.search(_tail(test)))
    return False


def _bodies(ctx) -> list:
    """(start, end) positions of the bodies of `if <CUDA check>:` statements in the file."""
    out = []
    for node in ctx.nodes(ast.If):
        if node.body and _tail(node.test) != "TYPE_CHECKING" and is_cuda_check(node.test):
            first, last = node.body[0], node.body[-1]
            out.append(((first.lineno, first.col_offset), (last.end_lineno, last.end_col_offset)))
    return out


@predicate("cuda-checked", kinds=("reference",))
def cuda_checked(ctx, hit) -> bool:
    """An attribute reference inside the body of `if torch.cuda.is_available():`, `if x.device.type == "cuda":`,
    `if x.is_cuda:`, `if args.cuda:` or `if use_gpu:` (a test that CUDA is present; a negated test is not).
    For a rule whose fix is "put this behind a CUDA check", the code already does what the fix asks."""
    node = hit.node
    if type(node) is not ast.Attribute:
        return False
    pos = (node.lineno, node.col_offset)
    return any(start <= pos < end for start, end in ctx.fact("cuda-checked", _bodies))
