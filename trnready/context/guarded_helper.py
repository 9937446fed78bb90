"""guarded-helper: code of a private module-level function every reference to which is code Neuron never runs."""
from __future__ import annotations

import ast

from .base import predicate
from .neuron_guarded import _spans

_ROUNDS = 4  # a helper of a helper follows, a few levels deep


def _candidates(tree) -> list:
    """The private module-level functions (`_infer_nvidia_arch`; not dunders), undecorated (a decorator may register
    or call it)."""
    return [s for s in tree.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name.startswith("_")
            and not s.name.endswith("__") and not s.decorator_list]


def _span(node) -> tuple:
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def _helper_spans(ctx) -> list:
    """[(start, end)] of the private helpers every reference to which in the file is guarded by `neuron-guarded`
    (or lies in another such helper), with at least one reference. A reference other than a plain name read (a
    string naming it, an attribute of that name, a rebinding) leaves the helper alone."""
    cands = _candidates(ctx.tree)
    spans = ctx.fact("neuron-guarded", _spans) if cands else None
    if spans is None or not spans.statement_spans:
        return []  # (no statement of the file is guarded: its references are not either, bar `x if c else y`)
    wanted = {c.name for c in cands}
    refs: dict = {}
    other: set = set()
    for n in ctx.nodes(ast.Name):
        if n.id in wanted:
            if type(n.ctx) is ast.Load:
                refs.setdefault(n.id, []).append((n.lineno, n.col_offset))
            else:
                other.add(n.id)
    for a in ctx.nodes(ast.Attribute):
        if a.attr in wanted:
            other.add(a.attr)
    for c in ctx.nodes(ast.Constant):
        if type(c.value) is str and c.value in wanted:
            other.add(c.value)  # `__all__ = ["_helper"]`, getattr(module, "_helper")
    out: list = []
    done: set = set()
    for _ in range(_ROUNDS):
        grew = False
        for c in cands:
            if c.name in other or id(c) in done:
                continue
            start, end = _span(c)
            outside = [p for p in refs.get(c.name, ()) if not start <= p < end]
            if outside and all(spans.holds(p, "") or any(s <= p < e for s, e in out) for p in outside):
                out.append((start, end))
                done.add(id(c))
                grew = True
        if not grew:
            break
    return out


@predicate("guarded-helper", effect="guard")
def guarded_helper(ctx, hit) -> bool:
    """Code of a private module-level function (`def _infer_nvidia_arch(device_id):` in Liger's utils.py) that the
    file calls only from code Neuron never runs (`if device == "cuda": return _infer_nvidia_arch(device_id)`, the
    body of a test skipped without CUDA, another such helper): its CUDA calls run only on the CUDA path of their
    callers, whose check is the item to port. A helper named otherwise in the file (a string, an attribute, a
    rebinding) is left alone, and the link step `imported-helper` puts the finding back when another scanned file
    names the helper (`from .utils import _infer_nvidia_arch`). Kernel builds and CUDA libraries in such a helper
    stay findings (`guarded-helper-kept-categories`): StyleGAN's `_init()` builds the op its CUDA path needs, and the
    kernel is the port item (project/cuda_only.py decides its severity)."""
    tree = ctx.tree
    if tree is None or hit.rule.category in ctx.values.get("guarded-helper-kept-categories", ()):
        return False
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    # cheap first: the match lies in some private module-level function at all
    if not any(_span(c)[0] <= pos < _span(c)[1] for c in ctx.fact("guarded-helper-candidates",
                                                                 lambda x: _candidates(x.tree))):
        return False
    return any(s <= pos < e for s, e in ctx.fact("guarded-helper", _helper_spans))
