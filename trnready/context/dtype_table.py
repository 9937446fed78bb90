"""dtype-table: a dtype named as a value of a table that translates dtype names."""
from __future__ import annotations

import ast

from .base import expressions, predicate


def _is_table(node, names) -> bool:
    return len(node.values) >= 2 and all(
        type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name for v in node.values)


@predicate("dtype-table", kinds=("reference",))
def dtype_table(ctx, hit) -> bool:
    """A dtype that is one value of a dictionary whose values are all dtypes:
    `{"float64": torch.float64, "float32": torch.float32}`, `{np.float64: torch.float64, ...}`.
    Such a table translates names into dtypes and creates nothing, so its entries are not uses of
    float64 (or int64, float8, ...). The dtype names are data: `dtype-names` in [context.values]."""
    node = hit.node
    names = ctx.values.get("dtype-names", ())
    if type(node) is not ast.Attribute or node.attr not in names or ctx.tree is None:
        return False
    stmt = ctx.statement_at((node.lineno, node.col_offset))  # a table is written within one statement
    return stmt is not None and any(type(d) is ast.Dict and any(v is node for v in d.values) and _is_table(d, names)
                                    for d in expressions(stmt))
