"""causal-built-mask: an attention mask the file builds as a plain causal mask (and its complement).

A mask that is exactly causal over the full length is supported natively once the call says so
(is_causal=True); the work is then a one-line change, not the redesign a padding or custom mask needs. The
evidence must be local: the mask's construction is followed through names, attributes of the same class
(assigned, registered as a buffer, or taken from a constructor argument at the class's call sites in the
file), and methods or module functions of the file that return it. Anything not followed (a parameter of an
ordinary function, an unknown call, arithmetic, slicing, a write into the mask) is not causal."""
from __future__ import annotations

import ast

from ..masks import tail_of
from .base import argument_of, dotted, predicate

# Abstract values of the tensors followed. CAUSAL_F: -inf strictly above the diagonal, 0 elsewhere (additive).
# CAUSAL_B: True strictly above the diagonal (nn.MultiheadAttention's convention: True = masked out).
# CAUSAL_KEEP: True on and below the diagonal (scaled_dot_product_attention's convention: True = takes part).
NONE, NEUTRAL, EMPTY, NEGINF, TRUE, ONES, UPPER_ONES = "none", "neutral", "empty", "neginf", "true", "ones", "upper1"
LOWER_ONES = "lower1"
CAUSAL_F, CAUSAL_B, CAUSAL_KEEP = "causal-float", "causal-bool", "causal-keep"
NEUTRAL_F = "neutral-float"  # NEUTRAL after a dtype change: fine for a float mask only
_MAX_DEPTH = 8
_UNSET = object()
_KEEPS = frozenset({"to", "cuda", "detach", "clone", "contiguous", "type_as", "requires_grad_"})
_FLOAT_CASTS = frozenset({"float", "half", "bfloat16", "double"})


def _float_of(e, words) -> bool:
    """`float("inf")` with the text one of `words`."""
    if not (type(e) is ast.Call and type(e.func) is ast.Name and e.func.id == "float" and len(e.args) == 1):
        return False
    a = e.args[0]
    return type(a) is ast.Constant and isinstance(a.value, str) and a.value.strip().lower() in words


def _is_neg_inf(e) -> bool:
    """`float("-inf")`, `-float("inf")`, `-math.inf`, `-torch.inf`, `-np.inf`, `torch.finfo(t).min`."""
    t = type(e)
    if t is ast.Call:
        return _float_of(e, ("-inf", "-infinity"))
    if t is ast.UnaryOp and type(e.op) is ast.USub:
        o = e.operand
        return _float_of(o, ("inf", "infinity")) or (type(o) is ast.Attribute and o.attr == "inf")
    if t is ast.Attribute and e.attr == "min" and type(e.value) is ast.Call:
        return tail_of(e.value.func) == "finfo"
    return False


def _names_bool(e) -> bool:
    return (type(e) is ast.Name and e.id == "bool") or (type(e) is ast.Attribute and e.attr == "bool")


def _square(shape) -> bool:
    """Two equal size expressions: `(n, n)` or the arguments `n, n`."""
    if len(shape) == 1 and type(shape[0]) in (ast.Tuple, ast.List):
        shape = shape[0].elts
    return len(shape) == 2 and ast.dump(shape[0]) == ast.dump(shape[1])


def _diagonal_one(call, position) -> bool:
    d = next((kw.value for kw in call.keywords if kw.arg == "diagonal"),
             call.args[position] if len(call.args) > position else None)
    return type(d) is ast.Constant and d.value == 1 and type(d.value) is int


def _triu(inner):
    return {NEGINF: CAUSAL_F, TRUE: CAUSAL_B, ONES: UPPER_ONES}.get(inner)


def _diagonal_zero(call, position) -> bool:
    """No diagonal given, or 0: the main diagonal stays (a token attends to itself)."""
    d = next((kw.value for kw in call.keywords if kw.arg == "diagonal"),
             call.args[position] if len(call.args) > position else None)
    return d is None or (type(d) is ast.Constant and d.value == 0 and type(d.value) is int)


def _tril(inner):
    return {TRUE: CAUSAL_KEEP, ONES: LOWER_ONES}.get(inner)


class _Where:
    __slots__ = ("func", "cls")

    def __init__(self, func, cls):
        self.func, self.cls = func, cls


