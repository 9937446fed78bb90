"""dtype-table: a dtype named as a value of a table that translates dtype names."""
from __future__ import annotations

import ast

from .base import predicate


def _table_entries(ctx) -> set:
    names = frozenset(ctx.values.get("dtype-names", ()))
    out: set = set()
    if not names:
        return out
    for node in ctx.nodes(ast.Dict):
        if len(node.values) >= 2 and all(
                type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name for v in node.values):
            out.update(id(v) for v in node.values)
    return out


@predicate("dtype-table", kinds=("reference",))
def dtype_table(ctx, hit) -> bool:
    """A dtype that is one value of a dictionary whose values are all dtypes:
    `{"float64": torch.float64, "float32": torch.float32}`, `{np.float64: torch.float64, ...}`.
    Such a table translates names into dtypes and creates nothing, so its entries are not uses of
    float64 (or int64, float8, ...). The dtype names are data: `dtype-names` in [context.values]."""
    node = hit.node
    if type(node) is not ast.Attribute or node.attr not in ctx.values.get("dtype-names", ()):
        return False
    return id(node) in ctx.fact("dtype-table", _table_entries)
