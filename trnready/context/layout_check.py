"""layout-check: a sparse layout named only to test a tensor's layout."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("layout-check", kinds=("reference",))
def layout_check(ctx, hit) -> bool:
    """A layout constant (`torch.sparse_csr`, `torch.sparse_coo`) used as an operand of a comparison,
    directly or inside a tuple/list/set compared with `in`: `x.layout == torch.sparse_csr`,
    `if t.layout in (torch.sparse_csr, torch.sparse_csc):`. Testing the layout builds no sparse tensor;
    the code that creates or converts one is reported where it does so."""
    node = hit.node
    p = parent_of(ctx, node)
    if type(p) in (ast.Tuple, ast.List, ast.Set):
        node, p = p, parent_of(ctx, p)
    return type(p) is ast.Compare and type(p.ops[0]) in (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)
