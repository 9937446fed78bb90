"""optional-tpu-import: an optional import of a TPU-only package whose every use is on a path Neuron never takes."""
from __future__ import annotations

import ast

from ._xla_flags import xla_switch_words
from .base import enclosing_function, parent_of, predicate
from .neuron_guarded import _has_tpu_word, accelerator_words, guarded_at
from .tpu_only_code import _enclosing_named

_CATCHES = {"ImportError", "ModuleNotFoundError", "Exception"}


def _catches_import(handler) -> bool:
    t = handler.type
    types = t.elts if isinstance(t, ast.Tuple) else [t]
    return t is None or any(isinstance(e, ast.Name) and e.id in _CATCHES for e in types)


def _no_fallback_needed(handler, names: set) -> bool:
    """The handler only passes, logs, or binds the import's names (or a flag) to None / False: nothing else runs
    in their place, and it does not raise."""
    for st in handler.body:
        if isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, (ast.Call, ast.Constant))):
            continue
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant) and st.value.value in (None, False) \
                and all(isinstance(t, ast.Name) for t in st.targets):
            continue
        # an availability probe answering no (`except ModuleNotFoundError: return False`)
        if isinstance(st, ast.Return) and (st.value is None or isinstance(st.value, ast.Constant)
                                           and st.value.value in (None, False)):
            continue
        return False
    return True


def _xla_device_test(test) -> bool:
    """`x.device.type == "xla"` (also inside `and`): a test for an XLA device, which a TorchNeuron run never has."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(map(_xla_device_test, test.values))
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and any(isinstance(o, ast.Constant) and o.value == "xla" for o in (test.left, test.comparators[0]))


def _bound_test(test, names: frozenset | set) -> bool:
    """`xm is not None` / `xm` (also inside `and`): true only when the optional import succeeded, which it never
    does on a Neuron host, where the handler bound the name to None."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_bound_test(v, names) for v in test.values)
    if isinstance(test, ast.Name):
        return test.id in names
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
        and isinstance(test.left, ast.Name) and test.left.id in names \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None


def _under_xla_test(ctx, node, names: frozenset | set = frozenset()) -> bool:
    child, p = node, parent_of(ctx, node)
    while p is not None:
        if isinstance(p, (ast.If, ast.IfExp)) and (any(s is child for s in p.body) if isinstance(p, ast.If)
                                                   else p.body is child) \
                and (_xla_device_test(p.test) or _bound_test(p.test, names)):
            return True
        child, p = p, parent_of(ctx, p)
    return False


@predicate("optional-tpu-import", kinds=("import",), effect="guard")
def optional_tpu_import(ctx, hit) -> bool:
    """An import of a package of `tpu-only-packages` (torch_xla) under `try: ... except ImportError:` whose
    handler passes, returns None / False (an availability probe) or binds the names (or a flag) to None / False,
    when every use of the names it binds is on a path a Neuron run never takes: the rest of the try's body or its
    `else:` arm (which run only when the import succeeds; the only uses allowed for an import inside a function),
    code `neuron-guarded` guards (`if attn.use_tpu_flash_attention:
    flash_attention(...)`) or the body of an `if` testing for an XLA device (`if x.device.type == "xla":
    xm.mark_step()`), or a function or class named for XLA (`save_xla_ckpt`, `XLAGatherLayer`; words of
    `xla-switch-words`, not in legacy XLA-Neuron code), a helper the program calls on its XLA path. That optional
    TPU path is no migration item (issue 13). An import used anywhere else, one made without a `try`, or whose
    handler raises or imports a replacement, stays a finding."""
    node = hit.node
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return False
    top = hit.name.split(".", 1)[0]
    if top not in ctx.values.get("tpu-only-packages", ()):
        return False
    p = parent_of(ctx, node)
    if not (isinstance(p, ast.Try) and any(s is node for s in p.body)):
        return False
    names = {a.asname or a.name.split(".", 1)[0] for a in node.names}
    handlers = [h for h in p.handlers if _catches_import(h)]
    if not handlers or not all(_no_fallback_needed(h, names) for h in handlers):
        return False
    # the rest of the try's body and its `else:` run only when the import succeeded, which it never does on a
    # Neuron host (`else: xm.set_rng_state(seed)` in a seeding helper)
    after = {id(n) for st in (*p.body, *p.orelse) for n in ast.walk(st)}
    fn = enclosing_function(ctx, p)
    if fn is not None:
        # an import inside a function binds its local names: only that function's uses count, and any past the
        # try is reached on the fallback path too
        return not any(isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)
                       and id(n) not in after for n in ast.walk(fn))
    words = xla_switch_words(ctx.tree.body, ctx.values)
    # a helper named for a TPU or another accelerator (`get_tpu_device`) is that accelerator's path too, but not
    # in legacy XLA-Neuron code, where `words` is empty and the helpers are the Neuron path being ported
    if words:
        words = words | accelerator_words(ctx.values)
    # the test itself reads the name, to learn that the import failed
    tests = {id(n) for t in (*ctx.nodes(ast.If), *ctx.nodes(ast.IfExp)) if _bound_test(t.test, names)
             for n in ast.walk(t.test)}
    for n in ctx.nodes(ast.Name):
        if n.id not in names or not isinstance(n.ctx, ast.Load) or id(n) in after or id(n) in tests:
            continue
        # `if xm is not None: xm.set_rng_state(seed)`: the optional import's own test, false on Neuron
        if not _under_xla_test(ctx, n, names) \
                and not (words and any(_has_tpu_word(d.name, words) for d in _enclosing_named(ctx, n))) \
                and not guarded_at(ctx, (n.lineno, n.col_offset), "", ()):
            return False
    return True
