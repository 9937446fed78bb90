"""Test modules that keep the answer of a project function at import (`fp8_available, reason =
te.is_fp8_available(return_reason=True)`) and skip tests on it: the blocks that answer opens, listed in the summary's
`guards` under "!callee" for the link step (project/flags.py), which guards them when the function cannot return
without CUDA (context/_needs_cuda.py)."""
from __future__ import annotations

import ast

from ..context._needs_cuda import MARK, _imported_callee
from .summary import MAX_GUARDS, guards_of


def import_time_flags(tree: ast.Module, imported: set) -> list:
    """`guards` entries [first line, last line, "!callee", choice] for the blocks a module-level name set from a
    project function's answer opens (`fp8_available, reason = te.is_fp8_available(return_reason=True)`, also
    `X = f()` and `X = f()[0]`), then read by `skipif(not X)` marks, `if X:` or `if not X: pytest.skip()`: when the
    function cannot return without CUDA, what they guard runs only with CUDA. The name must be bound once."""
    body = tree.body
    bound: dict = {}
    own = {st.name for st in body if isinstance(st, ast.FunctionDef)}
    for st in body:
        if type(st) is not ast.Assign or len(st.targets) != 1:
            continue
        t, v = st.targets[0], st.value
        if type(t) is ast.Tuple and t.elts:
            t = t.elts[0]  # (answer, reason): the answer
        elif type(v) is ast.Subscript and type(v.slice) is ast.Constant and v.slice.value == 0:
            v = v.value
        if type(t) is not ast.Name or type(v) is not ast.Call:
            continue
        name = _imported_callee(v.func, imported)
        if name is None and type(v.func) is ast.Name and v.func.id in own:
            name = v.func.id  # the module's own function (resolved in its own summary, "!name")
        if name is not None:
            bound[t.id] = None if t.id in bound else name
    bound = {k: v for k, v in bound.items() if v is not None}
    if not bound:
        return []
    again = _rebound(tree, bound)
    bound = {k: v for k, v in bound.items() if k not in again}
    out = [[first, last, MARK + bound[name], choice]
           for first, last, name, choice in guards_of(tree, set(bound))][:MAX_GUARDS]
    if out:
        out += _helpers(tree, out)
    return out


class _Nodes:
    """The one method of a file context `helper_spans` asks for, over a tree alone."""

    def __init__(self, tree):
        self.by_kind: dict = {}
        for n in ast.walk(tree):
            self.by_kind.setdefault(type(n), []).append(n)

    def nodes(self, kind):
        return self.by_kind.get(kind, [])


def _helpers(tree, blocks: list) -> list:
    """The helpers of the test module (functions, classes, values) used only in those blocks, as the per-file pass
    guards the helpers of skipped tests: one more block each, guarded when every function the blocks wait on needs
    CUDA ("!a|b")."""
    from ..context._test_skips import helper_spans

    def held(p):
        return any(first <= p[0] <= last for first, last, _, _ in blocks)

    key = MARK + "|".join(sorted({b[2][len(MARK):] for b in blocks}))
    return [[start[0], end[0], key, False] for start, end, _ in helper_spans(_Nodes(tree), tree, held)][:MAX_GUARDS]


def _rebound(tree: ast.Module, names) -> set:
    """Those of `names` set again somewhere in the module (a `global` in a function, a loop): not one answer."""
    stores: dict = {}
    out: set = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and type(n.ctx) is ast.Store and n.id in names:
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, ast.Global):
            out.update(x for x in n.names if x in names)
    return out | {n for n, c in stores.items() if c > 1}
