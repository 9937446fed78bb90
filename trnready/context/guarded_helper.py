"""guarded-helper: code of a private module-level function, or of a private method of a module-level class, every
reference to which is code Neuron never runs."""
from __future__ import annotations

import ast

from .base import predicate, value_bound_once
from .neuron_guarded import _has_tpu_word, _spans, accelerator_words
from ..astwalk import walk

_ROUNDS = 4  # a helper of a helper follows, a few levels deep


def _private_def(s) -> bool:
    return type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name.startswith("_") \
        and not s.name.endswith("__") and not s.decorator_list


def _candidates(tree) -> list:
    """The private module-level functions (`_infer_nvidia_arch`; not dunders), undecorated (a decorator may register
    or call it), then the private undecorated methods of the module-level classes (`_optimized_apply_ln`)."""
    return [s for s in tree.body if _private_def(s)] + [m for c, m in _methods(tree)]


def _methods(tree) -> list:
    """(class, method) for the private undecorated methods of module-level classes whose name no other function or
    method of the module has (a second definition would make `self._x` ambiguous)."""
    out = [(c, m) for c in tree.body if type(c) is ast.ClassDef for m in c.body if _private_def(m)]
    names = [s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names += [m.name for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body
              if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [(c, m) for c, m in out if names.count(getattr(m, "name", "")) == 1]


def _span(node) -> tuple:
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def _tensor_test(t) -> bool:
    """`x.device.type == "cuda"`, `x.is_cuda`, `q.device.type in ("cuda",)`: a test of where a tensor lives."""
    for n in walk(t):
        if type(n) is ast.Attribute and n.attr == "is_cuda":
            return True
        if type(n) is ast.Compare and any(type(o) is ast.Attribute and o.attr == "type" and type(o.value) is
                                          ast.Attribute and o.value.attr == "device"
                                          for o in (n.left, *n.comparators)):
            return True
    return False


def _accelerator_flag(t, words: frozenset) -> bool:
    """`self.tpu`, `cfg.common.tpu`, `use_ipex` (also and-ed with other conditions): a switch of an accelerator a
    Trainium host never has. A negated one (`if not self.tpu:`) is the path Neuron takes."""
    if type(t) is ast.BoolOp and type(t.op) is ast.And:
        return any(_accelerator_flag(v, words) for v in t.values)
    name = t.attr if type(t) is ast.Attribute else t.id if type(t) is ast.Name else None
    return name is not None and _has_tpu_word(name, words)


def _flag_of_tensor_test(ctx, name: ast.Name) -> bool:
    """`use_graph = self.use_ring_cudagraph and cp_size > 1 and q.is_cuda` then `if use_graph:` (ChituDiffusion): a
    local the enclosing function binds once, to a test of where a tensor lives, is that test."""
    fn = ctx.parent(name)
    while fn is not None and type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        fn = ctx.parent(fn)
    if fn is None:
        return False
    value = value_bound_once(fn, name.id)
    return value is not None and _tensor_test(value)


def _capability_method(ctx, t) -> bool:
    """`if self.supports_fused_overlap(num_heads=h):` / `if not self.supports_fused_overlap:` negated elsewhere: a
    method (or property) of the file's classes answering False on Neuron because one of the conditions it and-s is a
    CUDA check (`... and torch.cuda.is_available() and ...`): a test of whether an optimised path can run, whose
    general path Neuron takes, like a tensor test (neuron_guarded `method_defs`)."""
    parts = t.values if type(t) is ast.BoolOp and type(t.op) is ast.And else [t]
    spans = None
    for p in parts:
        f = p.func if type(p) is ast.Call else p
        if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id == "self":
            if spans is None:
                spans = ctx.fact("neuron-guarded", _spans)
                if spans is None:
                    return False
            defs = spans.conds.method_defs
            if f.attr in defs and defs[f.attr][1] == (type(p) is not ast.Call) and spans.conds.never(p):
                return True
    return False


def _fast_path_test(ctx, t, words: frozenset) -> bool:
    return _tensor_test(t) or _accelerator_flag(t, words) or (type(t) is ast.Name and _flag_of_tensor_test(ctx, t)) \
        or _capability_method(ctx, t)


def _under_tensor_test(ctx, node) -> bool:
    """The call sits in the body of an `if` (or the true arm of `x if ... else y`) whose test looks at a tensor's
    device. A method called so is a per-call fast path: on Neuron the tensor is on the neuron device and the other
    arm, the general path, runs as written. A method called under an availability flag (`if self.cuda:`, set from
    `torch.cuda.is_available()`) is left alone: the flag is the program's device choice, which the port changes,
    and the code it enables then runs on Neuron (metaseq's GPU memory logging is labelled a place to port). A
    switch of an accelerator Trainium never has (`if self.tpu:`, fairseq's trainer calling its private
    `_check_xla_compilation()`) is no such choice: the port keeps it off, so what it enables never runs."""
    words = accelerator_words(ctx.values)
    cur, up = node, ctx.parent(node)
    while up is not None:
        if type(up) is ast.If and cur in up.body and _fast_path_test(ctx, up.test, words):
            return True
        if type(up) is ast.IfExp and cur is up.body and _fast_path_test(ctx, up.test, words):
            return True
        if isinstance(cur, ast.stmt) and _after_early_exit(ctx, cur, up, words):
            return True
        if type(up) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            return False
        cur, up = up, ctx.parent(up)
    return False


def _after_early_exit(ctx, st, block_owner, words: frozenset) -> bool:
    """`if not self.supports_fused_overlap: return self.attention(...)` earlier in the same block: what follows runs
    only where the fast-path test holds (image_cp_attention's `attention_fused`)."""
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(block_owner, field, None)
        if isinstance(stmts, list) and st in stmts:
            for prev in stmts[:stmts.index(st)]:
                if type(prev) is ast.If and type(prev.test) is ast.UnaryOp and type(prev.test.op) is ast.Not \
                        and prev.body and type(prev.body[-1]) in (ast.Return, ast.Raise) \
                        and _fast_path_test(ctx, prev.test.operand, words):
                    return True
            return False
    return False


def _helper_spans(ctx) -> list:
    """[(start, end)] of the private helpers every reference to which in the file is guarded by `neuron-guarded`
    (or lies in another such helper), with at least one reference. A reference other than a plain name read (a
    string naming it, an attribute of that name, a rebinding) leaves the helper alone."""
    cands = _candidates(ctx.tree)
    spans = ctx.fact("neuron-guarded", _spans) if cands else None
    if spans is None or not spans.statement_spans:
        return []  # (no statement of the file is guarded: its references are not either, bar `x if c else y`)
    wanted = {c.name for c in cands}
    # a method is referenced as `self._name(...)` inside its own class: the call is its reference (any other
    # attribute of that name, a call through another object or a bound method handed on, leaves it alone)
    owner = {m.name: _span(c) for c, m in _methods(ctx.tree)}
    refs: dict = {}
    other: set = set()
    flagged: set = set()  # positions of method calls not under a test of a tensor's device
    for n in ctx.nodes(ast.Name):
        if n.id in wanted:
            if type(n.ctx) is ast.Load and n.id not in owner:
                refs.setdefault(n.id, []).append((n.lineno, n.col_offset))
            else:
                other.add(n.id)
    called = {id(c.func) for c in ctx.nodes(ast.Call)} if owner else set()
    for a in ctx.nodes(ast.Attribute):
        if a.attr in wanted:
            pos = (a.lineno, a.col_offset)
            span = owner.get(a.attr)
            if span is not None and id(a) in called and type(a.value) is ast.Name and a.value.id == "self" \
                    and span[0] <= pos < span[1]:
                refs.setdefault(a.attr, []).append(pos)
                if not _under_tensor_test(ctx, a):
                    flagged.add(pos)
            else:
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
            if outside and all((spans.holds(p, "") and p not in flagged) or any(s <= p < e for s, e in out)
                               for p in outside):
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
    kernel is the port item (project/cuda_only.py decides its severity). A private method of a module-level class
    called only as `self._fast_path(x)` inside its class, under such a check, is judged the same way."""
    tree = ctx.tree
    if tree is None or hit.rule.category in ctx.values.get("guarded-helper-kept-categories", ()):
        return False
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    # cheap first: the match lies in some private module-level function or method at all
    if not any(_span(c)[0] <= pos < _span(c)[1] for c in ctx.fact("guarded-helper-candidates",
                                                                 lambda x: _candidates(x.tree))):
        return False
    return any(s <= pos < e for s, e in ctx.fact("guarded-helper", _helper_spans))
