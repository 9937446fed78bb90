"""no-tensor-evidence: a method match whose receiver is not shown to be a torch tensor."""
from __future__ import annotations

import ast

from .. import masks
from .base import call_scope, imported_roots, predicate


@predicate("no-tensor-evidence", kinds=("method",))
def no_tensor_evidence(ctx, hit) -> bool:
    """The method's receiver shows no sign of being a torch tensor in the file: it was not made by a
    torch function (`torch.cat(...).unique()`, `ids = torch.tensor(x)` then `ids.unique()`), directly
    or through a method chain; or a slice over several axes (`det[:, 5].unique()`), which pandas takes only
    through `.loc` / `.iloc` and NumPy arrays have no `.unique()` method for. Names such as `unique` are common
    on pandas and NumPy values, so the method alone is not evidence."""
    call = hit.node
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute:
        return True
    receiver = call.func.value
    return not (masks.is_tensor(receiver, call_scope(ctx, call), ctx.resolver) or _multi_axis_slice(receiver)
                or call.func.attr == "unique" and not _column_like(receiver) and ctx.fact(
                    "no-tensor-evidence:torch-without-dataframes", _torch_without_dataframes))


def _torch_without_dataframes(ctx) -> bool:
    """The file imports torch and no library of `dataframe-packages`: `.unique()` there is a tensor's method
    (a NumPy array has none; np.unique is a function), as in `ids = inst.unique()` of a panoptic loss."""
    heads = imported_roots(ctx)
    return "torch" in heads and not heads & frozenset(ctx.values.get("dataframe-packages", ()))


def _column_like(e) -> bool:
    """`table["label"]`, `frame.label.values`, `x.index`: a keyed column or an attribute of a frame-like value, read
    as not a tensor even without a dataframe import (the frame may come from a project helper)."""
    if type(e) is ast.Subscript and (type(e.slice) is ast.Constant and isinstance(e.slice.value, str)
                                     or type(e.value) is ast.Attribute and e.value.attr in _FRAME_INDEXERS):
        return True
    return type(e) is ast.Attribute and e.attr in ("values", "index", "columns", "str", "cat", "dt")


_FRAME_INDEXERS = ("loc", "iloc", "at", "iat", "ix")


def _multi_axis_slice(e) -> bool:
    """`det[:, 5].unique()`, `x[..., 0].unique()`: a slice over several axes, which a pandas Series or Index
    does not take without `.loc` / `.iloc` (and a NumPy array has no `.unique()` method): a tensor."""
    if type(e) is not ast.Subscript or type(e.slice) is not ast.Tuple:
        return False
    if type(e.value) is ast.Attribute and e.value.attr in _FRAME_INDEXERS:
        return False
    return any(type(s) is ast.Slice or (type(s) is ast.Constant and s.value is Ellipsis) for s in e.slice.elts)
