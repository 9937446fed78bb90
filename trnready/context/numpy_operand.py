"""numpy-operand: a mask selection or data-dependent method on a NumPy array the file declares or converts to."""
from __future__ import annotations

import ast

from .base import enclosing_function, name_globs, parent_of, predicate
from ..astwalk import walk

_MAX_DEPTH = 6
# What an annotation resolves to when it declares a NumPy array (`labels: np.ndarray`, `x: npt.NDArray[np.float32]`).
_ARRAY_TYPES = ("numpy.ndarray", "numpy.typing.NDArray")
# NumPy functions whose result is an array (never a scalar or a tensor)
_ARRAY_MAKERS = frozenset({"asarray", "array", "asanyarray", "ascontiguousarray", "zeros", "ones", "full", "empty",
                           "arange", "linspace", "stack", "concatenate", "vstack", "hstack", "where", "abs", "diff",
                           "sign", "round", "clip"})


def _callee_name(func) -> str:
    return func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else ""


def _numpy_annotation(ctx, ann) -> bool:
    if ann is None:
        return False
    if type(ann) is ast.Subscript:  # npt.NDArray[np.float32], Optional[...] is not read
        ann = ann.value
    return any(ctx.resolver.canonical(q) in _ARRAY_TYPES for q in ctx.resolver.qualnames(ann, ctx.index.module))


def _targets(target) -> list:
    if type(target) is ast.Name:
        return [target.id]
    if type(target) in (ast.Tuple, ast.List):
        return [n for e in target.elts for n in _targets(e)]
    return []


def _bound_targets(st) -> list:
    if isinstance(st, ast.Assign):
        return list(st.targets)
    if isinstance(st, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        return [st.target]
    if isinstance(st, (ast.With, ast.AsyncWith)):
        return [i.optional_vars for i in st.items if i.optional_vars is not None]
    return []


def _ancestors(ctx, node) -> set:
    out = set()
    p = parent_of(ctx, node)
    while p is not None:
        out.add(id(p))
        p = parent_of(ctx, p)
    return out


def _reaching(ctx, fn, name: str, use):
    """The statement of `fn` that last binds `name` before `use` on the way down to it (an assignment in a block
    holding the use, before it), 'param' when none does and `name` is a parameter of `fn`, else None."""
    up = _ancestors(ctx, use)
    best = None
    for st in walk(fn):
        if not isinstance(st, ast.stmt) or st.lineno >= use.lineno:
            continue
        if type(st) in (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith):
            targets = _bound_targets(st)
            if any(name in _targets(t) for t in targets):
                if best is None or st.lineno > best.lineno:
                    best = st
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)) \
                and st is not fn:
            bound = [st.name] if hasattr(st, "name") and not isinstance(st, (ast.Import, ast.ImportFrom)) else \
                [(a.asname or a.name).split(".")[0] for a in getattr(st, "names", [])]
            if name in bound and (best is None or st.lineno > best.lineno):
                best = st
    # any binding inside the expression statements of the function (walrus) makes the name unknown
    if any(type(n) is ast.NamedExpr and n.target.id == name for n in walk(fn)):
        return None
    if best is not None:
        return best if id(parent_of(ctx, best)) in up else None
    a = fn.args
    for p in a.posonlyargs + a.args + a.kwonlyargs:
        if p.arg == name:
            return p
    return None