class _Eval:
    def __init__(self, ctx):
        self.ctx = ctx
        self.visiting: set = set()

    # -- places ------------------------------------------------------------------------------------------
    def where(self, node) -> _Where:
        func = cls = None
        p = self.ctx.parent(node)
        while p is not None:
            t = type(p)
            if func is None and t in (ast.FunctionDef, ast.AsyncFunctionDef):
                func = p
            elif t is ast.ClassDef:
                cls = p
                break
            elif t is ast.Lambda:
                return _Where(None, None)
            p = self.ctx.parent(p)
        if func is not None and cls is not None and self.ctx.parent(func) is not cls:
            cls = None  # a def nested in a method: `self` there is not the class's instance for sure
        return _Where(func, cls)

    def module_def(self, name):
        for st in self.ctx.tree.body:
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef) and st.name == name:
                return st
        return None

    @staticmethod
    def method(cls, name):
        for st in cls.body:
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef) and st.name == name:
                return st
        return None

    # -- values ------------------------------------------------------------------------------------------
    def value(self, e, where: _Where, depth: int = 0):
        if depth > _MAX_DEPTH:
            return None
        t = type(e)
        if t is ast.Constant:
            return NONE if e.value is None else None
        if t is ast.IfExp:
            return _join([self.value(e.body, where, depth + 1), self.value(e.orelse, where, depth + 1)])
        if t is ast.Call:
            return self.call(e, where, depth)
        if t is ast.Name:
            return self.name(e.id, e, where, depth)
        if t is ast.Attribute and type(e.value) is ast.Name and e.value.id == "self" and where.cls is not None:
            return self.attribute(where.cls, e.attr, depth)
        return None

    def call(self, e, where, depth):
        f = e.func
        tail = tail_of(f)
        module_form = type(f) is ast.Attribute and dotted(f.value) == "torch"
        if tail == "generate_square_subsequent_mask":
            own = self.module_def(tail) if type(f) is ast.Name else None
            if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id == "self" and where.cls:
                own = self.method(where.cls, tail)
            if own is None and (type(f) is ast.Name or not self.defines(tail)):
                return CAUSAL_F
            return self.returns(own, where.cls if own is not None and type(f) is ast.Attribute else None, depth) \
                if own is not None else None
        if tail in ("full", "new_full") and (module_form or tail == "new_full"):
            shape = e.args[:1] if tail == "full" else e.args[:1]
            fill = next((kw.value for kw in e.keywords if kw.arg == "fill_value"),
                        e.args[1] if len(e.args) > 1 else None)
            if not _square(shape) or fill is None:
                return None
            if _is_neg_inf(fill):
                return NEGINF
            if type(fill) is ast.Constant and fill.value is True:
                return TRUE
            return None
        if tail in ("empty", "ones") and module_form:
            if not _square(e.args):
                return None
            if tail == "empty":
                return EMPTY
            return TRUE if any(kw.arg == "dtype" and _names_bool(kw.value) for kw in e.keywords) else ONES
        if tail == "triu" and module_form and e.args:
            return _triu(self.value(e.args[0], where, depth + 1)) if _diagonal_one(e, 1) else None
        if tail == "tril" and module_form and e.args:
            return _tril(self.value(e.args[0], where, depth + 1)) if _diagonal_zero(e, 1) else None
        if type(f) is ast.Attribute and not module_form:
            if type(f.value) is ast.Name and f.value.id == "self" and where.cls is not None:
                own = self.method(where.cls, f.attr)
                if own is not None:
                    return self.returns(own, where.cls, depth)
            inner = self.value(f.value, where, depth + 1)
            return _apply(f.attr, e, inner)
        if type(f) is ast.Name:
            own = self.module_def(f.id)
            if own is not None:
                return self.returns(own, None, depth)
        return None

    def defines(self, name) -> bool:
        return any(n.name == name for n in self.ctx.nodes(ast.FunctionDef))

    def returns(self, func, cls, depth):
        key = ("def", id(func))
        if key in self.visiting:
            return None
        self.visiting.add(key)
        try:
            found = [self.value(r.value, _Where(func, cls), depth + 1) if r.value is not None else NONE
                     for r in _own_nodes(func, ast.Return)]
        finally:
            self.visiting.discard(key)
        return _join(found) if found else None

    def name(self, name, use, where, depth):
        scope = where.func
        body = scope if scope is not None else self.ctx.tree
        line = use.lineno
        events = [n for n in _own_nodes(body, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.For,
                                               ast.With, ast.Delete, ast.NamedExpr))
                  if n.lineno < line]
        state = None
        bound = False
        if scope is not None:
            params = scope.args
            every = params.posonlyargs + params.args + params.kwonlyargs
            if any(a.arg == name for a in every) or (params.vararg and params.vararg.arg == name) \
                    or (params.kwarg and params.kwarg.arg == name):
                state = self.constructor_argument(name, scope, where, depth)
                bound = True
        # A statement directly in the body always runs; one inside an if/for/try may not, so the value after
        # it is either the one before or the new one (`if mask is None: mask = causal(n)` keeps the caller's).
        direct = {id(st) for st in body.body}
        for ev in sorted(events, key=lambda n: (n.lineno, n.col_offset)):
            t = type(ev)
            new = _UNSET
            if t is ast.Assign:
                if len(ev.targets) == 1 and type(ev.targets[0]) is ast.Name and ev.targets[0].id == name:
                    new = self.rebind(name, state, ev.value, where, depth)
                elif _stores(ev.targets, name):
                    return None
            elif t is ast.AnnAssign:
                if type(ev.target) is ast.Name and ev.target.id == name:
                    if ev.value is None:
                        continue
                    new = self.rebind(name, state, ev.value, where, depth)
                elif _stores([ev.target], name):
                    return None
            elif t is ast.Expr:
                c = ev.value
                if type(c) is ast.Call and type(c.func) is ast.Attribute and type(c.func.value) is ast.Name \
                        and c.func.value.id == name and c.func.attr.endswith("_"):
                    new = _apply(c.func.attr, c, state)
            elif t is ast.For:
                if _stores([ev.target], name):
                    return None
            elif t is ast.With:
                if _stores([i.optional_vars for i in ev.items if i.optional_vars is not None], name):
                    return None
            elif _stores([getattr(ev, "target", None)] + list(getattr(ev, "targets", [])), name):
                return None
            if new is not _UNSET:
                state = new if id(ev) in direct or not bound else _join([state, new])
                bound = True
        if not bound:
            if scope is not None:  # a name of an outer scope: the module's, never guessed further
                return self.name(name, use, _Where(None, None), depth + 1) if _module_binds(self.ctx, name) else None
            return None
        return state

    def rebind(self, name, state, value, where, depth):
        # `mask = mask.to(x)`: the name on the right is the state so far
        if type(value) is ast.Name and value.id == name:
            return state
        if type(value) is ast.Call and type(value.func) is ast.Attribute and type(value.func.value) is ast.Name \
                and value.func.value.id == name:
            return _apply(value.func.attr, value, state)
        if type(value) is ast.IfExp:
            return _join([self.rebind(name, state, value.body, where, depth),
                          self.rebind(name, state, value.orelse, where, depth)])
        return self.value(value, where, depth + 1)

    def constructor_argument(self, name, func, where, depth):
        """A parameter of `__init__`: what every call site of the class in the file passes (or the default)."""
        cls = where.cls
        if cls is None or func.name != "__init__":
            return None
        key = ("ctor", id(cls), name)
        if key in self.visiting:
            return None
        params = func.args
        positional = (params.posonlyargs + params.args)[1:]
        names = [a.arg for a in positional]
        default = None
        if name in names:
            i = names.index(name)
            d = params.defaults
            k = i - (len(positional) - len(d))
            default = d[k] if k >= 0 else None
            position = i
        else:
            position = None
            kw = [a.arg for a in params.kwonlyargs]
            if name not in kw:
                return None
            default = params.kw_defaults[kw.index(name)]
        if any(cls.name in {tail_of(b) for b in c.bases} for c in self.ctx.nodes(ast.ClassDef)):
            return None  # a subclass may pass anything through super().__init__
        sites = [c for c in self.ctx.calls() if tail_of(c.func) == cls.name
                 and (type(c.func) is ast.Name or (type(c.func) is ast.Attribute and dotted(c.func.value) == "self"))]
        if not sites:
            return None
        self.visiting.add(key)
        try:
            found = []
            for c in sites:
                if any(type(a) is ast.Starred for a in c.args) or any(kw.arg is None for kw in c.keywords):
                    return None
                arg = next((kw.value for kw in c.keywords if kw.arg == name),
                           c.args[position] if position is not None and len(c.args) > position else None)
                if arg is None:
                    found.append(NONE if default is None or (type(default) is ast.Constant and default.value is None)
                                 else None)
                else:
                    found.append(self.value(arg, self.where(c), depth + 1))
        finally:
            self.visiting.discard(key)
        return _join(found)

    def attribute(self, cls, attr, depth):
        key = ("attr", id(cls), attr)
        if key in self.visiting:
            return NEUTRAL  # `self.m = self.m.to(x)`: derived from the other assignments
        self.visiting.add(key)
        try:
            found = []
            for func in cls.body:
                if type(func) not in (ast.FunctionDef, ast.AsyncFunctionDef):
                    continue
                w = _Where(func, cls)
                for n in _own_nodes(func, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                    t = type(n)
                    targets = n.targets if t is ast.Assign else [n.target] if t is not ast.Expr else []
                    if any(_self_attr(tg, attr) for tg in targets):
                        if t is ast.AugAssign or len(targets) != 1 or n.value is None:
                            return None
                        found.append(self.value(n.value, w, depth + 1))
                    elif any(type(tg) is ast.Subscript and _self_attr(tg.value, attr) for tg in targets):
                        return None
                    elif t is ast.Expr and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute):
                        c = n.value
                        f = c.func
                        assert isinstance(f, ast.Attribute)
                        if f.attr == "register_buffer" and dotted(f.value) == "self" and c.args \
                                and type(c.args[0]) is ast.Constant and c.args[0].value == attr:
                            v = next((kw.value for kw in c.keywords if kw.arg == "tensor"),
                                     c.args[1] if len(c.args) > 1 else None)
                            found.append(self.value(v, w, depth + 1) if v is not None else None)
                        elif _self_attr(f.value, attr) and f.attr.endswith("_"):
                            return None  # written in place
            return _join(found) if found else None
        finally:
            self.visiting.discard(key)


