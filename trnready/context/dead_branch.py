"""dead-branch: code behind a condition that is a constant, so it never runs."""
from __future__ import annotations

import ast

from ..truth import truth
from ._python_version import version_flag, version_test
from .base import predicate

_BLOCKS = ("body", "orelse", "finalbody")
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Builtins that can write any module-level name without spelling it: nanoGPT-style scripts run
# `exec(open("configurator.py").read())` to override their defaults from the command line, others call
# `globals().update(cfg)`. A file using one of them (or a `__dict__`) has no constant flag.
_DYNAMIC = frozenset({"exec", "eval", "globals", "vars", "locals"})


def _false_literal(e) -> bool:
    """False, None or 0: the values a switched-off flag is written with."""
    if type(e) is not ast.Constant:
        return False
    v = e.value
    return v is None or v is False or (type(v) is int and v == 0)


def _module_assignments(stmts, found: dict, targets: set) -> None:
    """Module-level `NAME = <false literal>` (also `A = B = False`, `A: bool = False`), under module-level
    if/try/with/for blocks too: name -> count in `found`, the Name nodes they bind in `targets` (by id).
    Definitions and class bodies are another scope and are not entered."""
    for st in stmts:
        k = type(st)
        if k is ast.Assign and _false_literal(st.value) and all(type(t) is ast.Name for t in st.targets):
            for t in st.targets:
                found[t.id] = found.get(t.id, 0) + 1
                targets.add(id(t))
        elif k is ast.AnnAssign and st.value is not None and _false_literal(st.value) and type(st.target) is ast.Name:
            found[st.target.id] = found.get(st.target.id, 0) + 1
            targets.add(id(st.target))
        elif not isinstance(st, _DEFS):
            for name in _BLOCKS:
                inner = getattr(st, name, None)
                if inner:
                    _module_assignments(inner, found, targets)
            for h in getattr(st, "handlers", ()) or ():
                _module_assignments(h.body, found, targets)


def _bound_elsewhere(ctx, names: set, allowed: set) -> set:
    """Those of `names` the file binds any other way, in any scope: another assignment (also in a function, a
    class body, a loop, a `with ... as`, a walrus, a comprehension), `del`, `global`/`nonlocal`, an import, a
    parameter, a def or class name, an `except ... as`, a match capture, a string naming it (`setattr(module,
    "FLAG", v)`). A star import, `exec`, `eval`, `globals()`, `vars()`, `locals()` or a `__dict__` may bind any
    of them."""
    out = set()
    for n in ctx.nodes(ast.Name):
        if n.id in _DYNAMIC and type(n.ctx) is ast.Load:
            return set(names)
        if n.id in names and type(n.ctx) is not ast.Load and id(n) not in allowed:
            out.add(n.id)
    if any(a.attr == "__dict__" for a in ctx.nodes(ast.Attribute)):
        return set(names)
    for imp in ctx.nodes(ast.Import) + ctx.nodes(ast.ImportFrom):
        for a in imp.names:
            if a.name == "*":
                return set(names)
            out.add(a.asname or a.name.split(".", 1)[0])
    for scoped in ctx.nodes(ast.Global) + ctx.nodes(ast.Nonlocal):
        out.update(scoped.names)
    for defs in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        out.update(d.name for d in ctx.nodes(defs))
    out.update(a.arg for a in ctx.nodes(ast.arg))
    out.update(h.name for h in ctx.nodes(ast.ExceptHandler) if h.name)
    for capture in (ast.MatchAs, ast.MatchStar):
        out.update(m.name for m in ctx.nodes(capture) if m.name)
    out.update(m.rest for m in ctx.nodes(ast.MatchMapping) if m.rest)
    # `globals()["FLAG"] = True`, `setattr(sys.modules[__name__], "FLAG", True)`: written by its name
    out.update(c.value for c in ctx.nodes(ast.Constant) if type(c.value) is str and c.value in names)
    return out & names


def _candidates(ctx) -> tuple:
    """(names, ids of their Name targets) of the module-level false-literal assignments: statements only."""
    found: dict = {}
    targets: set = set()
    if ctx.tree is not None and type(ctx.tree) is ast.Module:
        _module_assignments(ctx.tree.body, found, targets)
    # One `SAVE_PROFILES = False` is a switch a user edits before a run (a benchmark's knob): not dead. A flag
    # written False in every arm that binds it (`try: ... HAS_FLEX = False` / `except: HAS_FLEX = False`) was
    # switched off on purpose.
    return frozenset(n for n, count in found.items() if count >= 2), targets


