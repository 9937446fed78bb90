"""class-mention-only: a class named without being used to build or run anything."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate, stored_target


def _type_argument(ctx, ref) -> bool:
    """`isinstance(m, (MinMaxObserver, PerChannelMinMaxObserver))`: the reference is (in) the type argument."""
    up = parent_of(ctx, ref)
    if type(up) is ast.Tuple:
        ref, up = up, parent_of(ctx, up)
    return type(up) is ast.Call and type(up.func) is ast.Name and up.func.id in ("isinstance", "issubclass") \
        and len(up.args) == 2 and up.args[1] is ref


def _base_called_in_subclass(ctx, ref) -> bool:
    """`Base.__init__(self, ...)` / `Base.method(self)` inside a method of a class that derives from `Base`: the
    class statement names the same base, and that is the place of the finding. The reference is the chain
    `Base.method` (or `Base` inside it)."""
    method = ref if type(ref) is ast.Attribute else parent_of(ctx, ref)
    if type(method) is not ast.Attribute or (method is not ref and method.value is not ref):
        return False
    call = parent_of(ctx, method)
    if type(call) is not ast.Call or call.func is not method or not call.args:
        return False
    first = call.args[0]
    if type(first) is not ast.Name or first.id not in ("self", "cls"):
        return False
    text = dotted(method.value)
    p = parent_of(ctx, call)
    while p is not None and type(p) is not ast.ClassDef:
        p = parent_of(ctx, p)
    return bool(text) and p is not None and any(dotted(b) == text for b in p.bases)


@predicate("class-mention-only", kinds=("reference",))
def class_mention_only(ctx, hit) -> bool:
    """A reference to a class that builds nothing and runs none of its code on a model: the class of an
    `isinstance` / `issubclass` test (`if isinstance(m, (MinMaxObserver, PerChannelMinMaxObserver)):
    m.reset_min_max_vals()` finds observers some qconfig put in the model, and that qconfig is the item), the
    object of an attribute an assignment replaces (`PerChannelMinMaxObserver.reset_min_max_vals = f`, a patch
    applied at import), or the class called explicitly as the base of the class around the call
    (`PerChannelMinMaxObserver.__init__(self, ...)` in a subclass of it, whose class statement is the finding).
    A construction (`PerChannelMinMaxObserver(ch_axis=0)`, `.with_args(...)`), a value passed or assigned, and a
    base class still match."""
    node = hit.node
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    if _type_argument(ctx, node):
        return True
    if stored_target(ctx, node) is not None:
        return True
    return _base_called_in_subclass(ctx, node)
