"""A test that repeats its work on the GPU only when one is there: `if torch.cuda.is_available():` in a test function,
with no other arm, whose block neither leaves the test nor changes anything the test reads after it."""
from __future__ import annotations

import ast

from ..astwalk import walk

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_LEAVES = (ast.Return, ast.Raise)
_SKIPS = frozenset({"skip", "skipTest", "exit", "xfail"})


def _changed(body) -> set | None:
    """Names the block binds or hands to a method call made for its effect (`model.cuda()`, `x.to(device)` as a
    statement: a module moved in place); None when the block leaves the test (`return`, `raise`, a skip), declares
    a name global, or stores into something that is not a name's object (`f()[0] = x`). An attribute or an item stored
    (`feats[k] = feats[k].cuda()`, `self.model = ...`) changes the object of its root name."""
    out: set = set()
    for top in body:
        for n in walk(top):
            k = type(n)
            if k in _LEAVES or k in (ast.Global, ast.Nonlocal, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                return None
            if isinstance(n, ast.Name) and type(n.ctx) is not ast.Load:
                out.add(n.id)
            elif isinstance(n, (ast.Attribute, ast.Subscript)) and type(n.ctx) is not ast.Load:
                root = _root(n)
                if root is None:
                    return None
                out.add(root)  # `feats[k] = feats[k].cuda()`, `self.model = ...`: the object is changed in place
            elif isinstance(n, ast.Call):
                f = n.func
                name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
                if name in _SKIPS:
                    return None
        if type(top) is ast.Expr and type(top.value) is ast.Call and type(top.value.func) is ast.Attribute:
            root = _root(top.value.func)
            if root is not None:
                out.add(root)
    return out


def _root(e) -> str | None:
    while type(e) in (ast.Attribute, ast.Subscript):
        e = e.value
    return e.id if type(e) is ast.Name else None


def _rebound_first(fn, name: str, after: tuple) -> bool:
    """The first mention of `name` in the function after position `after` binds it anew without reading it
    (`model = MODELS.build(cfg)`), or there is none."""
    first = None
    for n in walk(fn):
        if type(n) is ast.Name and n.id == name and (n.lineno, n.col_offset) >= after:
            if first is None or (n.lineno, n.col_offset) < (first.lineno, first.col_offset):
                first = n
    if first is None:
        return True
    if type(first.ctx) is not ast.Store:
        return False
    # a target's value is evaluated before it is bound: `x = x.cuda()` reads the old x
    for st in walk(fn):
        if type(st) is ast.Assign and any(t is first for t in st.targets):
            return not any(type(v) is ast.Name and v.id == name for v in walk(st.value))
    return False


def gpu_rerun(ctx, branch: ast.If) -> bool:
    """`if torch.cuda.is_available():` (no `else`) in a test function (`test*`, not in a loop of it) whose block
    leaves nothing behind that the test reads later: every name it binds, or moves in place with a method call, is
    bound anew before the test reads it again, or never read again. The block repeats on the GPU what the test did
    above on the CPU (mmagic's `# test on gpu` blocks) or tries a GPU-only extra; on Neuron it is skipped, the rest
    of the test runs as it does on a GPU host, so the check picks no device of the program. A block that returns,
    raises, skips, or stores into an object or a global is left alone."""
    if branch.orelse:
        return False
    up = ctx.parent(branch)
    while up is not None and type(up) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        if type(up) in _LOOPS or type(up) is ast.ClassDef:
            return False
        up = ctx.parent(up)
    if up is None or not up.name.startswith("test"):
        return False
    changed = _changed(branch.body)
    if changed is None:
        return False
    after = (branch.end_lineno, branch.end_col_offset)
    return all(_rebound_first(up, name, after) for name in changed)
