"""reference-path-ops: an import of operator-library functions that run pure PyTorch off CUDA."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("reference-path-ops", kinds=("import",))
def reference_path_ops(ctx, hit) -> bool:
    """`from mmcv.ops import filter2d, upsample2d`: every name the import takes is listed in `[context.values]
    reference-path-ops`, operator functions that call their compiled kernel only for a CUDA (or MUSA) tensor and
    otherwise compute a pure-PyTorch reference (mmcv's upfirdn2d family: `if use_custom_op and input.device.type ==
    'cuda'` ... `return _upfirdn2d_ref(...)`; bias_act and filtered_lrelu test `input.is_cuda`). On a neuron tensor
    they take the reference path, so the import ties the code to no CUDA kernel. An import of the module itself
    (`import mmcv.ops`, `from mmcv import ops`), a star import, and any other name (`ModulatedDeformConv2d`, `nms`)
    still match."""
    node = hit.node
    if type(node) is not ast.ImportFrom or node.level or not node.module:
        return False
    listed = frozenset(ctx.values.get("reference-path-ops", ()))
    return bool(listed) and bool(node.names) and all(
        a.name != "*" and f"{node.module}.{a.name}" in listed for a in node.names)
