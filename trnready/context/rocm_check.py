"""rocm-check: a CUDA query joined by `and` with a test of a ROCm build asks "is this ROCm", not "is there CUDA"."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate


def _rocm_test(node) -> bool:
    """`torch.version.hip`, `torch.version.hip is not None`, `bool(torch.version.hip)`, `getattr(torch.version,
    "hip", None)`: true only on a ROCm build of torch."""
    if type(node) is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) is ast.IsNot:
        node = node.left
    if type(node) is ast.Call and dotted(node.func) == "bool" and len(node.args) == 1:
        node = node.args[0]
    if type(node) is ast.Call and dotted(node.func) == "getattr" and len(node.args) >= 2:
        arg = node.args[1]
        return dotted(node.args[0]).endswith("version") and type(arg) is ast.Constant and arg.value == "hip"
    return dotted(node).endswith("version.hip")


@predicate("rocm-check", kinds=("reference",))
def rocm_check(ctx, hit) -> bool:
    """A CUDA query (`torch.cuda.is_available()`) that is an operand of an `and` whose other operand tests a ROCm
    build (`torch.version.hip`, `... is not None`, `getattr(torch.version, "hip", None)`): flash-attention's `if
    torch.cuda.is_available() and torch.version.hip:` picks the AMD layout. The test is False on a CUDA machine and
    on Neuron alike, so the query changes nothing of the port: the path both take is the other one. An `or`, or an
    `and` with any other operand, still matches."""
    node = parent_of(ctx, hit.node)
    if type(node) is ast.Call and node.func is hit.node:
        call, node = node, parent_of(ctx, node)
    else:
        call = hit.node
    if type(node) is not ast.BoolOp or type(node.op) is not ast.And:
        return False
    return any(_rocm_test(v) for v in node.values if v is not call)
