"""Local evidence that a value is a boolean mask or a torch tensor (docs/values.md).

Used by the `subscript = ["boolean-mask"]` matcher kind (`x[mask]`, `x[mask, 1:]`, `x[mask] = rows`) and by
the tensor-receiver context predicates. Only what the same function (or module) shows counts: a comparison, `~m`,
isfinite/isnan & co, `.bool()`, a `dtype=torch.bool` tensor, a name bound to one of those, a part of one
(`xc[i]`), or an attribute the same file stores one under (`meta.keep = keep`, `Meta(keep=keep)`).
A value made by a library listed in [methods] not-on (NumPy, pandas...) is never a torch mask.
"""
from __future__ import annotations

import ast

from .index import Scope, _tail
from .astwalk import walk
from .project.syntax import dotted

MASK_CALLS = frozenset({"isfinite", "isnan", "isinf", "isneginf", "isposinf", "isreal", "logical_and",
                         "logical_or", "logical_not", "logical_xor", "eq", "ne", "gt", "lt", "ge", "le",
                         "greater", "less", "greater_equal", "less_equal", "not_equal", "isin", "bool"})
# Methods that return a mask's own places in another shape (`mask[:, k].contiguous().view(-1)`)
MASK_VIEWS = frozenset({"view", "reshape", "contiguous", "flatten", "squeeze", "unsqueeze", "expand", "expand_as",
                        "transpose", "permute", "t", "detach", "clone"})
# ... and those keeping a mask a mask: the views, and reductions over a dimension that turn a mask into a smaller
# mask (`(idx == e).any(dim=-1)`).
_MASK_KEEPING = MASK_VIEWS | {"any", "all"}
_NOT_MASK_CMP = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_BOOL_DTYPES = frozenset({"torch.bool"})
_MAX_DEPTH = 4


def is_mask(expr: ast.expr, scope: Scope, resolver, depth: int = 0, negated: dict | None = None,
            attrs: dict | None = None) -> bool:
    """True when the index expression is, by local evidence, a boolean tensor. `negated`: id(scope) -> names
    written `~name` in that scope (a name negated elsewhere in the function is used as a mask there too).
    `attrs`: attribute name -> [(value, Scope)] stored under it in the file (FileIndex.mask_attrs)."""
    if depth > _MAX_DEPTH:
        return False
    t = type(expr)
    if t is ast.Tuple:  # x[m, 1:] / x[:, m]: a mask on one axis of a multi-axis index keeps one row per True
        return any(type(e) not in _NOT_MASK_PARTS and is_mask(e, scope, resolver, depth + 1, negated, attrs)
                   for e in expr.elts)
    if t is ast.Attribute:
        return attrs is not None and _stored_mask(expr.attr, resolver, depth, attrs)
    if t is ast.Compare:
        if any(isinstance(op, _NOT_MASK_CMP) for op in expr.ops):
            return False
        # `x[i == 0]` on Python values is an int/bool index; a mask needs a non-literal operand
        return not all(type(o) is ast.Constant for o in (expr.left, *expr.comparators))
    if t is ast.UnaryOp:
        if type(expr.op) is ast.Invert:  # ~m: bitwise not, on an index it is a negated mask
            # (`~torch.any(patches < 0, dim=-1)[0]`, a row of a mask: ltx-msr-torch's grid mask, blind80)
            return type(expr.operand) in (ast.Name, ast.Attribute, ast.Call, ast.Compare, ast.BinOp) \
                or type(expr.operand) is ast.Subscript and is_mask(expr.operand, scope, resolver, depth + 1, negated,
                                                                   attrs)
        return False
    if t is ast.BinOp and type(expr.op) in (ast.BitAnd, ast.BitOr, ast.BitXor):
        return (is_mask(expr.left, scope, resolver, depth + 1, negated)
                or is_mask(expr.right, scope, resolver, depth + 1, negated))
    if t is ast.BinOp and type(expr.op) is ast.Mult:
        # `(u > 0) * (l == u)`: the product of two boolean tensors is their logical and, a boolean tensor (a mask
        # times anything else is a number)
        return (is_mask(expr.left, scope, resolver, depth + 1, negated)
                and is_mask(expr.right, scope, resolver, depth + 1, negated))
    if t is ast.Call:
        tail = _tail(expr.func)
        if tail == "isin" and type(expr.func) is ast.Attribute:
            # torch.isin is a function and tensors have no isin method: `df["key"].isin(keys)` is a pandas
            # Series' (fresh78: two KFold dataset splits judged wrong)
            return any(resolver.canonical(q) == "torch.isin" for q in resolver.qualnames(expr.func, scope))
        if tail in MASK_CALLS:
            return True
        if tail in _MASK_KEEPING and type(expr.func) is ast.Attribute:
            if tail in ("any", "all") and not expr.args and not expr.keywords:
                return False  # `m.any()` is one truth value, not a mask to index with
            return is_mask(expr.func.value, scope, resolver, depth + 1, negated, attrs)
        for kw in expr.keywords:
            if kw.arg == "dtype" and _names_bool(kw.value, scope, resolver):
                return True
        if tail == "to" and expr.args and _names_bool(expr.args[0], scope, resolver):
            return True
        return False
    if t is ast.Subscript:  # mask[:, k], xc[i]: a slice or a row of a mask is a mask
        return is_mask(expr.value, scope, resolver, depth + 1, negated, attrs)
    if t is ast.Name:
        if negated and expr.id in negated.get(id(scope), ()):
            return True  # `h, mask = to_dense_batch(x)` ... `~mask` ... `h[mask]`
        bindings = _reaching(resolver.lookup(scope, expr.id), expr)
        if not bindings:
            return False
        if _loop_variable(bindings, expr):
            return False  # `for idx in range(n): plt.text(..., mean[idx])`, whatever else the file binds to `idx`
        return any(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                   and is_mask(b.value, b.scope, resolver, depth + 1, negated, attrs)
                   or b.kind == "local" and _mask_row(expr.id, b.scope, resolver, depth, negated, attrs)
                   for b in bindings)
    return False


