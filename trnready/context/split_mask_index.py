"""split-mask-index: the node ids of a dataset split, taken once from the split's boolean mask."""
from __future__ import annotations

import ast

from .base import name_globs, parent_of, predicate


def _mask_name(node) -> str:
    """The name a mask operand is read under: `train_mask`, `data.val_mask`, `g.ndata["test_mask"]`, `~train_mask`."""
    if type(node) is ast.UnaryOp and type(node.op) is ast.Invert:
        node = node.operand
    if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("bool", "squeeze") \
            and not node.args:
        node = node.func.value
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return node.attr
    if type(node) is ast.Subscript and type(node.slice) is ast.Constant and isinstance(node.slice.value, str):
        return node.slice.value
    return ""


def _in_loop(ctx, node) -> bool:
    p = parent_of(ctx, node)
    while p is not None and type(p) not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
        if type(p) in (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp):
            return True
        p = parent_of(ctx, p)
    return False


@predicate("split-mask-index", kinds=("call", "method"))
def split_mask_index(ctx, hit) -> bool:
    """`train_idx = torch.nonzero(train_mask).squeeze()`, `val_nid = g.ndata["val_mask"].nonzero()`: the ids of a
    dataset split (a mask whose name matches `split-mask-names`: train / val / test masks of a graph or a
    dataset) taken once, outside any loop, to hand to a loader or to index with later. The split is fixed by the
    dataset, so the op runs once while the data is set up, never inside a compiled step (what
    torch.compile's dynamic shapes are about). The same op in a loop, or masking the loss with the split
    (`logits[train_mask]`, a subscript, not this predicate's kinds), stays reported; `valid_mask` (validity,
    not a split) is not such a name."""
    node = hit.node
    if type(node) is not ast.Call:
        return False
    if type(node.func) is ast.Attribute and hit.matcher.kind == "method":
        operand = node.func.value
    elif node.args:
        operand = node.args[0]
    else:
        return False
    names = name_globs(ctx, "split-mask-names")
    name = _mask_name(operand)
    return bool(names is not None and name and names.match(name)) and not _in_loop(ctx, node)
