"""dtype-table: a dtype named as a value of a table that translates dtype names."""
from __future__ import annotations

import ast

from .base import expressions, parent_of, predicate


def _is_table(node, names) -> bool:
    return len(node.values) >= 2 and all(
        type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name for v in node.values)


@predicate("dtype-table", kinds=("reference",))
def dtype_table(ctx, hit) -> bool:
    """A dtype that is one value of a dictionary whose values are all dtypes:
    `{"float64": torch.float64, "float32": torch.float32}`, `{np.float64: torch.float64, ...}`.
    Such a table translates names into dtypes and creates nothing, so its entries are not uses of
    float64 (or int64, float8, ...). Likewise a module or class constant that lists four or more dtypes by
    position (`ID_TO_DTYPE = [torch.float32, torch.float64, ...]`, an encoding for metadata sent between ranks).
    The dtype names are data: `dtype-names` in [context.values]."""
    node = hit.node
    names = ctx.values.get("dtype-names", ())
    if type(node) is not ast.Attribute or node.attr not in names or ctx.tree is None:
        return False
    stmt = ctx.statement_at((node.lineno, node.col_offset))  # a table is written within one statement
    if stmt is None:
        return False
    if any(type(d) is ast.Dict and any(v is node for v in d.values) and _is_table(d, names)
           for d in expressions(stmt)):
        return True
    # ID_TO_DTYPE = [torch.float32, torch.float64, torch.float16, ...]: a module or class constant listing
    # dtypes by position (an id sent over the wire indexes it); a short list may be what a test runs with
    value = stmt.value if type(stmt) in (ast.Assign, ast.AnnAssign) else None
    if not isinstance(value, (ast.List, ast.Tuple)):
        return False
    return any(e is node for e in value.elts) and len(value.elts) >= _MIN_LISTED \
        and _all_dtypes(value.elts, names) and _constant_level(ctx, stmt)


# Entries a positional dtype list needs before it reads as an encoding table.
_MIN_LISTED = 4


def _all_dtypes(elts, names) -> bool:
    return all(type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name for v in elts)


def _constant_level(ctx, stmt) -> bool:
    parent = parent_of(ctx, stmt)
    return parent is None or isinstance(parent, (ast.Module, ast.ClassDef))