def _false_flags(ctx) -> frozenset:
    """Module-level names whose every binding in the file is a module-level false literal. The other bindings
    need a walk of the whole file, done only once a test reads one of the candidates."""
    names, targets = ctx.fact("dead-branch:candidates", _candidates)
    return frozenset(names - _bound_elsewhere(ctx, set(names), targets))


def _is_flag(ctx, name: str) -> bool:
    return name in ctx.fact("dead-branch:candidates", _candidates)[0] and \
        name in ctx.fact("dead-branch:flags", _false_flags)


def _value(e, ctx):
    """The truth of a test that never changes: True, False, or None when it depends on anything."""
    k = type(e)
    if k is ast.Constant:
        return bool(e.value)
    if k is ast.Name or k is ast.Attribute:
        # `six.PY2`, `torch._six.PY3`, `PY3`: Python 2 code never runs on the Pythons TorchNeuron supports
        v = version_flag(e)
        if v is not None:
            return v
        return False if k is ast.Name and _is_flag(ctx, e.id) else None
    if k is ast.Compare:
        return version_test(e)  # `sys.version_info[0] < 3`, `sys.version_info >= (3, 0)`
    if k is ast.BoolOp or k is ast.UnaryOp and type(e.op) is ast.Not:
        return truth(e, lambda x: _value(x, ctx))
    return None


def _skipped_operand(ctx, op: ast.BoolOp, child) -> bool:
    """`child` comes after an operand that already decides the `and`/`or` (`False and f()`): never evaluated."""
    decides = type(op.op) is ast.Or
    for part in op.values:
        if part is child:
            return False
        if _value(part, ctx) is decides:
            return True
    return False


@predicate("dead-branch", effect="guard")
def dead_branch(ctx, hit) -> bool:
    """A match that can never run because a condition around it is a constant: the body of `if False:`, `if 0:`,
    `if None:`, `if not True:`, `while False:`, `if False and ...:`; the `else` (and `elif`s) of `if True:`; one
    arm of `a if False else b`; an operand after a deciding constant in `False and f()`. A module-level flag
    counts as the constant False when every binding of its name in the file is a module-level `FLAG = False`
    (or None or 0), also one in each branch of a module-level try/except or if/else: then `if FLAG:` never runs
    its body and `if not FLAG:` never runs its `else`. Any other binding of the name anywhere in the file (a
    `FLAG = True` in some branch, `global FLAG` in a function, an import, a parameter, a loop target, `del`, a
    star import, `exec(...)` or `globals()` anywhere in the file, as nanoGPT's configurator overrides defaults)
    leaves the flag undecided. Comparisons (`FLAG is False`, `DEBUG > 1`) decide nothing, and flags imported
    from another module are not followed. Such code is switched off in the source itself; nothing in it runs
    on any machine, Neuron included. Tests of the Python version are constants too, on the Pythons TorchNeuron runs
    on (3.12 to 3.14): `sys.version_info[0] < 3`, `sys.version_info >= (3, 0)`, `sys.version_info.major == 2`,
    and the conventional flags `six.PY2`, `torch._six.PY3`, `PY3`, `IS_PY2` (context/_python_version.py); a test
    whose value differs between 3.12 and 3.14 (`sys.version_info >= (3, 13)`) decides nothing."""
    child = hit.node
    p = ctx.parent(child)
    while p is not None:
        k = type(p)
        if k is ast.If or k is ast.While:
            if child is not p.test:
                v = _value(p.test, ctx)
                if v is not None:
                    in_body = any(s is child for s in p.body)
                    if (in_body and v is False) or (k is ast.If and not in_body and v is True):
                        return True
        elif k is ast.IfExp:
            if child is not p.test:
                v = _value(p.test, ctx)
                if (v is False and child is p.body) or (v is True and child is p.orelse):
                    return True
        elif k is ast.BoolOp:
            if _skipped_operand(ctx, p, child):
                return True
        child, p = p, ctx.parent(p)
    return False
