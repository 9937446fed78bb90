"""type-test-only: a library imported only to name a class in isinstance / issubclass."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


def _bound(node) -> list:
    """The names an import binds: `import a.b` binds `a`, `import a.b as c` and `from a import b as c` bind `c`."""
    return [a.asname or (a.name if type(node) is ast.ImportFrom else a.name.split(".", 1)[0]) for a in node.names
            if a.name != "*"]


def _type_argument(ctx, ref) -> bool:
    """`isinstance(m, RoIPool)`, `issubclass(c, (ops.DeformConv2d, nn.Conv2d))`: the reference is (in) the type
    argument, not the object tested."""
    up = parent_of(ctx, ref)
    if type(up) is ast.Tuple:
        ref, up = up, parent_of(ctx, up)
    if not (type(up) is ast.Call and type(up.func) is ast.Name and up.func.id in ("isinstance", "issubclass")
            and len(up.args) == 2 and up.args[1] is ref):
        return False
    # negated: the code checks that the model does NOT hold the layer; a positive test (`if isinstance(m,
    # MultiScaleDeformableAttention): m.init_weights()`) finds the library's layer in the model, a port item
    test = parent_of(ctx, up)
    return type(test) is ast.UnaryOp and type(test.op) is ast.Not


def _outermost(ctx, name):
    """The attribute chain a name starts (`ops.RoIPool` for `ops`)."""
    node, up = name, parent_of(ctx, name)
    while type(up) is ast.Attribute and up.value is node:
        node, up = up, parent_of(ctx, up)
    return node


@predicate("type-test-only", kinds=("import",))
def type_test_only(ctx, hit) -> bool:
    """An import whose names are used, and used only, as the class of a negated `isinstance` / `issubclass` test
    (`from mmcv.ops import RoIPool` then `assert not isinstance(m, RoIPool)` in an inference demo). No kernel of
    the library is called in the file: the test only checks that a model built elsewhere does not hold its layer
    (issue 13 counts such a use value-blind). A positive test (`if isinstance(m, MultiScaleDeformableAttention):
    m.init_weights()`: the model holds the layer), a name also called, subclassed, passed or returned, an import
    with no use at all, or a star import, still match."""
    node = hit.node
    if type(node) not in (ast.Import, ast.ImportFrom):
        return False
    names = set(_bound(node))
    if not names or len(names) != len(node.names):
        return False
    uses = [n for n in ctx.nodes(ast.Name) if n.id in names and type(n.ctx) is ast.Load]
    return bool(uses) and all(_type_argument(ctx, _outermost(ctx, n)) for n in uses)
