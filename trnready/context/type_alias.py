"""type-alias: a reference that only names a type inside `Union[...]` / `Optional[...]`."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate

_TYPE_FORMS = frozenset({"Union", "Optional"})


@predicate("type-alias", kinds=("reference",))
def type_alias(ctx, hit) -> bool:
    """The matched name sits in the brackets of `typing.Union[...]` or `Optional[...]`: `IndexType =
    Union[slice, torch.LongTensor, torch.cuda.LongTensor]` is a type alias for annotations, which Python never
    evaluates against a device (annotations themselves are not walked at all). The class is named, not called,
    and nothing is placed on CUDA."""
    child, p = hit.node, parent_of(ctx, hit.node)
    while p is not None and not isinstance(p, ast.stmt):
        if isinstance(p, ast.Subscript) and child is p.slice and dotted(p.value).rsplit(".", 1)[-1] in _TYPE_FORMS:
            return True
        child, p = p, parent_of(ctx, p)
    return False