def _self_attr(e, attr) -> bool:
    return type(e) is ast.Attribute and e.attr == attr and type(e.value) is ast.Name and e.value.id == "self"


def _stores(targets, name) -> bool:
    for t in targets:
        if t is None:
            continue
        for n in ast.walk(t):
            if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store:
                return True
            if type(n) is ast.Subscript and type(n.value) is ast.Name and n.value.id == name:
                return True
    return False


def _module_binds(ctx, name) -> bool:
    return any(type(st) in (ast.Assign, ast.AnnAssign) and _stores(getattr(st, "targets", None) or [st.target], name)
               for st in ctx.tree.body)


def _own_nodes(body, kinds):
    """The nodes of those kinds in a def (or the module's top level), not inside nested defs, classes or lambdas."""
    out = []
    stack = list(body.body) if hasattr(body, "body") else []
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            out.append(n)
        for child in ast.iter_child_nodes(n):
            if type(child) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
                continue
            stack.append(child)
    return out


def _apply(method, call, inner):
    """The value of `inner.method(...)` (or the in-place `method_`)."""
    if inner is None:
        return None
    if inner in (NEUTRAL, NEUTRAL_F):
        # the attribute being followed, derived from itself: still whatever its other assignments make it,
        # except that a dtype turns a boolean mask into 0/1 floats
        if method in _KEEPS or method in _FLOAT_CASTS:
            return NEUTRAL_F if inner == NEUTRAL_F or method in _FLOAT_CASTS or method == "type_as" \
                or any(kw.arg == "dtype" for kw in call.keywords) or call.args else NEUTRAL
        return None
    base = method[:-1] if method.endswith("_") and method not in ("requires_grad_",) else method
    if base == "fill" and len(call.args) == 1 and inner in (EMPTY, NEGINF, TRUE, ONES):
        a = call.args[0]
        if _is_neg_inf(a):
            return NEGINF
        return None
    if base == "triu":
        return _triu(inner) if _diagonal_one(call, 0) else None
    if base == "tril":
        return _tril(inner) if _diagonal_zero(call, 0) else None
    if base == "bool" and not call.args:
        return {UPPER_ONES: CAUSAL_B, CAUSAL_B: CAUSAL_B, LOWER_ONES: CAUSAL_KEEP, CAUSAL_KEEP: CAUSAL_KEEP,
                TRUE: TRUE, ONES: TRUE}.get(inner)
    if inner in (CAUSAL_F, NEGINF) and (base in _KEEPS or base in _FLOAT_CASTS):
        return inner
    if inner in (CAUSAL_B, CAUSAL_KEEP) and base in _KEEPS:
        # a dtype given to .to() turns True into 1.0: no longer the boolean mask
        if any(kw.arg == "dtype" for kw in call.keywords) or base == "type_as" or any(
                (type(a) is ast.Attribute and a.attr in ("dtype", "float", "half", "bfloat16", "float16",
                                                          "float32"))
                for a in call.args):
            return None
        return inner
    return None


