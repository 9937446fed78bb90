"""dtype-table: a dtype named as a value of a table that translates dtype names."""
from __future__ import annotations

import ast

from .base import enclosing_function, expressions, parent_of, predicate
from ..astwalk import walk


def _dtype(v, names) -> bool:
    return type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name


def _is_table(node, names) -> bool:
    return len(node.values) >= 2 and all(_dtype(v, names) for v in node.values)


def _mapping_function(ctx, node, names) -> bool:
    """`return torch.float8_e4m3fn` in a function every return of which gives a dtype (at least two of them): a
    function that translates a config value into a dtype."""
    up = parent_of(ctx, node)
    if type(up) is not ast.Return:
        return False
    fn = enclosing_function(ctx, up)
    if fn is None:
        return False
    returns = [st for st in ctx.statements() if type(st) is ast.Return and enclosing_function(ctx, st) is fn]
    values = [r.value for r in returns]
    # `if s is None: return default_dtype`: a parameter handed back unchanged, or None, is no other kind of result
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    dtypes = [v for v in values if v is not None and _dtype(v, names)]
    return len(dtypes) >= 2 and all(
        v is None or _dtype(v, names) or (type(v) is ast.Constant and v.value is None)
        or (type(v) is ast.Name and v.id in params) for v in values)


def _table_entry(ctx, node, names) -> bool:
    """`dtype_map["F8_E5M2"] = torch.float8_e5m2` where `dtype_map` was assigned a dtype table in the same
    function (or module): an entry added to the table, often under `if hasattr(torch, "float8_e5m2"):`."""
    up = parent_of(ctx, node)
    if type(up) is not ast.Assign or up.value is not node or len(up.targets) != 1:
        return False
    t = up.targets[0]
    if type(t) is not ast.Subscript or type(t.value) is not ast.Name:
        return False
    name, fn = t.value.id, enclosing_function(ctx, up)
    return any(type(st) is ast.Assign and type(st.value) is ast.Dict and _is_table(st.value, names)
               and any(type(x) is ast.Name and x.id == name for x in st.targets)
               and enclosing_function(ctx, st) is fn for st in ctx.statements())


def _membership_list(ctx, node, names) -> bool:
    """A dtype in a literal of dtypes only (at least two) that is tested for membership: `x.dtype in (torch.float32,
    torch.float64)`, or a name assigned that literal and read only on the right of `in` / `not in`
    (`valid = [torch.float32, torch.float64]` then `if X.dtype not in valid:`)."""
    lit = parent_of(ctx, node)
    if type(lit) not in (ast.List, ast.Tuple, ast.Set) or len(lit.elts) < 2 or \
            not all(_dtype(e, names) for e in lit.elts):
        return False
    up = parent_of(ctx, lit)
    if type(up) is ast.Compare:
        return any(c is lit and type(op) in (ast.In, ast.NotIn) for op, c in zip(up.ops, up.comparators))
    if type(up) is ast.comprehension and up.iter is lit and type(up.target) is ast.Name:
        return _only_compared(ctx, parent_of(ctx, up), up.target.id)
    if type(up) is ast.keyword and up.arg and up.arg.lower().endswith("dtypes"):
        # `FSQ(levels, allowed_dtypes=[torch.float16, torch.float32, torch.float64])`: the dtypes a library accepts
        return True
    if type(up) is ast.arguments and _default_of(up, lit).lower().endswith("dtypes"):
        # `def __init__(self, allowed_dtypes=(torch.float32, torch.float64))`: the same list, as the default
        return True
    if type(up) is ast.Assign and len(up.targets) == 1 and type(up.targets[0]) in (ast.Name, ast.Attribute):
        target = up.targets[0]
        if isinstance(target, ast.Name):
            reads = [n for n in ctx.nodes(ast.Name) if n.id == target.id and type(n.ctx) is ast.Load]
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            # `self.allowed_dtypes = (torch.float32, torch.float64)`, then `if z.dtype not in self.allowed_dtypes:`
            reads = [n for n in ctx.nodes(ast.Attribute) if n.attr == target.attr and type(n.ctx) is ast.Load]
        else:
            return False
        if not reads:
            return False
        for r in reads:
            cmp = parent_of(ctx, r)
            if not (type(cmp) is ast.Compare and any(c is r and type(op) in (ast.In, ast.NotIn)
                                                     for op, c in zip(cmp.ops, cmp.comparators))):
                return False
        return True
    return False


def _default_of(args: ast.arguments, value) -> str:
    """The name of the parameter whose default is `value` ("" when none is)."""
    positional = args.posonlyargs + args.args
    for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults):
        if d is value:
            return a.arg
    for a, kd in zip(args.kwonlyargs, args.kw_defaults):
        if kd is value:
            return a.arg
    return ""


