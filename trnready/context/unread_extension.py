"""unread-extension: a compiled extension loaded into a name that nothing in the file reads."""
from __future__ import annotations

import ast

from .base import predicate
from .unread_value import _read


@predicate("unread-extension", kinds=("call", "method"), effect="drop")
def unread_extension(ctx, hit) -> bool:
    """`ext_module = ext_loader.load_ext("_ext", ["ms_deform_attn_forward", ...])` whose name no line of the file
    reads: the handle is loaded and never used to call a kernel. Projects built on mmcv paste the loader line into
    every module of an operator family (BEVFormer's encoder, decoder and attention modules each load the
    deformable-attention ops and call the Function defined in another module); the kernels are reported where
    the module that loads them calls them. Only a one-target assignment to a plain name counts; a name read
    anywhere in the file, listed in `__all__`, or reached through `globals()` keeps the finding."""
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    st = ctx.statement_at(pos)
    if type(st) is not ast.Assign or len(st.targets) != 1 or type(st.targets[0]) is not ast.Name:
        return False
    if type(st.value) is not ast.Call or not (st.value.lineno, st.value.col_offset) <= pos:
        return False
    return not _read(ast.walk(ctx.tree), st.targets[0].id)