def _loop_variable(bindings, use) -> bool:
    """The use sits in a `for` loop of the name's scope whose target binds the name, and no assignment of the name
    lies inside that loop: the loop's row is what the use reads. Only a row of zipped values is followed further
    (`_mask_row`); a loop over `range(...)`, `enumerate(...)` or a permutation's rows (`for idx in perm:` with
    `perm = torch.randperm(n).view(-1, 1000)`) hands out positions. A notebook or script binds many names at its
    top level more than once (`idx = y == c` in one cell, `for idx in range(3):` in another; manifold-contrastive's
    plotting cell, fresh84)."""
    at = getattr(use, "lineno", None)
    if at is None:
        return False
    name = use.id
    scopes = {id(b.scope): b.scope for b in bindings}
    for scope in scopes.values():
        loops = getattr(scope, "loops", None)
        if not loops:
            continue
        spans = [(first, last) for names, first, last in loops if name in names and first <= at <= last]
        if not spans:
            continue
        first, last = max(spans)  # the innermost loop holding the use
        if getattr(scope, "rows", None) and name in scope.rows:
            return False  # a row of zipped values: `_mask_row` decides
        inside = [b for b in bindings if b.scope is scope and isinstance(b.value, ast.expr)
                  and b.kind != "elem" and first <= getattr(b.value, "lineno", 0) <= last]
        return not inside
    return False


# Calls that turn a mask into the integer positions of its True values
_POSITION_CALLS = frozenset({"nonzero", "argwhere"})


def _reaching(bindings, use) -> list:
    """The bindings of a name that reach `use`: when every binding is an assignment written before the use and the
    last of them, in no if/else arm, turns the mask into positions, that one alone (`inds = scores > t`, then `inds =
    inds.nonzero()`: `x[inds[:, 0]]` indexes with integers, AdelaiDet's SOLOv2); otherwise all of them (a branch, a
    loop's later rebinding, a binding of unknown place or a value still picked from the mask may reach the use)."""
    if not bindings or len(bindings) < 2:
        return bindings
    at = getattr(use, "lineno", None)
    lines = [getattr(b.value, "lineno", None) if isinstance(b.value, ast.expr) else None for b in bindings]
    if at is None or any(ln is None or ln >= at for ln in lines):
        return bindings
    known = [ln or 0 for ln in lines]
    last = bindings[max(range(len(bindings)), key=lambda i: known[i])]
    # only a rebinding to positions replaces the mask: a value picked from it (`torch.where(c, mask, other)`) is one
    v = last.value
    positions = type(v) is ast.Call and _tail(v.func) in _POSITION_CALLS
    return [last] if positions and last.branch == () else bindings


def _zipped_row(name: str, scope):
    """(zipped value, the scope it is read in) when `scope` binds `name` as a row of a zipped value
    (`for w, m in zip(waves, masks)`, index.py `_zip_rows`), else None."""
    rows = getattr(scope, "rows", None)
    return rows.get(name) if rows else None


def _mask_row(name: str, scope, resolver, depth: int, negated, attrs) -> bool:
    """`for w, m in zip(waves, masks)` with `masks = scores > 0.5`: a row of a boolean mask is a boolean mask."""
    got = _zipped_row(name, scope)
    return got is not None and is_mask(got[0], got[1], resolver, depth + 1, negated, attrs)


_NOT_MASK_PARTS = (ast.Slice, ast.Constant, ast.Starred)


def _stored_mask(attr: str, resolver, depth: int, attrs: dict) -> bool:
    """`meta.to_cache_mask`: some value the file stores under that attribute name is a mask, and none is a
    tensor of integer positions (`self.keep = torch.nonzero(m)` elsewhere makes the name ambiguous)."""
    stored = attrs.get(attr)
    if not stored:
        return False
    if any(_positions(v, resolver.index_makers) for v, _ in stored):
        return False
    return any(is_mask(v, s, resolver, depth + 1, None, attrs) for v, s in stored)


