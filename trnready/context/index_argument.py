"""index-argument: a mask-named parameter that every caller in the file fills with integer positions."""
from __future__ import annotations

import ast

from ..masks import name_words, tail_of
from .base import enclosing_function, predicate
from ..astwalk import walk

_MAX_DEPTH = 3


def _param_slot(fn, name: str):
    """(position, skip_self) of parameter `name` of fn, or None."""
    args = fn.args.posonlyargs + fn.args.args
    for i, a in enumerate(args):
        if a.arg == name:
            return i, bool(args) and args[0].arg in ("self", "cls")
    if any(a.arg == name for a in fn.args.kwonlyargs):
        return -1, False
    return None


def _callers(ctx, fn) -> list:
    return [c for c in ctx.calls() if tail_of(c.func) == fn.name]


def _passed(call, fn, name):
    slot = _param_slot(fn, name)
    if slot is None:
        return None
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    pos, skip_self = slot
    if pos < 0:
        return None
    if skip_self and type(call.func) is ast.Attribute:
        pos -= 1
    if pos < 0 or any(type(a) is ast.Starred for a in call.args[:pos + 1]) or pos >= len(call.args):
        return None
    return call.args[pos]


def _is_index(ctx, expr, words, not_words, depth) -> bool:
    node = expr
    while type(node) is ast.Subscript:
        node = node.value
    if type(node) is ast.Call:
        return tail_of(node.func) in ctx.resolver.index_makers
    if type(node) in (ast.List, ast.ListComp):
        return _positions(node)
    if type(node) is not ast.Name:
        return False
    parts = name_words(node.id)
    if parts & not_words:
        return True
    if parts & words:
        return _index_param(ctx, node, words, not_words, depth + 1) \
            or _bound_to_index(ctx, node, words, not_words, depth + 1)
    return False


def _positions(node) -> bool:
    """A Python list of integer positions: `[17, 23]`, `[d for d in dims if d < n]` (its element a name, a number
    or arithmetic, never a comparison or a truth value, which would make a list of booleans)."""
    if type(node) is ast.List:
        return bool(node.elts) and all(type(e) is ast.Constant and type(e.value) is int for e in node.elts)
    elt = node.elt
    return type(elt) in (ast.Name, ast.BinOp) or type(elt) is ast.Constant and type(elt.value) is int


def _assigned(fn, name: str) -> list:
    """The values assigned to `name` in fn's body (None for a target that is not a plain assignment)."""
    found = []
    for st in walk(fn):
        if type(st) in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            for t in getattr(st, "targets", None) or [getattr(st, "target", None)]:
                if type(t) is ast.Name and t.id == name:
                    found.append(st.value if type(st) is ast.Assign else None)
                elif any(type(e) is ast.Name and e.id == name for e in walk(t)):
                    found.append(None)  # unpacked from something else
    return found


def _bound_to_index(ctx, name_node, words, not_words, depth) -> bool:
    """`mask_test = torch.randperm(n)[:k]` in the caller: every assignment of the name there is to positions."""
    if depth > _MAX_DEPTH:
        return False
    fn = enclosing_function(ctx, name_node)
    if fn is None:
        return False
    values = _assigned(fn, name_node.id)
    return bool(values) and all(v is not None and _is_index(ctx, v, words, not_words, depth) for v in values)


def _index_param(ctx, name_node, words, not_words, depth) -> bool:
    """The name is a parameter of its function, and every call of that function in the file passes integer
    positions there (at least one call)."""
    if depth > _MAX_DEPTH:
        return False
    fn = enclosing_function(ctx, name_node)
    if fn is None or _param_slot(fn, name_node.id) is None:
        return False
    if any(type(t) is ast.Name and t.id == name_node.id for st in walk(fn)
           if type(st) in (ast.Assign, ast.AugAssign, ast.AnnAssign)
           for t in (getattr(st, "targets", None) or [getattr(st, "target", None)])):
        return False  # rebound in the function: the caller's value is not the one indexed with
    callers = _callers(ctx, fn)
    if not callers:
        return False
    for call in callers:
        arg = _passed(call, fn, name_node.id)
        if arg is None or not _is_index(ctx, arg, words, not_words, depth):
            return False
    return True


@predicate("index-argument", kinds=("subscript",))
def index_argument(ctx, hit) -> bool:
    """`x[mask_train]` where `mask_train` is a parameter whose name says mask, but every call of the function in
    the file passes integer positions there (or, since session 56, a local name every assignment of which is such
    positions, also as one part of a tuple index: `res[:, valid_dims]` with `valid_dims = [d for d in dims if ...]`
    or `[17, 23]`): a name holding one of the `mask-not-words` (`idx_train`), a call
    that makes positions (`torch.randperm(n)[:k]`, `arange`, `argsort`, `nonzero`...), or another such
    parameter (`test(model, mask)` called from `train(..., mask_train)` called with `idx_train`). Indexing with
    integer positions keeps a fixed number of rows; the shape does not depend on the data. A function called
    nowhere in the file, or once with a boolean mask, still matches."""
    node = hit.node
    if type(node) is not ast.Subscript:
        return False
    words = frozenset(ctx.values.get("mask-words", ()))
    not_words = frozenset(ctx.values.get("mask-not-words", ()))
    if type(node.slice) is ast.Name:
        return _index_param(ctx, node.slice, words, not_words, 0) \
            or _bound_to_index(ctx, node.slice, words, not_words, 1)
    if type(node.slice) is ast.Tuple:
        # `res[:, valid_dims]` with `valid_dims = [d for d in dims if d < res.size(1)]` (Payload_gnn's anomaly
        # scores, fresh83): the mask-named part is a list of column positions
        named = [e for e in node.slice.elts if type(e) is ast.Name and name_words(e.id) & words]
        return bool(named) and all(_index_param(ctx, e, words, not_words, 0)
                                   or _bound_to_index(ctx, e, words, not_words, 1) for e in named)
    return False