def _join(values):
    """All the values a place may hold: causal when each is the same causal mask or no mask at all."""
    kinds = {v for v in values if v not in (NONE, NEUTRAL, NEUTRAL_F)}
    if None in kinds or len(kinds) > 1 or (NEUTRAL_F in values and kinds - {CAUSAL_F}):
        return None
    if not kinds:
        if NEUTRAL_F in values:
            return NEUTRAL_F
        if NEUTRAL in values:
            return NEUTRAL
        return NONE if NONE in values else None
    return kinds.pop()


def _sdpa(hit) -> bool:
    return any("scaled_dot_product_attention" in n for n in hit.matcher.names)


def _causal(ctx, hit) -> bool:
    call = hit.node
    if type(call) is not ast.Call or ctx.tree is None:
        return False
    if not (ctx.may_name("triu") or ctx.may_name("tril") or ctx.may_name("subsequent_mask")):
        return False
    key = ("causal-built-mask", id(call), id(hit.matcher))
    found = ctx.memo.get(key)
    if found is not None:
        return found
    wanted = [p for p in hit.matcher.args if p.op == "is-not-none"]
    ev = _Eval(ctx)
    where = ev.where(call)
    accepted = (CAUSAL_F, CAUSAL_KEEP) if _sdpa(hit) else (CAUSAL_F, CAUSAL_B)
    found = bool(wanted)
    for p in wanted:
        arg = argument_of(p, call)
        if arg is None or ev.value(arg, where) not in accepted:
            found = False
            break
    ctx.memo[key] = found
    return found


