"""cuda-arm-value: a setting's value written in the arm of a CUDA check."""
from __future__ import annotations

import ast

from .base import predicate
from .cuda_checked import is_cuda_check


def _names_cuda_type(test: ast.expr) -> bool:
    """`accelerator.type == DeviceType.CUDA`: a device-type enum member compared for equality."""
    return type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.Eq and any(
        type(o) is ast.Attribute and o.attr == "CUDA" for o in (test.left, *test.comparators))


def _arms(ctx) -> list:
    """(start, end) positions of the bodies of `if` / `elif` statements whose test checks for CUDA."""
    out = []
    for node in ctx.nodes(ast.If):
        if node.body and (is_cuda_check(node.test) or _names_cuda_type(node.test)):
            first, last = node.body[0], node.body[-1]
            out.append(((first.lineno, first.col_offset), (last.end_lineno, last.end_col_offset)))
    return out


@predicate("cuda-arm-value", kinds=("keyword",))
def cuda_arm_value(ctx, hit) -> bool:
    """A value a keyword matcher reads off a default, an assert or a getter's `return` that sits in the body of
    a CUDA check (`elif accelerator.type == DeviceType.CUDA: return "nccl"`, `if torch.cuda.is_available():`):
    that arm never runs on Trainium, which takes another arm (the finding, if any, is there). A getter that
    answers "nccl" on a test that holds on Trainium too (`if dist.is_nccl_available():`) stays reported."""
    node = hit.node
    if not hasattr(node, "lineno"):
        return False
    pos = (node.lineno, node.col_offset)
    return any(start <= pos < end for start, end in ctx.fact("cuda-arm-value", _arms))
