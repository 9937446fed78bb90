"""reaching-positions: a mask-looking index whose binding reaching the use holds integer positions."""
from __future__ import annotations

import ast

from ..masks import tail_of
from .base import enclosing_function, predicate
from .numpy_operand import _reaching

_MAX_DEPTH = 4


def _index_name(node) -> ast.Name | None:
    """The plain name indexing `x[keep]` / `x[keep, :]`, else None."""
    sl = node.slice
    if type(sl) is ast.Tuple:
        names = [e for e in sl.elts if type(e) is not ast.Slice]
        sl = names[0] if len(names) == 1 else None
    return sl if type(sl) is ast.Name else None


def _positions(ctx, fn, name: str, use, depth: int = 0) -> bool:
    """The assignment of `name` reaching `use` binds the result of an index-making call (through subscripts of it:
    `keep = nms_func(boxes, scores, t)[:n]`), or a slice of the name's own earlier positions (`keep = keep[:n]`,
    followed to the binding reaching that line)."""
    st = _reaching(ctx, fn, name, use)
    if type(st) is not ast.Assign or len(st.targets) != 1 or type(st.targets[0]) is not ast.Name:
        return False
    value = st.value
    while type(value) is ast.Subscript:
        if type(value.value) is ast.Name and value.value.id == name:
            return depth < _MAX_DEPTH and type(value.slice) is ast.Slice and \
                _positions(ctx, fn, name, value.value, depth + 1)
        value = value.value
    if type(value) is not ast.Call:
        return False
    tail = tail_of(value.func)
    if tail == "where" and len(value.args) + len(value.keywords) > 1:
        return False  # `torch.where(cond, mask, other)` picks values: a boolean mask stays one (Uni-Core)
    return tail in ctx.resolver.index_makers


@predicate("reaching-positions", kinds=("subscript",))
def reaching_positions(ctx, hit) -> bool:
    """`x[keep]` where the assignment of `keep` that reaches the subscript (the last one before it in a block
    holding it) binds integer positions: the result of an `index-making-calls` call (`keep = nms_func(bbox,
    scores, thr)`, `keep = _box_nms(boxes, score, t)`, a project's NMS wrapper matched by the `*_nms` / `nms_*`
    globs), possibly cut to a fixed count (`keep = keep[:nms_post]`). Another branch of the function may bind the
    same name to a boolean mask (`keep = obj_scores >= score_thr` under `if score_thr is not None:`), which is why
    the name alone reads as a mask; but that binding does not reach this use, and indexing with positions gathers
    as many rows as the index holds (the data-dependent size, if any, is the index-making call's own finding).
    A binding in another arm only, a loop target, a walrus or a parameter leave the index a mask."""
    node = hit.node
    if type(node) is not ast.Subscript:
        return False
    name = _index_name(node)
    fn = enclosing_function(ctx, node)
    if name is None or fn is None:
        return False
    return _positions(ctx, fn, name.id, name)
