"""The calls a module makes of what it imported from one of the project's kernel modules (link step 10).

The import is the finding; each call of an imported name is one of its places (an occurrence), so a checklist
shows where the kernel runs. A call in an arm of an `if` that a module constant of the file rules out
(`gemm_impl = "bf16"` at module level, the call under `else` of `if gemm_impl == "bf16":`) is not a place: that
code never runs as the file stands. Only names bound once at module level to a literal, never declared
`global` anywhere in the file, are read; any other test leaves both arms in.
"""
from __future__ import annotations

import ast

from .syntax import dotted as _dotted
from ..astwalk import walk

MAX_PLACES = 100  # as postprocess.MAX_OCCURRENCES


def _constants(tree: ast.Module) -> dict:
    """Module-level names bound exactly once, to a str / int / bool / None literal."""
    seen: dict = {}
    twice: set = set()
    for st in tree.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        value = getattr(st, "value", None)
        for t in targets:
            if isinstance(t, ast.Name):
                if t.id in seen:
                    twice.add(t.id)
                seen[t.id] = value.value if isinstance(value, ast.Constant) else _Unknown
    for node in walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            twice.update(node.names)
    return {k: v for k, v in seen.items() if k not in twice and v is not _Unknown}


class _Unknown:
    pass


def _value(node, consts: dict):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in consts:
        return consts[node.id]
    return _Unknown


def _truth(test, consts: dict):
    """True / False when the file's module constants decide the test, else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, consts)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        # only a comparison that names a constant: `1 == 1` style tests are not this class
        if not any(isinstance(x, ast.Name) and x.id in consts for x in (test.left, test.comparators[0])):
            return None
        left, right = _value(test.left, consts), test.comparators[0]
        op = test.ops[0]
        if left is _Unknown:
            return None
        if isinstance(op, (ast.Eq, ast.NotEq)):
            r = _value(right, consts)
            if r is _Unknown:
                return None
            return (left == r) == isinstance(op, ast.Eq)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            items = [_value(e, consts) for e in right.elts]
            if any(i is _Unknown for i in items):
                return None
            return (left in items) == isinstance(op, ast.In)
    return None


def _bound(st, name: str | None, module: str) -> tuple[set, set]:
    """(plain names, dotted prefixes) the import statement binds for the imported module or name. A name from a
    `from` import may be a module or a class (`from ..functions import MSDeformAttnFunction`): calls under it
    (`MSDeformAttnFunction.apply(...)`, `ops.fused(...)`) run it too."""
    names, prefixes = set(), set()
    for a in st.names:
        if isinstance(st, ast.ImportFrom):
            if a.name == name:
                names.add(a.asname or a.name)
                prefixes.add((a.asname or a.name) + ".")
        elif a.name == module:
            prefixes.add((a.asname or a.name) + ".")
    return names, prefixes


def call_places(tree: ast.Module, imports: list) -> list:
    """[(line, UTF-8 byte offset)] of the calls of what `imports` ([(line, col, module, name or None)], the import
    statements of one kernel module in this file) bind, outside arms the module constants rule out."""
    names, prefixes = set(), set()
    wanted: dict = {}  # (line, col) -> what the statement imports (`from kernel import a, b`: two entries)
    for line, col, mod, name in imports:
        wanted.setdefault((line, col), []).append((mod, name))
    for node in walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and (node.lineno, node.col_offset) in wanted:
            for mod, name in wanted[(node.lineno, node.col_offset)]:
                n, p = _bound(node, name, mod)
                names |= n
                prefixes |= p
    if not names and not prefixes:
        return []
    return places_of(tree, names, prefixes)


def places_of(tree: ast.Module, names: set, prefixes: set) -> list:
    """[(line, UTF-8 byte offset)] of the calls of `names` (`act_quant(...)`) or of a name under one of `prefixes`
    (`kernel.act_quant(...)` for "kernel."), outside arms the module constants rule out."""
    consts = _constants(tree)
    out: list = []
    stack: list[ast.AST] = [tree]
    while stack and len(out) < MAX_PLACES:
        node = stack.pop()
        if isinstance(node, ast.If):
            taken = _truth(node.test, consts)
            stack.append(node.test)
            if taken is not False:
                stack.extend(node.body)
            if taken is not True:
                stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Call):
            callee = _dotted(node.func)
            if callee is not None and (callee in names or any(callee.startswith(p) for p in prefixes)):
                out.append((node.lineno, node.col_offset))
        stack.extend(ast.iter_child_nodes(node))
    return sorted(out)


_BINDINGS = (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def falls_back(tree: ast.Module, line: int) -> bool:
    """The import statement on `line` sits in the body of a `try` one of whose handlers catches a failed import
    (`except ImportError:`, `ModuleNotFoundError`, `Exception`, a bare `except:`) and binds a fallback (an
    assignment, a definition, another import, or a returned value) without raising, as optional-gpu-import asks."""
    best = None
    for node in walk(tree):
        if isinstance(node, ast.Try) and node.body and node.body[0].lineno <= line <= (node.body[-1].end_lineno or 0):
            if best is None or node.lineno > best.lineno:
                best = node  # the innermost try around the import
    if best is None:
        return False
    for h in best.handlers:
        caught = [h.type] if not isinstance(h.type, ast.Tuple) else list(h.type.elts)
        if h.type is not None and not any(_dotted(c) in _IMPORT_ERRORS for c in caught):
            continue
        binds = False
        for n in walk(h):
            if isinstance(n, ast.Raise):
                binds = False
                break
            if isinstance(n, _BINDINGS) or (isinstance(n, ast.Return) and n.value is not None):
                binds = True
        if binds:
            return True
    return False
