"""dtype-lookup-key: a dtype used only as the key that looks a value up, never to make a tensor."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from ..astwalk import walk

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TYPE_TESTS = frozenset({"is_tensor", "isinstance", "is_floating_point"})


@predicate("dtype-lookup-key", kinds=("reference",))
def dtype_lookup_key(ctx, hit) -> bool:
    """The dtype is a key: of a dict display (`{torch.float: 1e-6, torch.double: 1e-10}`), a subscript
    (`EPS[torch.double]`), a `.get(torch.double)`, or an argument of a function of the same file whose parameter it
    binds is only compared (`if dtype == torch.double: return cls._double_value`), type-tested, read for its
    `.dtype`, or used as such a key: per-dtype settings (a jitter, a tolerance) chosen by dtype make no float64
    tensor. A dtype handed to a function that passes it on (`torch.zeros(n, dtype=dtype)`) stays reported."""
    node = hit.node
    p = parent_of(ctx, node)
    if type(p) is ast.Dict and any(k is node for k in p.keys):
        return True
    if type(p) is ast.Subscript and p.slice is node:
        return True
    if type(p) is not ast.Call or not p.args or not any(a is node for a in p.args):
        return False
    f = p.func
    if type(f) is ast.Attribute and f.attr == "get" and p.args[0] is node:
        return True
    name = f.id if type(f) is ast.Name else f.attr if type(f) is ast.Attribute else None
    if name is None or any(type(a) is ast.Starred for a in p.args):
        return False
    defs = _own_method(ctx, p, f) or _defs(ctx).get(name)
    if not defs:
        return False
    index = next(i for i, a in enumerate(p.args) if a is node)
    return all(_only_looked_up(fn, index, type(f) is ast.Attribute) for fn in defs)


def _defs(ctx) -> dict:
    """name -> the file's function definitions of that name, with whether each is a method (one pass per file)."""
    def compute(c):
        out: dict = {}
        for cls in c.nodes(ast.ClassDef):
            for st in cls.body:
                if type(st) in _FUNCS:
                    out.setdefault(st.name, []).append((st, not _static(st)))
        for st in (c.tree.body if c.tree is not None else ()):
            if type(st) in _FUNCS:
                out.setdefault(st.name, []).append((st, False))
        return out
    return ctx.fact("dtype-lookup-key-defs", compute)


def _static(fn) -> bool:
    return any(type(d) is ast.Name and d.id == "staticmethod" for d in fn.decorator_list)


def _only_looked_up(entry, index: int, bound: bool) -> bool:
    fn, method = entry
    params = fn.args.posonlyargs + fn.args.args
    if method and bound:
        params = params[1:]  # `self.value(torch.double)`, `cls.value(...)`: self/cls is not an argument
    if index >= len(params):
        return False
    name = params[index].arg
    uses = 0
    parents = {}
    for n in walk(fn):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    for n in walk(fn):
        if type(n) is not ast.Name or n.id != name:
            continue
        up = parents.get(id(n))
        if type(n.ctx) is not ast.Load:
            # `dtype = dtype.dtype`: a tensor given in its place is read for its dtype
            if not (type(up) is ast.Assign and type(up.value) is ast.Attribute and up.value.attr == "dtype"
                    and type(up.value.value) is ast.Name and up.value.value.id == name):
                return False
            continue
        uses += 1
        if type(up) in (ast.Compare, ast.FormattedValue) or _in_raise(n, parents):
            continue  # compared, formatted into a message, or named in the error raised for an unknown dtype
        if type(up) is ast.Attribute and up.attr == "dtype":
            continue
        if type(up) is ast.Subscript and up.slice is n:
            continue
        if type(up) is ast.Call and n in up.args and (
                (type(up.func) is ast.Name and up.func.id in _TYPE_TESTS)
                or (type(up.func) is ast.Attribute and up.func.attr in _TYPE_TESTS | {"get"})):
            continue
        return False
    return uses > 0


def _in_raise(n, parents: dict) -> bool:
    up = parents.get(id(n))
    while up is not None and not isinstance(up, ast.stmt):
        up = parents.get(id(up))
    return type(up) is ast.Raise


def _own_method(ctx, call, f) -> list:
    """`self.value(...)`, `cls.value(...)`, `self.__class__.value(...)` inside a class that defines `value`: that
    definition (other classes of the file may define a method of the same name)."""
    if type(f) is not ast.Attribute:
        return []
    r = f.value
    if type(r) is ast.Attribute and r.attr == "__class__":
        r = r.value
    if type(r) is not ast.Name or r.id not in ("self", "cls"):
        return []
    up = parent_of(ctx, call)
    while up is not None and type(up) is not ast.ClassDef:
        up = parent_of(ctx, up)
    if up is None:
        return []
    return [(st, not _static(st)) for st in up.body
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == f.attr]
