"""layout-branch: an operation inside the arm of a test that the tensor has a sparse layout."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

_LAYOUT_FLAGS = frozenset({"is_sparse", "is_sparse_csr"})


def _layout_test(test) -> bool:
    """`x.is_sparse`, `x.is_sparse_csr`, `x.layout == torch.sparse_coo`, `x.layout in (torch.sparse_csr, ...)`, or an
    `and` holding one."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for p in parts:
        if type(p) is ast.Attribute and p.attr in _LAYOUT_FLAGS:
            return True
        if type(p) is ast.Compare and len(p.ops) == 1 and type(p.ops[0]) in (ast.Eq, ast.In, ast.Is):
            if any(type(s) is ast.Attribute and s.attr == "layout" for s in (p.left, *p.comparators)):
                return True
    return False


@predicate("layout-branch", kinds=("method",))
def layout_branch(ctx, hit) -> bool:
    """The operation sits in the body of an `if` (or the true arm of a conditional expression) that tests the
    tensor's layout: `if grad.is_sparse: grad = grad.coalesce()`, `if t.layout in (torch.sparse_csr,
    torch.sparse_csc): t.crow_indices()`. Such an arm runs only for a sparse input, and the code that makes the
    input sparse (`nn.Embedding(sparse=True)`, `to_sparse()`) is reported where it does so; a function that only
    handles whatever layout it is given builds no sparse tensor itself. Used by TRN141's sparse-only methods."""
    child = hit.node
    p = parent_of(ctx, child)
    while p is not None:
        k = type(p)
        if k is ast.If and child is not p.test and any(s is child for s in p.body) and _layout_test(p.test):
            return True
        if k is ast.IfExp and child is p.body and _layout_test(p.test):
            return True
        if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
            return False
        child, p = p, parent_of(ctx, p)
    return False
