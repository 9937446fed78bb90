"""Local evidence that a value is a boolean mask or a torch tensor (docs/values.md).

Used by the `subscript = ["boolean-mask"]` matcher kind (`x[mask]`) and by the tensor-receiver
context predicates. Only what the same function (or module) shows counts: a comparison, `~m`,
isfinite/isnan & co, `.bool()`, a `dtype=torch.bool` tensor, or a name bound to one of those.
A value made by a library listed in [methods] not-on (NumPy, pandas...) is never a torch mask.
"""
from __future__ import annotations

import ast

from .index import Scope, _tail

_MASK_CALLS = frozenset({"isfinite", "isnan", "isinf", "isneginf", "isposinf", "isreal", "logical_and",
                         "logical_or", "logical_not", "logical_xor", "eq", "ne", "gt", "lt", "ge", "le",
                         "greater", "less", "greater_equal", "less_equal", "not_equal", "isin", "bool"})
# Methods that keep a mask a mask (`mask[:, k].contiguous().view(-1)`), and reductions over a dimension that
# turn a mask into a smaller mask (`(idx == e).any(dim=-1)`).
_MASK_KEEPING = frozenset({"view", "reshape", "contiguous", "flatten", "squeeze", "unsqueeze", "expand", "expand_as",
                           "transpose", "permute", "t", "detach", "clone", "any", "all"})
_NOT_MASK_CMP = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_BOOL_DTYPES = frozenset({"torch.bool"})
_MAX_DEPTH = 4


def is_mask(expr: ast.expr, scope: Scope, resolver, depth: int = 0, negated: dict | None = None) -> bool:
    """True when the index expression is, by local evidence, a boolean tensor. `negated`: id(scope) -> names
    written `~name` in that scope (a name negated elsewhere in the function is used as a mask there too)."""
    if depth > _MAX_DEPTH:
        return False
    t = type(expr)
    if t is ast.Compare:
        if any(isinstance(op, _NOT_MASK_CMP) for op in expr.ops):
            return False
        # `x[i == 0]` on Python values is an int/bool index; a mask needs a non-literal operand
        return not all(type(o) is ast.Constant for o in (expr.left, *expr.comparators))
    if t is ast.UnaryOp:
        if type(expr.op) is ast.Invert:  # ~m: bitwise not, on an index it is a negated mask
            return type(expr.operand) in (ast.Name, ast.Attribute, ast.Call, ast.Compare, ast.BinOp)
        return False
    if t is ast.BinOp and type(expr.op) in (ast.BitAnd, ast.BitOr, ast.BitXor):
        return (is_mask(expr.left, scope, resolver, depth + 1, negated)
                or is_mask(expr.right, scope, resolver, depth + 1, negated))
    if t is ast.Call:
        tail = _tail(expr.func)
        if tail in _MASK_CALLS:
            return True
        if tail in _MASK_KEEPING and type(expr.func) is ast.Attribute:
            if tail in ("any", "all") and not expr.args and not expr.keywords:
                return False  # `m.any()` is one truth value, not a mask to index with
            return is_mask(expr.func.value, scope, resolver, depth + 1)
        for kw in expr.keywords:
            if kw.arg == "dtype" and _names_bool(kw.value, scope, resolver):
                return True
        if tail == "to" and expr.args and _names_bool(expr.args[0], scope, resolver):
            return True
        return False
    if t is ast.Subscript and type(expr.slice) in (ast.Tuple, ast.Slice):  # mask[:, k]: a slice of a mask
        return is_mask(expr.value, scope, resolver, depth + 1)
    if t is ast.Name:
        if negated and expr.id in negated.get(id(scope), ()):
            return True  # `h, mask = to_dense_batch(x)` ... `~mask` ... `h[mask]`
        bindings = resolver.lookup(scope, expr.id)
        if not bindings:
            return False
        return any(b.kind in ("expr", "call") and isinstance(b.value, ast.expr)
                   and is_mask(b.value, b.scope, resolver, depth + 1) for b in bindings)
    return False


def _names_bool(expr: ast.expr, scope: Scope, resolver) -> bool:
    return any(resolver.canonical(q) in _BOOL_DTYPES for q in resolver.qualnames(expr, scope))


def foreign(expr: ast.expr, scope: Scope, resolver, not_on) -> bool:
    """True when the value was made by one of the `not_on` libraries (np.isnan(a), arr = np.load(f))."""
    for origin in resolver.origins(expr, scope):
        origin = resolver.canonical(origin)
        if any(origin == lib or origin.startswith(lib + ".") for lib in not_on):
            return True
    return False


_CAST_METHODS = frozenset({"long", "int", "short", "bool", "half", "bfloat16"})


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


# Calls whose result is a tensor of integer positions, never a mask: a name bound to one is not read as a mask
# whatever it is called (`keep = torch.argsort(s)[:k]`).
_INDEX_MAKERS = frozenset({"arange", "randperm", "argsort", "nonzero", "argwhere", "topk", "multinomial", "randint",
                           "long", "int", "tolist", "item", "where", "unique", "searchsorted", "bucketize", "argmax",
                           "argmin", "range", "len"})
INDEX_MAKERS = _INDEX_MAKERS  # read by context/index_argument.py


def named_mask(expr: ast.expr, scope: Scope, resolver, words: frozenset, not_words: frozenset) -> bool:
    """True when the index is a plain name that says it is a mask (`mask_k`, `input_mask`, `keep`: one of its
    words is in `words` and none in `not_words`, e.g. `mask_idx`) and no assignment in reach binds it to integer
    positions or a value of another kind. The name is the only evidence, so the matcher using it says so."""
    if type(expr) is not ast.Name:
        return False
    parts = name_words(expr.id)
    if not parts & words or parts & not_words:
        return False
    for b in resolver.lookup(scope, expr.id) or ():
        if b.kind == "import":
            return False
        value = b.value if b.kind in ("expr", "call") else None
        if value is None:
            continue
        if type(value) is ast.Constant or type(value) in (ast.List, ast.Tuple, ast.Dict, ast.Slice):
            return False
        node = value
        while type(node) is ast.Subscript:
            node = node.value
        if type(node) is ast.Call and _tail(node.func) in _INDEX_MAKERS:
            return False
        if type(node) is ast.Name and name_words(node.id) & not_words:
            return False  # `mask_train = idx_train`: another name for integer positions
    return True


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