def _only_compared(ctx, comp, name: str) -> bool:
    """Every read of the comprehension's variable is one side of `==` / `!=` / `is` (`any(dtype == d for d in
    (torch.float64, torch.float32))`): the literal is a membership test written out."""
    if comp is None:
        return False
    reads = [n for n in walk(comp) if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load]
    if not reads:
        return False
    for r in reads:
        cmp = parent_of(ctx, r)
        if type(cmp) is not ast.Compare or len(cmp.ops) != 1 or \
                type(cmp.ops[0]) not in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot):
            return False
    return True


@predicate("dtype-table", kinds=("reference",))
def dtype_table(ctx, hit) -> bool:
    """A dtype that is one value of a dictionary whose values are all dtypes:
    `{"float64": torch.float64, "float32": torch.float32}`, `{np.float64: torch.float64, ...}`; a return of a
    function every return of which is a dtype, None or one of its parameters handed back (`def to_dtype(name,
    default): if name is None: return default ... return torch.float8_e4m3fn`); an entry added to such a dictionary
    (`dtype_map["F8_E5M2"] = torch.float8_e5m2` after `dtype_map = {"F32": torch.float32, ...}`); or an element of
    a literal of dtypes tested for membership (`x.dtype in (torch.float32,
    torch.float64)`, a name or `self.x` attribute holding that literal read only on the right of `in`, a keyword
    argument named for dtypes (`allowed_dtypes=[torch.float32, torch.float64]`) or the default of a parameter so
    named (`def __init__(self, allowed_dtypes=(torch.float32, torch.float64))`), or a comprehension over it that
    only compares each element: `any(dtype == d for d in (torch.float64, torch.float32))`). Such code
    translates or checks names of dtypes and creates nothing, so its entries are not uses of float64 (or int64,
    float8, ...); the place
    that creates a tensor of the dtype is. Likewise a module or class
    constant that lists four or more dtypes by position (`ID_TO_DTYPE = [torch.float32, torch.float64, ...]`, an
    encoding for metadata sent between ranks). Also the argument of `torch.finfo` / `torch.iinfo`
    (`torch.finfo(torch.float8_e4m3fn).max`) where the function names the dtype nowhere else: the limits of
    the dtype as Python numbers, computed on the host.
    The dtype names are data: `dtype-names` in [context.values]."""
    node = hit.node
    names = ctx.values.get("dtype-names", ())
    if type(node) is not ast.Attribute or node.attr not in names or ctx.tree is None:
        return False
    if _mapping_function(ctx, node, names) or _membership_list(ctx, node, names) or _table_entry(ctx, node, names) \
            or _limits_of(ctx, node):
        return True
    stmt = ctx.statement_at((node.lineno, node.col_offset))  # a table is written within one statement
    if stmt is None:
        return False
    if any(type(d) is ast.Dict and any(v is node for v in d.values) and _is_table(d, names)
           for d in expressions(stmt)):
        return True
    # ID_TO_DTYPE = [torch.float32, torch.float64, torch.float16, ...]: a module or class constant listing
    # dtypes by position (an id sent over the wire indexes it); a short list may be what a test runs with
    value = stmt.value if type(stmt) in (ast.Assign, ast.AnnAssign) else None
    if not isinstance(value, (ast.List, ast.Tuple)):
        return False
    return any(e is node for e in value.elts) and len(value.elts) >= _MIN_LISTED \
        and _all_dtypes(value.elts, names) and _constant_level(ctx, stmt)


def _limits_call(ctx, node) -> bool:
    call = parent_of(ctx, node)
    if type(call) is not ast.Call or not call.args or call.args[0] is not node:
        return False
    f = call.func
    name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
    return name in ("finfo", "iinfo")


def _limits_of(ctx, node) -> bool:
    """`torch.finfo(torch.float8_e4m3fn).max`, `torch.finfo(torch.float64).eps`: the dtype is asked for its
    limits, Python numbers computed on the host; no tensor of that dtype is made there. Where the same function
    (or module level) also names the dtype otherwise (`x.to(torch.float8_e4m3fn)`), the limits belong to that
    use and stay its first place."""
    if not _limits_call(ctx, node):
        return False
    fn = enclosing_function(ctx, node)
    return not any(n is not node and n.attr == node.attr and type(n.value) is ast.Name
                   and enclosing_function(ctx, n) is fn and not _limits_call(ctx, n)
                   for n in ctx.nodes(ast.Attribute))


# Entries a positional dtype list needs before it reads as an encoding table.
_MIN_LISTED = 4


def _all_dtypes(elts, names) -> bool:
    return all(type(v) is ast.Attribute and v.attr in names and type(v.value) is ast.Name for v in elts)


def _constant_level(ctx, stmt) -> bool:
    parent = parent_of(ctx, stmt)
    return parent is None or isinstance(parent, (ast.Module, ast.ClassDef))
