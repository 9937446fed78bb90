"""not-a-class-base: a reference that is not a base of a class statement."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("not-a-class-base", kinds=("reference",))
def not_a_class_base(ctx, hit) -> bool:
    """The referenced name is used otherwise than as a base class (`isinstance(m, nn.DataParallel)`, `m.module if
    type(m) is DataParallel`). For matchers that report a class only where the project derives its own class from
    it (`class DictGatherDataParallel(nn.DataParallel)`): the derived class is the wrapper the port replaces, and
    a type test or an unwrap of `.module` is no use of it."""
    node = hit.node
    up = parent_of(ctx, node)
    return not (type(up) is ast.ClassDef and any(b is node for b in up.bases))
