"""Functions that cannot return without a CUDA device, and test modules that call one as they are imported.

`torch.cuda.current_device()`, `torch.cuda.get_device_capability()` and the other queries of the current device
initialise CUDA and raise on a host without it (a Neuron machine runs a CPU build of torch). A short module
function that reaches such a query on every path before it returns (`def get_cc(): return
_cc(torch.cuda.current_device())`), or a call of another such function (`if get_cc() >= (9, 0): return True, ""`,
TransformerEngine's FP8 support checks, several modules deep), never returns on Neuron.

A test module that keeps such a function's answer at import (`fp8_available, reason =
te.is_fp8_available(return_reason=True)`) and skips tests on it (`@pytest.mark.skipif(not fp8_available, ...)`)
runs those tests only with CUDA: once the port lets the module import on Neuron, the answer is no. (Not the whole
module: its unmarked tests are the port's to fix, with the import-time call itself.) The summary lists such
functions in `flags` as `"!name"` (certain) or `["!name", dep, ...]` (when the imported functions `dep` need CUDA
too), and the blocks such a name opens in `guards` under `"!callee"`; the link step (project/flags.py) resolves the
names across modules."""
from __future__ import annotations

import ast

MAX_LINES = 20  # only short functions: device helpers are a few lines, and every path of a long one is not cheap
MAX_DEPS = 8
MARK = "!"


def _query(call, queries) -> bool:
    f = call.func
    return type(f) is ast.Attribute and f.attr in queries and type(f.value) is ast.Attribute \
        and f.value.attr == "cuda" and type(f.value.value) is ast.Name and f.value.value.id == "torch"


def _first_calls(expr) -> list:
    """The calls evaluated whenever `expr` is: not the later operands of `and` / `or`, the arms of `x if c else y`,
    lambdas or the bodies of comprehensions (the first iterable of one is evaluated)."""
    out, stack = [], [expr]
    while stack:
        n = stack.pop()
        k = type(n)
        if k is ast.Call:
            out.append(n)
        if k is ast.BoolOp:
            stack.append(n.values[0])
        elif k is ast.IfExp:
            stack.append(n.test)
        elif k is ast.Lambda:
            continue
        elif k in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            stack.append(n.generators[0].iter)
        else:
            stack.extend(c for c in ast.iter_child_nodes(n) if isinstance(c, ast.expr))
    return out


class _Judge:
    def __init__(self, tree: ast.Module, imported: set, queries: frozenset):
        self.queries = queries
        self.defs: dict = {}
        self.none_globals: set = set()
        for st in tree.body:
            if type(st) is ast.FunctionDef:
                # a name defined twice has no single body to judge
                self.defs[st.name] = None if st.name in self.defs else st
            elif isinstance(st, (ast.Assign, ast.AnnAssign)) and type(st.value) is ast.Constant \
                    and st.value.value is None:
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                self.none_globals.update(t.id for t in targets if type(t) is ast.Name)
        self.imported = imported
        self.memo: dict = {}

    def function(self, name: str):
        """None: it may return without CUDA; else the imported functions it needs to need CUDA too (empty: it
        reaches a device query itself)."""
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = None  # recursion: not known to fail
        d = self.defs.get(name)
        got = None
        if d is not None and (d.end_lineno or d.lineno) - d.lineno <= MAX_LINES:
            got = self.block(d.body)
        self.memo[name] = got
        return got

    def _expr(self, expr):
        calls = _first_calls(expr)
        if any(_query(c, self.queries) for c in calls):
            return frozenset()
        found = None
        for call in calls:
            f = call.func
            got = self.function(f.id) if type(f) is ast.Name and f.id in self.defs else None
            if got is None:
                name = _imported_callee(f, self.imported)
                # an imported function: it fails when it needs CUDA (the link step tells)
                got = None if name is None else frozenset({name})
            if got is not None and (found is None or len(got) < len(found)):
                found = got  # any one of the calls evaluated is enough: the one needing the fewest links
        return found

    def block(self, stmts: list, depth: int = 0):
        if depth > 6:
            return None
        for i, st in enumerate(stmts):
            k = type(st)
            if k is ast.If:
                got = self._expr(st.test)
                if got is not None:
                    return got
                rest = stmts[i + 1:]
                t = st.test
                if type(t) is ast.Compare and type(t.left) is ast.Name and t.left.id in self.none_globals \
                        and len(t.ops) == 1 and type(t.ops[0]) is ast.Is and type(t.comparators[0]) is ast.Constant \
                        and t.comparators[0].value is None:
                    # `if _CACHE is None: _CACHE = compute()`: the first call computes
                    return self.block(st.body + rest, depth + 1)
                a = self.block(st.body + rest, depth + 1)
                if a is None:
                    return None
                b = self.block(st.orelse + rest, depth + 1)
                return None if b is None else a | b
            if k in (ast.Return, ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign):
                if st.value is not None:
                    got = self._expr(st.value)
                    if got is not None:
                        return got
                if k is ast.Return:
                    return None
                continue
            if k in (ast.Global, ast.Nonlocal, ast.Pass, ast.Import, ast.ImportFrom):
                continue
            return None  # a loop, with, try, raise, ...: not followed
        return None


def _imported_callee(f, imported: set):
    """`name` or `module.name` for a callee imported from the project, else None."""
    if type(f) is ast.Name and f.id in imported:
        return f.id
    if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id in imported:
        return f.value.id + "." + f.attr
    return None


def cuda_functions(tree: ast.Module, imported: set, queries) -> list:
    """`flags` entries for the module's functions that need CUDA to return: "!name" or ["!name", dep, ...].
    `queries`: the `torch.cuda` functions that raise without CUDA ([context.values] cuda-device-queries)."""
    if not queries:
        return []
    judge = _Judge(tree, imported, frozenset(queries))
    out: list = []
    for name, d in judge.defs.items():
        if d is None:
            continue
        got = judge.function(name)
        if got is None:
            continue
        if not got:
            out.append(MARK + name)
        elif len(got) <= MAX_DEPS:
            out.append([MARK + name, *sorted(got)])
    return out