def _positions(value: ast.expr, makers: frozenset) -> bool:
    node = value
    while type(node) is ast.Subscript:
        node = node.value
    return type(node) is ast.Call and _tail(node.func) in makers


_ROWS_FLATTENED = frozenset({"view", "reshape", "flatten"})


def unkept(expr: ast.expr) -> ast.expr:
    """`m.clone()`, `m.detach().view(-1)`: the mask the calls keep (a copy or a view of `m`); else the expression."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in _MASK_KEEPING \
            and expr.func.attr not in ("any", "all"):
        expr = expr.func.value
    return expr


def paired_masks(index: ast.expr, scope: Scope, resolver, attrs: dict | None = None) -> bool:
    """`H[dead, dead] = 1`: two or more boolean masks in one index. PyTorch turns each into its positions and
    pairs them, so even a scalar written this way lands on as many places as there are True values: unlike
    `x[m] = 0` (one mask, a fill that keeps every shape) it cannot be written as a `torch.where`."""
    if type(index) is not ast.Tuple:
        return False
    found = 0
    for e in index.elts:
        if type(e) not in _NOT_MASK_PARTS and is_mask(e, scope, resolver, 1, None, attrs):
            found += 1
    return found >= 2


def rows_written(value: ast.expr | None, scope: Scope, resolver, attrs: dict | None = None,
                 index: ast.expr | None = None) -> bool:
    """A write through a mask (`x[m] = v`) worth its own finding: the value is sized by the mask but reads
    nothing through a mask itself (`x[m] = y[m]` is reported at the read `y[m]`). `index`: the mask written
    through, when the caller has it (a value computed by a call handed that mask is sized by it)."""
    if value is None or any(type(n) is ast.Subscript and is_mask(n.slice, scope, resolver, 0, None, attrs)
                            for n in walk(value)):
        return False
    return sized_by_mask(value, scope, resolver, attrs) or (
        type(index) is ast.Name and (_made_from_mask(value, index.id, scope, resolver)
                                     or _counted_rows(value, index.id, scope, resolver)))


_COUNTED_DEPTH = 10  # hops from the written value to the factory that counted the mask

# torch factories whose first argument is the number of rows
_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "linspace"})
# calls and methods that keep the rows of their first tensor (elementwise, casts, per-row reductions given a dim)
_ROW_KEEPING = frozenset({"cos", "sin", "tan", "exp", "log", "sqrt", "abs", "sigmoid", "tanh", "relu", "clamp",
                          "float", "double", "half", "to", "clone", "detach", "unsqueeze", "expand", "mean", "sum",
                          "norm", "atan2", "where"})


def _counted_rows(value: ast.expr, mask: str, scope: Scope, resolver, depth: int = 0) -> bool:
    """`n = mask.sum().item()`, `state = torch.zeros(n, d)`, then `x[mask] = state`: a value built with as many rows
    as the mask has True values (snake-hrl-torchrl's batched reset, blind79), directly or through elementwise
    arithmetic, casts, per-row reductions and stacks of such values (`com = torch.stack([pos_x.mean(dim=1), ...])`)."""
    if depth > _COUNTED_DEPTH:
        return False
    t = type(value)
    if t is ast.Name:
        bindings = list(resolver.lookup(scope, value.id) or ())
        return bool(bindings) and len(bindings) <= 2 and any(
            b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
            and _counted_rows(b.value, mask, b.scope, resolver, depth + 1) for b in bindings)
    if t is ast.BinOp:
        return _counted_rows(value.left, mask, scope, resolver, depth + 1) \
            or _counted_rows(value.right, mask, scope, resolver, depth + 1)
    if t is ast.UnaryOp:
        return _counted_rows(value.operand, mask, scope, resolver, depth + 1)
    if t is not ast.Call:
        return False
    tail = _tail(value.func)
    if tail in _FACTORIES and type(value.func) is ast.Attribute and value.args:
        first = value.args[0]
        if type(first) in (ast.Tuple, ast.List) and first.elts:
            first = first.elts[0]
        return _mask_count(first, mask, scope, resolver, 0)
    if tail in ("stack", "cat") and value.args and type(value.args[0]) in (ast.List, ast.Tuple):
        return any(_counted_rows(e, mask, scope, resolver, depth + 1) for e in value.args[0].elts)
    if tail in _ROW_KEEPING:
        if type(value.func) is ast.Attribute and _counted_rows(value.func.value, mask, scope, resolver, depth + 1):
            # (`x.mean()` / `x.sum()` without a dim is one value)
            return tail not in ("mean", "sum", "norm") or bool(value.args or value.keywords)
        return any(_counted_rows(a, mask, scope, resolver, depth + 1) for a in value.args)
    return False


def _mask_count(expr: ast.expr, mask: str, scope: Scope, resolver, depth: int) -> bool:
    """The expression counts the True values of `mask`: `mask.sum()`, `.item()` / `int(...)` of it,
    `mask.count_nonzero()`, `int(mask.sum())`, or a name bound to one of those."""
    if depth > _MAX_DEPTH:
        return False
    t = type(expr)
    if t is ast.Name:
        bindings = list(resolver.lookup(scope, expr.id) or ())
        return len(bindings) == 1 and bindings[0].kind in ("expr", "call") \
            and isinstance(bindings[0].value, ast.expr) \
            and _mask_count(bindings[0].value, mask, bindings[0].scope, resolver, depth + 1)
    if t is not ast.Call:
        return False
    func = expr.func
    if type(func) is ast.Name and func.id == "int" and len(expr.args) == 1:
        return _mask_count(expr.args[0], mask, scope, resolver, depth + 1)
    if type(func) is not ast.Attribute:
        return False
    if func.attr == "item" and not expr.args:
        return _mask_count(func.value, mask, scope, resolver, depth + 1)
    return func.attr in ("sum", "count_nonzero") and not expr.args and not expr.keywords \
        and type(func.value) is ast.Name and func.value.id == mask


def _made_from_mask(value: ast.expr, mask: str, scope: Scope, resolver, depth: int = 0) -> bool:
    """`out = model(x, m)` then `x[m] = out`: a call handed the mask as an argument returns what the mask selects
    (a masked model's predictions for the masked positions); a full-size value would not fit the write at all,
    so a value of such a call has one row per True value."""
    if depth > _MAX_DEPTH:
        return False
    t = type(value)
    if t is ast.Call:
        return any(type(a) is ast.Name and a.id == mask for a in (*value.args, *(k.value for k in value.keywords)))
    if t is ast.Name:
        bindings = list(resolver.lookup(scope, value.id) or ())
        if len(bindings) != 1:
            return False
        b = bindings[0]
        return b.kind in ("expr", "call") and isinstance(b.value, ast.expr) \
            and _made_from_mask(b.value, mask, b.scope, resolver, depth + 1)
    return False


def sized_by_mask(value: ast.expr | None, scope: Scope, resolver, attrs: dict | None = None,
                  depth: int = 0) -> bool:
    """True when the value written through a mask (`x[m] = v`) has, by local evidence, one row per True value
    (a scalar `x[m] = 0` keeps every shape): it reads something through a mask (`y[m]`, `f(y[m])`), flattens
    rows (`emb.view(-1, d)`), is the output of a module the class builds (`self.proj(h)`), or is a name
    bound in reach to one of those."""
    if value is None or depth > _MAX_DEPTH:
        return False
    for node in walk(value):
        t = type(node)
        if t is ast.Lambda:
            return False
        if t is ast.Subscript and is_mask(node.slice, scope, resolver, 0, None, attrs):
            return True
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _ROWS_FLATTENED \
                and node.args and (_minus_one(node.args[0]) or _rows_and_width(node)):
            return True
    t = type(value)
    if t is ast.Call and _module_output(value.func, scope):
        return True
    if t is ast.Call and type(value.func) is ast.Attribute and value.func.attr in _SAME_ROWS \
            and type(value.func.value) is ast.Name:
        # `rgbs[valid] = _rgbs.float()`: a cast or copy keeps the rows of what it casts (ngp_pl's renderer)
        return sized_by_mask(value.func.value, scope, resolver, attrs, depth + 1)
    if t is ast.Compare and is_mask(value, scope, resolver, 1, None, attrs):
        # `fg[fg.clone()] = inboxes` with `inboxes = matched > 0`: a mask written through a mask is a tensor
        # of per-element truth values, one per True value of the index, never a fill value
        return True
    if t is ast.Name:
        return any(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                   and sized_by_mask(b.value, b.scope, resolver, attrs, depth + 1)
                   for b in resolver.lookup(scope, value.id) or ())
    return False


# Methods returning a tensor with the rows of their receiver: dtype and device casts, copies
_SAME_ROWS = frozenset({"float", "half", "double", "bfloat16", "to", "type", "type_as", "contiguous", "clone",
                        "detach"})


def _rows_and_width(call: ast.Call) -> bool:
    """`visf1.view(B * Nenc, C)`: two sizes, rows and a width, the rows not the constant 1 (`.view(1, C)` is one row
    that broadcasts over any mask)."""
    if len(call.args) != 2 or call.keywords or any(type(a) is ast.Starred for a in call.args):
        return False
    first = call.args[0]
    return not (type(first) is ast.Constant and first.value == 1)


def _minus_one(expr: ast.expr) -> bool:
    return type(expr) is ast.UnaryOp and type(expr.op) is ast.USub and type(expr.operand) is ast.Constant \
        and expr.operand.value == 1


def _module_output(func: ast.expr, scope: Scope) -> bool:
    """`self.proj(...)` where the class stores an instance of a class under `proj` (`self.proj = Linear(...)`):
    a module's forward returns a tensor with a batch of rows, never one scalar."""
    if type(func) is not ast.Attribute or type(func.value) is not ast.Name:
        return False
    cls = scope.cls
    if cls is None or func.value.id != scope.self_name:
        return False
    for b in cls.self_attrs.get(func.attr, ()):
        callee = b.value if b.kind == "instance" else b.value.func if b.kind == "call" else None
        tail = _tail(callee) if callee is not None else None
        if tail and tail[0].isupper():
            return True
    return False


# Methods of a tensor that answer from its shape, not its values: `int(0.7 * x.numel())` is known before the data.
_SHAPE_METHODS = frozenset({"numel", "nelement", "size", "dim", "ndimension", "element_size", "stride"})


def _tensor_value(expr: ast.expr, scope: Scope, resolver) -> bool:
    """`ks.max()`, `counts[i]`: a torch tensor's values, not arithmetic on its shape."""
    if type(expr) is ast.BinOp or any(type(n) is ast.Call and _tail(n.func) in _SHAPE_METHODS
                                      or type(n) is ast.Attribute and n.attr in ("shape", "ndim")
                                      for n in walk(expr)):
        return False
    return is_tensor(expr, scope, resolver)


def from_tensor_data(expr: ast.expr, scope: Scope, resolver, depth: int = 0) -> bool:
    """True when an int argument is read out of tensor data: `.item()`, `.tolist()`, `int(t)` of a torch
    tensor, a part of one (`ks.tolist()[i]`), arithmetic on one, either arm of a conditional expression
    (`k = m if sparse else (k + m)`), or a name bound to one."""
    return bool(tensor_data_reads(expr, scope, resolver, depth, first=True))


def tensor_data_reads(expr: ast.expr, scope: Scope, resolver, depth: int = 0, first: bool = False) -> list:
    """The expressions where the int argument `expr` is read out of tensor data (the `.item()` / `.tolist()` /
    `int(t)` calls, through the names and arithmetic between them and `expr`): the lines a reader looks at to see
    where the size comes from. `first`: stop at the first one (a yes/no question)."""
    out: list = []
    _reads(expr, scope, resolver, depth, out, first)
    return out


def _reads(expr: ast.expr, scope: Scope, resolver, depth: int, out: list, first: bool) -> None:
    if depth > _MAX_DEPTH:
        return
    t = type(expr)
    if t is ast.Call:
        func = expr.func
        if type(func) is ast.Attribute and func.attr in ("item", "tolist") and not expr.args:
            if not _built_from_python(func.value, scope, resolver):
                out.append(expr)
        elif type(func) is ast.Name and func.id in ("int", "min", "max", "sum") and expr.args:
            for a in expr.args:
                n = len(out)
                _reads(a, scope, resolver, depth + 1, out, first)
                if len(out) == n and func.id == "int" and _tensor_value(a, scope, resolver):
                    out.append(expr)
                if first and out:
                    return
        return
    if t is ast.Subscript:
        _reads(expr.value, scope, resolver, depth + 1, out, first)
        return
    if t is ast.ListComp or t is ast.GeneratorExp:
        # `sum([l > t for l in decode_lengths])` over `decode_lengths = (lengths - 1).tolist()`: the elements come
        # from the data, so what is summed or taken the max of does too
        for gen in expr.generators:
            _reads(gen.iter, scope, resolver, depth + 1, out, first)
            if first and out:
                return
        return
    if t is ast.BinOp or t is ast.IfExp:
        for part in ((expr.left, expr.right) if t is ast.BinOp else (expr.body, expr.orelse)):
            _reads(part, scope, resolver, depth + 1, out, first)
            if first and out:
                return
        return
    if t is ast.Name:
        for b in resolver.lookup(scope, expr.id) or ():
            if b.kind in ("expr", "call") and isinstance(b.value, ast.expr):
                _reads(b.value, b.scope, resolver, depth + 1, out, first)
                if first and out:
                    return


# Constructors that copy Python data into a new tensor (`torch.tensor(t)` of a tensor warns and is not the idiom), and
# reductions of such a tensor: `torch.prod(torch.tensor(shape)).item()` is the product of a shape the program holds.
_FROM_PYTHON = frozenset({"torch.tensor", "torch.as_tensor", "torch.LongTensor", "torch.IntTensor"})
_REDUCTIONS = frozenset({"prod", "sum", "max", "min", "numel", "cumprod", "cumsum"})
_PYTHON_DATA = (ast.Name, ast.Attribute, ast.Subscript, ast.List, ast.Tuple, ast.Constant)


def _built_from_python(expr: ast.expr, scope: Scope, resolver, depth: int = 0) -> bool:
    """The tensor read back is one the program built from Python values (a shape list, a count), or a reduction of
    one: its `.item()` is a number the program already had, not data the model computed (vmc_torch's slices of a
    flat parameter vector by `torch.prod(torch.tensor(shape)).item()`, fresh74)."""
    if type(expr) is not ast.Call or depth > _MAX_DEPTH:
        return False
    func = expr.func
    names = {resolver.canonical(q) for q in resolver.qualnames(func, scope)}
    if names & _FROM_PYTHON:
        return bool(expr.args) and type(expr.args[0]) in _PYTHON_DATA
    if type(func) is ast.Attribute and func.attr in _REDUCTIONS:
        if any(n == f"torch.{func.attr}" for n in names):
            return bool(expr.args) and _built_from_python(expr.args[0], scope, resolver, depth + 1)
        return _built_from_python(func.value, scope, resolver, depth + 1)
    return False


def _names_bool(expr: ast.expr, scope: Scope, resolver) -> bool:
    return any(resolver.canonical(q) in _BOOL_DTYPES for q in resolver.qualnames(expr, scope))


def foreign(expr: ast.expr, scope: Scope, resolver, not_on) -> bool:
    """True when the value was made by one of the `not_on` libraries (np.isnan(a), arr = np.load(f)); for a
    tuple index (`p[:, i]`), when one of its parts was."""
    if type(expr) is ast.Tuple:
        return any(foreign(e, scope, resolver, not_on) for e in expr.elts)
    if _array_method(expr, scope, resolver, 0):
        return True
    if type(expr) is ast.Subscript and _foreign_items(expr, scope, resolver, not_on):
        return True
    for origin in resolver.origins(expr, scope):
        origin = resolver.canonical(origin)
        if any(origin == lib or origin.startswith(lib + ".") for lib in not_on):
            return True
    return False


def _foreign_items(expr: ast.Subscript, scope: Scope, resolver, not_on) -> bool:
    """An item of a container whose items the scope assigns only values made by a `not_on` library (CenterNet's
    `results[j] = np.concatenate(...).astype(np.float32)`, then `results[j][keep_inds]`): a NumPy array. When the scope
    assigns the item of the same key (`out['SPICE_' + k] = np.array(...)` in a dict of mixed scores), only those
    assignments count. Assignments of the container's own items (`results[j] = results[j][keep]`) say nothing
    either way."""
    base: ast.expr = expr
    key = None
    while type(base) is ast.Subscript:
        key = base.slice
        base = base.value
    if type(base) is not ast.Name:
        return False
    s: Scope | None = scope
    while s is not None and s.kind == "comprehension":
        s = s.parent
    if s is None:
        return False
    items = (s.items or {}).get(base.id)
    if not items:
        return False
    # the assignments of the very item read (`out['SPICE_' + k] = np.array(...)`, then `out['SPICE_' + k][m]`), when
    # the scope has some: a dict of scores keeps other values under other keys
    same = ast.dump(key) if key is not None else None
    values = [v for k, v in items if ast.dump(k) == same] or [v for _k, v in items]
    made = [v for v in values if _root_name(v) != base.id]
    return bool(made) and all(foreign(v, s, resolver, not_on) for v in made)


def _root_name(expr: ast.expr) -> str:
    while type(expr) in (ast.Subscript, ast.Attribute, ast.Call):
        expr = expr.func if type(expr) is ast.Call else expr.value
    return expr.id if type(expr) is ast.Name else ""


# Methods a torch tensor does not have: a value one of them made is a NumPy array or a pandas object
# (`flow = flow.reshape(-1, 2).astype(np.float32)`, then `flow[valid >= 1]`).
# (`.copy()` too: a tensor has none, so a copy indexed with a mask is a NumPy array)
_ARRAY_METHODS = frozenset({"astype", "to_numpy", "numpy", "copy"})


def _array_method(expr: ast.expr, scope: Scope, resolver, depth: int) -> bool:
    """The value is the result of `.astype(...)` / `.to_numpy()` (or a slice of one), a bitwise combination,
    comparison or negation of one, or a name bound only to such results in its scope."""
    t = type(expr)
    if t is ast.Subscript:
        return depth < _MAX_DEPTH and _array_method(expr.value, scope, resolver, depth + 1)
    if t is ast.Call:
        return type(expr.func) is ast.Attribute and expr.func.attr in _ARRAY_METHODS
    # `valid = (depth >= 0.1) & mask` with `mask = m.reshape(h, w).astype(bool)`: a mask combined element by element
    # with a NumPy array, or a comparison or negation of one, is host data (a NumPy array becomes a CPU tensor when
    # a torch tensor meets it, and a device tensor does not combine with it at all)
    if t is ast.BinOp and type(expr.op) in (ast.BitAnd, ast.BitOr, ast.BitXor):
        return depth < _MAX_DEPTH and (_array_method(expr.left, scope, resolver, depth + 1)
                                       or _array_method(expr.right, scope, resolver, depth + 1))
    if t is ast.Compare:
        return depth < _MAX_DEPTH and _array_method(expr.left, scope, resolver, depth + 1)
    if t is ast.UnaryOp and type(expr.op) in (ast.Invert, ast.Not):
        return depth < _MAX_DEPTH and _array_method(expr.operand, scope, resolver, depth + 1)
    if t is ast.Name and depth < _MAX_DEPTH:
        bindings = resolver.lookup(scope, expr.id) or []
        # `for gt, size in zip(gt_classes, sizes)` over a NumPy array: each row is one
        for b in bindings:
            row = _zipped_row(expr.id, b.scope) if b.kind == "local" else None
            if row is not None and _array_method(row[0], row[1], resolver, depth + 1):
                return True
        made = [b for b in bindings if b.kind != "param"]
        # a parameter rebound unconditionally (`flow = flow.reshape(-1, 2).astype(np.float32)`) is that value
        if len(made) < len(bindings) and not any(b.branch == () for b in made):
            return False
        # a binding of the name to a part of itself (`detections = detections[keep]`) keeps what it was
        made = [b for b in made if not (isinstance(b.value, ast.expr) and type(b.value) is ast.Subscript
                                        and _root_name(b.value) == expr.id)] or made
        return bool(made) and all(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                                  and _array_method(b.value, b.scope, resolver, depth + 1) for b in made)
    return False


_CAST_METHODS = frozenset({"long", "int", "short", "bool", "half", "bfloat16"})


def tensor_slice_bound(index: ast.expr, scope: Scope, resolver) -> bool:
    """`order[:, :n.long()]`: a bound of a slice of the index is a torch tensor by local evidence (a cast only
    tensors have, a value of a torch function, a name bound to one), or a number read out of one (`n =
    keep.sum().item()`, `sum([l > t for l in lengths.tolist()])`). Its value, not a shape, decides how many
    elements the slice keeps. A bound read from the tensor's shape (`x.shape[1]`, `x.size(0)`) is not one."""
    parts = index.elts if type(index) is ast.Tuple else [index]
    for p in parts:
        if type(p) is not ast.Slice:
            continue
        for bound in (p.lower, p.upper):
            if bound is None or type(bound) is ast.Constant:
                continue
            if any(type(n) is ast.Attribute and n.attr in ("shape", "ndim")
                   or type(n) is ast.Call and _tail(n.func) in _SHAPE_METHODS for n in walk(bound)):
                continue
            if from_tensor_data(bound, scope, resolver):
                return True
            # a tensor by local evidence: a call (`n.long()`, a torch function) at the bound, or a name bound once to
            # a tensor-only cast (`n = k.long()`); a name or arithmetic of torch origin alone is too often a shape
            # (`b, c = x.size()`) or a device number (`torch.cuda.current_device()`) to say so
            if type(bound) is ast.Call and is_tensor(bound, scope, resolver) \
                    or type(bound) is ast.Name and _named_cast(bound, scope, resolver):
                return True
    return False


def _named_cast(expr: ast.Name, scope: Scope, resolver) -> bool:
    bindings = resolver.lookup(scope, expr.id)
    if not bindings or len(bindings) != 1 or bindings[0].kind not in ("expr", "call"):
        return False
    v = bindings[0].value
    return type(v) is ast.Call and _tensor_cast(v, bindings[0].scope, resolver, 1)


def python_sequence(expr: ast.expr, scope: Scope, resolver) -> bool:
    """The value is a Python list or string by local evidence (a list display or comprehension, `.tolist()`,
    `list(...)`, `sorted(...)`, `str(...)`, or a name bound only to those): slicing it makes no tensor."""
    t = type(expr)
    if t in (ast.List, ast.ListComp, ast.JoinedStr) or t is ast.Constant and type(expr.value) is str:
        return True
    if t is ast.Call:
        f = expr.func
        return type(f) is ast.Attribute and f.attr == "tolist" or type(f) is ast.Name and f.id in (
            "list", "sorted", "str")
    if t is ast.BinOp and type(expr.op) is ast.Add:
        return python_sequence(expr.left, scope, resolver) or python_sequence(expr.right, scope, resolver)
    if t is ast.Name:
        bound = [b for b in resolver.lookup(scope, expr.id) or ()]
        return bool(bound) and all(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                                   and type(b.value) is not ast.Name
                                   and python_sequence(b.value, b.scope, resolver) for b in bound)
    return False


def is_tensor(expr: ast.expr, scope: Scope, resolver, depth: int = 0) -> bool:
    """True when the value comes, by local evidence, from a torch function (torch.cat(...), torch.tensor(...),
    a name bound to one, or a method chain on one), or is a cast only tensors have: `.to(torch.long)`, `.long()`
    (NumPy arrays, pandas objects and Python numbers have neither), or a name bound once to one of those."""
    if depth <= _MAX_DEPTH and _tensor_cast(expr, scope, resolver, depth):
        return True
    for origin in resolver.origins(expr, scope):
        origin = resolver.canonical(origin)
        if origin.startswith("torch.") and not origin.startswith(("torch.Size", "torch.device", "torch.dtype")):
            return True
    return False


def _tensor_cast(expr: ast.expr, scope: Scope, resolver, depth: int) -> bool:
    t = type(expr)
    if t is ast.Call and type(expr.func) is ast.Attribute:
        attr = expr.func.attr
        if attr in _CAST_METHODS and not expr.args and not expr.keywords:
            return True
        if attr == "to" and len(expr.args) == 1 and not expr.keywords:
            return any(resolver.canonical(q) in _TORCH_DTYPES for q in resolver.qualnames(expr.args[0], scope))
        return False
    if t is ast.Name:
        bindings = resolver.lookup(scope, expr.id)
        return bool(bindings) and len(bindings) == 1 and bindings[0].kind in ("expr", "call") \
            and isinstance(bindings[0].value, ast.expr) and is_tensor(bindings[0].value, bindings[0].scope, resolver,
                                                                      depth + 1)
    return False


_TORCH_DTYPES = frozenset(f"torch.{d}" for d in (
    "long", "int64", "int", "int32", "int16", "short", "int8", "uint8", "bool", "float", "float32", "float16", "half",
    "bfloat16", "double", "float64"))


# Calls whose result is a tensor of integer positions, never a mask, are [context.values] index-making-calls (read
# through the resolver): a name bound to one is not read as a mask whatever it is called (`keep = nms(...)`).


def named_axis(expr: ast.expr):
    """The index itself, or for a multi-axis index (`x[:, mask_tensor]`, `x[mask, 1:]`) its one plain-name element
    beside slices, `...` and constants; None when there is no such single name. A strided slice of the name
    (`per_frame[:, grid_mask[::n]]`: every n-th entry of a mask is a mask; ltx-msr-torch, blind80) stands for it."""
    if type(expr) is not ast.Tuple:
        return _strided(expr)
    elts = [_strided(e) for e in expr.elts]
    names = [e for e in elts if type(e) is ast.Name]
    rest = [e for e in elts if type(e) is not ast.Name]
    if len(names) != 1 or not all(type(e) in (ast.Slice, ast.Constant) for e in rest):
        return None
    return names[0]


def _strided(expr: ast.expr) -> ast.expr:
    """`m[::n]` / `m[a:b]`: the name sliced (one axis of a mask, sliced, is a mask), else the expression."""
    if type(expr) is ast.Subscript and type(expr.value) is ast.Name and type(expr.slice) is ast.Slice:
        return expr.value
    return expr


def named_mask(expr: ast.expr, scope: Scope, resolver, words: frozenset, not_words: frozenset) -> bool:
    """True when the index is a plain name that says it is a mask (`mask_k`, `input_mask`, `keep`: one of its
    words is in `words` and none in `not_words`, e.g. `mask_idx`) and no assignment in reach binds it to integer
    positions or a value of another kind. The name is the only evidence, so the matcher using it says so."""
    if type(expr) is not ast.Name:
        return False
    parts = name_words(expr.id)
    if not parts & words or parts & not_words:
        return False
    unset = 0  # bindings to None: `grid_mask = None`, then `grid_mask = ...` where a branch builds it (blind80)
    bindings = resolver.lookup(scope, expr.id) or ()
    for b in bindings:
        if b.kind == "import":
            return False
        value = b.value if b.kind in ("expr", "call") else None
        if value is None:
            continue
        if type(value) is ast.Constant and value.value is None:
            unset += 1
            continue
        if type(value) is ast.Constant or type(value) in (ast.List, ast.Tuple, ast.Dict, ast.Slice):
            return False
        node = value
        while type(node) is ast.Subscript:
            node = node.value
        if type(node) is ast.Call and _tail(node.func) in resolver.index_makers:
            return False
        if type(node) is ast.Name and name_words(node.id) & not_words:
            return False  # `mask_train = idx_train`: another name for integer positions
    return not unset or unset < len(bindings)  # a name only ever None indexes with None, which adds an axis


def tail_of(func: ast.expr) -> str | None:
    """The last name of a callee (`torch.cumsum` -> cumsum, `x.cumsum` -> cumsum)."""
    return _tail(func)


def name_words(name: str) -> frozenset:
    """`input_mask` -> {input, mask}; `validMask2` -> {valid, mask}: snake and camel case, digits dropped."""
    out = []
    for part in name.strip("_").split("_"):
        word = ""
        for ch in part:
            if ch.isupper() and word and not word[-1].isupper():
                out.append(word)
                word = ""
            word += ch
        out.append(word)
    return frozenset(w.lower().rstrip("0123456789") for w in out if w.rstrip("0123456789"))


def string_keyed(node: ast.Subscript) -> bool:
    """`data[~data['index'].isin(res)]`, `df[df["score"] > 0.5]`: the mask reads the indexed value itself by a string
    key, which a tensor never takes: the value is a pandas DataFrame (or a mapping), filtered on the host. Also
    (branch prec34b) a selection through pandas' label and position indexers (`df.loc[rows, cols]`, `df.iloc[m]`),
    which a tensor does not have, and a mask comparing with a string literal (`Y_df[Y_df.ds <= "1959-12-31"]`), which
    a tensor cannot: the values compared are strings or dates of a DataFrame or a NumPy array on the host."""
    if type(node.value) is ast.Attribute and node.value.attr in ("loc", "iloc"):
        return True
    base = dotted(node.value)
    for n in walk(node.slice):
        if type(n) is ast.Compare and any(type(c) is ast.Constant and isinstance(c.value, str)
                                          for c in [n.left, *n.comparators]):
            return True
        if base and type(n) is ast.Subscript and type(n.slice) is ast.Constant and isinstance(n.slice.value, str) \
                and dotted(n.value) == base:
            return True
    return False