class _Arrays:
    def __init__(self, ctx, fn):
        self.ctx, self.fn = ctx, fn
        self.converters = name_globs(ctx, "numpy-converters")

    def converted(self, value) -> bool:
        """A call of a function named as a conversion to NumPy (`to_numpy(x)`, `tensor2numpy(x)`)."""
        return type(value) is ast.Call and self.converters is not None \
            and bool(self.converters.match(_callee_name(value.func)))

    def of(self, e, depth: int = 0) -> bool:
        if depth > _MAX_DEPTH or e is None:
            return False
        k = type(e)
        if k is ast.Name:
            return self._name(e, depth)
        if k is ast.Subscript:
            return self.of(e.value, depth + 1)
        if k is ast.Compare:
            return self.of(e.left, depth + 1)
        if k is ast.BinOp and type(e.op) in (ast.BitAnd, ast.BitOr, ast.BitXor):
            return self.of(e.left, depth + 1) or self.of(e.right, depth + 1)
        if k is ast.BinOp:
            # arithmetic: an array with an array or a constant (`to_numpy(root)[..., None] * scores`); with anything
            # else the result may be a tensor
            sides = (e.left, e.right)
            return any(self.of(x, depth + 1) for x in sides) and all(
                type(x) is ast.Constant or self.of(x, depth + 1) for x in sides)
        if k is ast.UnaryOp and type(e.op) in (ast.Invert, ast.Not):
            return self.of(e.operand, depth + 1)
        if k is ast.Call:
            return self.converted(e) or self._array_made(e)
        return False

    def _array_made(self, call) -> bool:
        """`np.asarray(a)`, `np.array(...)`, `np.zeros(...)`: a NumPy function that returns an array (operands of
        arithmetic the catalogue's own NumPy test does not follow: `(np.asarray(a) - np.asarray(b)).nonzero()`);
        also any function of a library of `host-array-modules` (`morphology.dilation(...)` from scikit-image,
        `cv2.resize(...)`), which returns NumPy values only."""
        if type(call.func) is not ast.Attribute:
            return False
        names = [self.ctx.resolver.canonical(q) for q in self.ctx.resolver.qualnames(call.func, self.ctx.index.module)]
        if call.func.attr in _ARRAY_MAKERS and f"numpy.{call.func.attr}" in names:
            return True
        modules = self.ctx.values.get("host-array-modules", ())
        return any(n.startswith(m + ".") for n in names if n for m in modules)

    def _cast_by_numpy(self, param: str) -> bool:
        """The function calls NumPy's `.astype(...)` on the parameter or on a selection of it (ESPNet's IoU
        metric: `def fast_hist(self, a, b): k = (a >= 0) & (a < n)` then `np.bincount(n * a[k].astype(int) +
        b[k], ...)`): a tensor has no `astype`, so the parameter is an array wherever the function uses it. The
        parameter must not be rebound in the function (`_reaching` answered with the parameter itself)."""
        memo = self.__dict__.setdefault("_cast", {})
        if param not in memo:
            hit = False
            for n in walk(self.fn):
                if type(n) is ast.Attribute and n.attr == "astype":
                    v = n.value
                    while type(v) is ast.Subscript:
                        v = v.value
                    if type(v) is ast.Name and v.id == param:
                        hit = True
                        break
            memo[param] = hit
        return memo[param]

    def _name(self, use: ast.Name, depth: int) -> bool:
        got = _reaching(self.ctx, self.fn, use.id, use)
        if got is None:
            return False
        if type(got) is ast.arg:
            return _numpy_annotation(self.ctx, got.annotation) or self._cast_by_numpy(got.arg)
        if type(got) is ast.Assign and len(got.targets) == 1:
            if type(got.targets[0]) is ast.Name:
                return self.converted(got.value) or self.of(got.value, depth + 1)
            return self.converted(got.value)  # `a, b = to_numpy((a, b))`: every element is an array
        if type(got) is ast.AnnAssign:
            return _numpy_annotation(self.ctx, got.annotation)
        return False


@predicate("numpy-operand", kinds=("subscript", "method"))
def numpy_operand(ctx, hit) -> bool:
    """The selection works on a NumPy array, known by what the file writes where the catalogue's own NumPy test
    (values an `np.*` call or `.astype(...)` made) cannot see it: a parameter annotated as one (`labels:
    np.ndarray`, `npt.NDArray[np.float32]`), or a name bound by a function named as a conversion to NumPy (globs of
    `numpy-converters`: `keypoints, scores = to_numpy((keypoints, scores))`, `tensor2numpy(x)`), or a slice,
    comparison, bitwise combination or negation of such a value (`embeddings[labels == i]`), or arithmetic of such
    values and constants (`to_numpy(root)[..., None] * scores`), or of arrays NumPy functions made
    (`(np.asarray(a) - np.asarray(b)).nonzero()`, vmc_torch's fermion phases, fresh74). NumPy indexing runs
    on the host and compiles nothing: post-processing of predictions, clustering of embeddings, host metrics. The
    name is followed to the assignment that last binds it before the use in a block holding the use; a binding in
    another branch, a loop target, a walrus or a rebinding from anything else leaves it unknown, and the finding
    stays. For a subscript the array may be the indexed value or the mask; for a method (`.nonzero()`) its
    receiver."""
    node = hit.node
    fn = enclosing_function(ctx, node)
    if fn is None:
        return False
    arrays = _Arrays(ctx, fn)
    if type(node) is ast.Subscript:
        return arrays.of(node.value) or arrays.of(node.slice)
    if type(node) is ast.Call and type(node.func) is ast.Attribute:
        return arrays.of(node.func.value)
    return False
