"""literal-constant-table: a float64 tensor of literal numbers made once, at import time, on the host."""
from __future__ import annotations

import ast

from .base import call_taking, dotted, enclosing_function, imported_name, is_cpu, parent_of, places_on_device, predicate

# Factories whose first argument is the tensor's data (`torch.tensor([0.5, 0.5], dtype=torch.float64)`), and the
# legacy typed constructors that name float64 themselves (`torch.DoubleTensor([1, 2])`).
_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.Tensor", "torch.DoubleTensor"})
# Callees that turn Python numbers into Python (or NumPy) numbers and sequences: the data stays literal.
_PLAIN_CALLS = frozenset({"float", "int", "abs", "round", "sum", "min", "max", "pow", "range", "zip", "enumerate",
                          "list", "tuple", "reversed", "len", "sorted"})
_PLAIN_MODULES = ("math.", "numpy.", "fractions.")
# `x.item()` / `x.tolist()` give Python numbers whatever x was (`torch.sqrt(torch.tensor(2.)).item()`).
_TO_PYTHON = frozenset({"item", "tolist"})


@predicate("literal-constant-table", kinds=("reference", "method"), effect="guard")
def literal_constant_table(ctx, hit) -> bool:
    """The float64 is the dtype of a tensor made from literal numbers at a module's or class's top level, outside
    any function: `_TABLEAU = Tableau(alpha=torch.tensor([1 / 5, 3 / 10], dtype=torch.float64), ...)`, a
    coefficient list bound by the module turned into a tensor (`A = torch.tensor(A, dtype=torch.float64)`), or
    `torch.sqrt(torch.tensor(2, dtype=torch.float64)).item()` computing a Python float. The factory names no device
    and nothing in the expression moves it, so the table is built once on the host when the module is imported;
    exact constants (a Butcher tableau, Adams coefficients, a square root) are all it asks of float64. A
    non-scalar host tensor cannot meet device tensors without an explicit move, and the code that moves it
    decides the dtype it computes in (a solver casts its tableau to the state's dtype): where that is float64 on
    the device, that place is the finding. The data must be Python numbers: literals, lists, tuples and
    comprehensions of them, arithmetic, `math` / NumPy / builtin calls, `.item()` / `.tolist()`, and names the
    module binds only to such values. A tensor made inside a function, from a tensor or a parameter, with a
    `device=`, or moved in the same expression (`.cuda()`, `.to(device)`) stays reported, as does every such
    table of a file that sets a default device (`torch.set_default_device`)."""
    call = _factory_call(ctx, hit)
    if call is None or not call.args or enclosing_function(ctx, call) is not None or _in_lambda(ctx, call):
        return False
    if any(k.arg == "device" and not is_cpu(k.value) for k in call.keywords) or _moved(ctx, call):
        return False
    if ctx.may_name("set_default_device") and any(
            dotted(n).endswith("set_default_device") for n in ctx.nodes(ast.Attribute)):
        return False
    st = ctx.statement_at((call.lineno, call.col_offset))
    seen: set = set()
    local = _outer_names(ctx, call, st.lineno, seen)
    return local is not None and _literal(ctx, call.args[0], local, st.lineno, seen)


def _factory_call(ctx, hit):
    """The factory the float64 belongs to: the call taking `dtype=torch.float64` (or the dtype by position), the
    call of `torch.DoubleTensor` itself, or the receiver of `.double()`."""
    node = hit.node
    if hit.matcher.kind == "method":
        f = node.func if type(node) is ast.Call else node
        recv = f.value if type(f) is ast.Attribute else None
        call = recv if type(recv) is ast.Call else None
    else:
        up = parent_of(ctx, node)
        call = up if type(up) is ast.Call and up.func is node else call_taking(ctx, node, up=2)
    if call is None:
        return None
    name, _ = imported_name(ctx, call.func)
    return call if name in _FACTORIES else None


def _in_lambda(ctx, node) -> bool:
    p = parent_of(ctx, node)
    while p is not None and not isinstance(p, ast.stmt):
        if type(p) is ast.Lambda:
            return True
        p = parent_of(ctx, p)
    return False


def _moved(ctx, call) -> bool:
    """The statement making the tensor places something (`torch.tensor(...).cuda()`, `Table(a=t.to(device))`)."""
    st = ctx.statement_at((call.lineno, call.col_offset))
    return st is None or any(type(n) is ast.Call and places_on_device(n) for n in ast.walk(st))