@predicate("causal-built-mask", kinds=("call",))
def causal_built_mask(ctx, hit) -> bool:
    """The mask argument the matcher asks for (`attn_mask`, `src_mask`, `tgt_mask`, `mask`) is built in the file
    as a plain causal mask: `-inf` strictly above the diagonal and 0 elsewhere (`torch.full((n, n),
    float("-inf")).triu(1)`, `torch.triu(..., diagonal=1)`, `torch.empty(n, n)` then `.fill_(-inf)` and
    `.triu_(1)`), `torch.ones(n, n, dtype=torch.bool).triu(1)` (True = masked out; nn.MultiheadAttention and the
    nn.Transformer family only), `torch.ones(n, n, dtype=torch.bool).tril()` or
    `torch.tril(torch.ones(n, n)).bool()` (True = takes part, main diagonal kept; scaled_dot_product_attention
    only), or `generate_square_subsequent_mask(n)` (the library's; a function of that name in the file is followed
    instead). The mask is followed through names of the function or module (applying in-place `fill_`/`triu_` in
    order), `self.<attr>` assigned or registered as a buffer in the same class, `__init__` parameters (every call
    site of the class in the file must pass such a mask or nothing), and methods or module functions of the file
    that return it; `.to(...)`, `.cuda()`, `X if c else None` keep it. Arithmetic (`mask + pad`), slicing, writes
    into the mask, a diagonal other than 1 (0 for the lower triangle), a shape not visibly square or a value from
    anywhere else make it not causal. Files without `triu`, `tril` or `subsequent_mask` are not looked at."""
    return _causal(ctx, hit)
