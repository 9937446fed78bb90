"""Parameters filled from a mapping by name: `main(**config)` hands each key of `config` to the parameter of
`main` with the same name, so those parameters read config keys by name just as `config.get("K")` does
(AnimateDiff's `main(..., **OmegaConf.load(args.config))` with `if mixed_precision_training:` inside `main`).

Only functions and classes the same file defines at module level are followed (a call `name(**x)` names them
directly); forwarding one's own `**kwargs` (`def wrap(**kw): return f(**kw)`), a dict display (`f(**{"a": 1})`)
and a name the same scope assigns from one (`kw = {"memory_efficient": memory_efficient}`; `f(**kw)`) hand on no
config. Used by project/switch_conditions.py for "param" switches."""
from __future__ import annotations

import ast
from ..astwalk import walk


def splat_params(tree: ast.Module) -> set[str]:
    """Names of the parameters of module-level functions (a class: its `__init__`) that a call in this file fills
    from a `**mapping` that is neither a dict display nor the caller's own `**kwargs`."""
    defs: dict = {}
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[st.name] = st
        elif isinstance(st, ast.ClassDef):
            init = next((b for b in st.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and b.name == "__init__"), None)
            if init is not None:
                defs[st.name] = init
    if not defs:
        return set()
    calls = getattr(tree, "trnready_calls", None)  # the indexer's list of every call: no walk when none can fill
    if calls is not None and not any(type(c.func) is ast.Name and c.func.id in defs
                                     and any(k.arg is None for k in c.keywords) for c in calls):
        return set()
    out: set = set()
    done: set = set()
    for fn, call in _calls(tree):
        f = call.func
        if not isinstance(f, ast.Name) or f.id not in defs or f.id in done:
            continue
        if any(k.arg is None and _from_config(k.value, fn, tree) for k in call.keywords):
            done.add(f.id)
            a = defs[f.id].args
            out.update(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs) if x.arg not in ("self", "cls"))
    return out


def _calls(tree: ast.Module):
    """(enclosing function or None, call) for each call with a `**` argument."""
    stack: list = [(None, tree)]
    while stack:
        fn, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                stack.append((child, child))
                continue
            if isinstance(child, ast.Call) and any(k.arg is None for k in child.keywords):
                yield fn, child
            stack.append((fn, child))


def _from_config(value, fn, tree) -> bool:
    if _built_here(value):
        return False
    if isinstance(value, ast.Name):
        if fn is not None and value.id in {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}:
            return False
        # `attn_kwargs = {'memory_efficient': memory_efficient, ...}` then `Attention(**attn_kwargs)`: the code
        # builds the mapping from its own names, no config
        scope = fn if fn is not None else tree
        return not any(_built_here(n.value) and any(isinstance(t, ast.Name) and t.id == value.id for t in (
            n.targets if isinstance(n, ast.Assign) else [n.target])) for n in walk(scope)
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None)
    return True


def _built_here(value) -> bool:
    """A dict display, comprehension or `dict(...)` call: keys the code writes itself."""
    return isinstance(value, (ast.Dict, ast.DictComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict")