def _module_bindings(ctx) -> dict:
    """name -> (line, value) of each binding the module's top level makes, value None for a binding of another
    kind (an import, a loop, a def, a `global` write elsewhere: line 0, always in force)."""
    def compute(c):
        out: dict = {}
        for st in (c.tree.body if c.tree is not None else ()):
            line = st.lineno
            if type(st) is ast.Assign:
                for t in st.targets:
                    for n in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                        if type(n) is ast.Name:
                            out.setdefault(n.id, []).append((line, st.value if n is t else None))
            elif type(st) in (ast.AnnAssign, ast.AugAssign) and type(st.target) is ast.Name:
                out.setdefault(st.target.id, []).append((line, st.value if type(st) is ast.AnnAssign else None))
            elif type(st) in (ast.Import, ast.ImportFrom):
                for a in st.names:
                    out.setdefault((a.asname or a.name).split(".")[0], []).append((0, None))
            elif type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                out.setdefault(st.name, []).append((0, None))
            elif type(st) in (ast.For, ast.AsyncFor, ast.With, ast.If, ast.Try, ast.While):
                for node in ast.walk(st):
                    if isinstance(node, ast.Name) and type(node.ctx) is ast.Store:
                        out.setdefault(node.id, []).append((0, None))
                    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        out.setdefault(node.name, []).append((0, None))
        for g in c.nodes(ast.Global):
            for name in g.names:
                out.setdefault(name, []).append((0, None))
        return out
    return ctx.fact("literal-constant-table:bindings", compute)


def _outer_names(ctx, call, before: int, seen: set):
    """The targets of the comprehensions around the factory (`[torch.tensor(b, ...) for b in B]`) when each
    iterates over literal data; None when one does not."""
    around = []
    p = parent_of(ctx, call)
    while p is not None and not isinstance(p, ast.stmt):
        if type(p) in (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp):
            around.append(p)
        p = parent_of(ctx, p)
    names: set = set()
    for comp in reversed(around):
        for g in comp.generators:
            if g.ifs or not _literal(ctx, g.iter, frozenset(names), before, seen):
                return None
            names.update(n.id for n in ast.walk(g.target) if type(n) is ast.Name)
    return frozenset(names)


def _literal(ctx, e, local: frozenset, before: int, seen: set) -> bool:
    """Whether `e` evaluates to Python numbers (or sequences of them) at the module's top level, in a statement
    of line `before` (a name is read in its bindings made before that line)."""
    t = type(e)
    if t is ast.Constant:
        return isinstance(e.value, (int, float, complex)) and not isinstance(e.value, bool) or e.value is None
    if t in (ast.List, ast.Tuple, ast.Set):
        return all(_literal(ctx, x, local, before, seen) for x in e.elts)
    if t is ast.UnaryOp:
        return _literal(ctx, e.operand, local, before, seen)
    if t is ast.BinOp:
        return _literal(ctx, e.left, local, before, seen) and _literal(ctx, e.right, local, before, seen)
    if t is ast.Starred:
        return _literal(ctx, e.value, local, before, seen)
    if t in (ast.ListComp, ast.GeneratorExp, ast.SetComp):
        names = set(local)
        for g in e.generators:
            if not _literal(ctx, g.iter, frozenset(names), before, seen) or g.ifs:
                return False
            names.update(n.id for n in ast.walk(g.target) if type(n) is ast.Name)
        return _literal(ctx, e.elt, frozenset(names), before, seen)
    if t is ast.Subscript:
        return _literal(ctx, e.value, local, before, seen) and _literal(ctx, e.slice, local, before, seen)
    if t is ast.Slice:
        return all(x is None or _literal(ctx, x, local, before, seen) for x in (e.lower, e.upper, e.step))
    if t is ast.Attribute:
        name, imported = imported_name(ctx, e)
        return imported and name.startswith(_PLAIN_MODULES)
    if t is ast.Name:
        if e.id in local:
            return True
        if e.id in seen:
            return False
        bound = [(line, v) for line, v in _module_bindings(ctx).get(e.id, ()) if line < before]
        if not bound or any(v is None for _, v in bound):
            return False
        seen.add(e.id)
        try:
            return all(_literal(ctx, v, frozenset(), line, seen) for line, v in bound)
        finally:
            seen.discard(e.id)
    if t is ast.Call:
        f = e.func
        if type(f) is ast.Attribute and f.attr in _TO_PYTHON and not e.args:
            return True
        if any(type(k.value) is not ast.Constant for k in e.keywords):
            return False
        if type(f) is ast.Name and f.id in _PLAIN_CALLS and f.id not in _module_bindings(ctx):
            return all(_literal(ctx, a, local, before, seen) for a in e.args)
        name, imported = imported_name(ctx, f)
        if imported and name.startswith(_PLAIN_MODULES):
            return all(_literal(ctx, a, local, before, seen) for a in e.args)
    return False
