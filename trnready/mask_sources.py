"""Where a mask handed down through the project's own blocks comes from, inside one file.

A DETR-style model builds its padding mask in the top module (`seq_mask = torch.cat(...)`) and passes it down
through blocks of the same file: `self.encoder(src, src_key_padding_mask=seq_mask)` reaches
`TransformerEncoder.forward`, whose loop `for layer in self.layers: layer(..., src_key_padding_mask=...)` calls
each layer (`self.layers = _get_clones(encoder_layer, n)` of a layer built in the model's `__init__`, or
`self.layers.append(Layer(...))` into a ModuleList, Mask2Former's decoder), whose
`forward` hands it to `forward_post`, which gives it to `nn.MultiheadAttention` as `key_padding_mask`. The
finding is that attention call; the argument where the mask enters the chain (`seq_mask` in the top module's
call) is the line a porter reads to see which mask it is, so it is listed among the finding's places.

Walked upwards from a mask argument that is a parameter of the enclosing function: a call of that method
through `self` from another method of its class, and, for `forward`, a call of an instance of its class kept on
`self` by a class of the file (directly, in a container, as a copy, or through a constructor parameter that a
construction in the file fills with such an instance). A caller passing its own parameter goes on up; one passing
None, or leaving a None default, adds nothing; one passing anything else is a place. Calls from other files are
not seen (the link step's business), and nothing here drops or guards a finding: places only add.

A mask the method builds itself and binds once (`key_padding_mask = ~valid`, then `self.encoder(x,
src_key_padding_mask=key_padding_mask)`) is listed too, by its statement (match.py, `_mask_built_here`).
"""
from __future__ import annotations

import ast
import bisect

from .astwalk import walk

MAX_DEPTH = 6
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
# calls that hand back the module they are given, or copies of it, or a container of those
_KEEPERS = frozenset({"ModuleList", "Sequential", "deepcopy", "list", "tuple"})


def mask_sources(ctx, call: ast.Call, arg: ast.expr) -> tuple:
    """The arguments of calls in this file where the mask `arg` (a parameter name at `call`) enters the chain."""
    if type(arg) is not ast.Name:
        return ()
    facts = ctx.fact("mask_sources", _facts)
    fn = facts.enclosing(call.lineno)
    if fn is None:
        return ()
    out: list = []
    _up(facts, fn, arg.id, out, set(), 0)
    return tuple(dict.fromkeys(out))


class _Facts:
    def __init__(self, tree) -> None:
        self.classes: dict = {}  # module-level class name -> ClassDef
        self.owner: dict = {}  # id(def) -> class name of a method
        spans: list = []
        for st in getattr(tree, "body", ()):
            if type(st) is ast.ClassDef:
                self.classes[st.name] = st
                for m in st.body:
                    if type(m) in _FUNCS:
                        self.owner[id(m)] = st.name
                        spans.append((m.lineno, m.end_lineno or m.lineno, m))
            elif type(st) in _FUNCS:
                spans.append((st.lineno, st.end_lineno or st.lineno, st))
        spans.sort(key=lambda s: s[0])
        self.spans = spans
        self.starts = [s[0] for s in spans]
        self._calls: dict = {}  # id(def) -> its calls
        self._holders: dict = {}  # class name -> [(holder class, attribute)]

    def enclosing(self, line: int):
        i = bisect.bisect_right(self.starts, line) - 1
        return self.spans[i][2] if i >= 0 and line <= self.spans[i][1] else None

    def calls_in(self, fn) -> list:
        got = self._calls.get(id(fn))
        if got is None:
            got = self._calls[id(fn)] = [n for n in walk(fn) if type(n) is ast.Call]
        return got

    def methods(self, cls: str) -> list:
        c = self.classes.get(cls)
        return [m for m in c.body if type(m) in _FUNCS] if c is not None else []

    def holders(self, cls: str, depth: int = 0) -> list:
        """(class, attribute) pairs keeping instances of `cls` on self."""
        got = self._holders.get(cls)
        if got is not None:
            return got
        self._holders[cls] = []  # (a cycle answers nothing)
        out = []
        for name in self.classes:
            for m in self.methods(name):
                me = _self_name(m)
                for st in walk(m):
                    if type(st) is ast.Assign and len(st.targets) == 1:
                        attr = _self_attr(st.targets[0], me)
                        if attr and self._yields(st.value, cls, m, name, depth):
                            out.append((name, attr))
                    elif type(st) is ast.Call and type(st.func) is ast.Attribute \
                            and st.func.attr in ("append", "extend", "insert") and st.args:
                        # `self.layers = nn.ModuleList()` then `self.layers.append(Layer(...))` in a loop
                        attr = _self_attr(st.func.value, me)
                        if attr and self._yields(st.args[-1], cls, m, name, depth):
                            out.append((name, attr))
        self._holders[cls] = out = list(dict.fromkeys(out))
        return out

    def _yields(self, v, cls: str, fn, owner: str, depth: int) -> bool:
        """Does the value hold instances of `cls` (a construction, a container or copy of one, a local bound to
        one, or a parameter of `owner.__init__` some construction of `owner` fills with one)?"""
        if depth > MAX_DEPTH:
            return False
        t = type(v)
        if t is ast.Call:
            f = v.func
            name = f.id if type(f) is ast.Name else f.attr if type(f) is ast.Attribute else ""
            if name == cls:
                return True
            if name in _KEEPERS or "clone" in name.lower():
                return any(self._yields(a, cls, fn, owner, depth + 1) for a in v.args)
            return False
        if t in (ast.List, ast.Tuple):
            return any(self._yields(e, cls, fn, owner, depth + 1) for e in v.elts)
        if t in (ast.ListComp, ast.GeneratorExp):
            return self._yields(v.elt, cls, fn, owner, depth + 1)
        if t is ast.Starred:
            return self._yields(v.value, cls, fn, owner, depth + 1)
        if t is not ast.Name:
            return False
        params = _params(fn)
        if v.id in params:
            if fn.name != "__init__":
                return False
            i = params.index(v.id)
            for maker in self.classes:
                for m in self.methods(maker):
                    for c in self.calls_in(m):
                        if type(c.func) is ast.Name and c.func.id == owner:
                            a = _argument(c, v.id, i - 1)
                            if a is not None and self._yields(a, cls, m, maker, depth + 1):
                                return True
            return False
        for st in walk(fn):
            if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == v.id for t in st.targets) \
                    and self._yields(st.value, cls, fn, owner, depth + 1):
                return True
        return False


def _facts(ctx) -> _Facts:
    return _Facts(ctx.tree)


def _up(facts: _Facts, fn, param: str, out: list, seen: set, depth: int) -> None:
    if depth > MAX_DEPTH or (id(fn), param) in seen:
        return
    seen.add((id(fn), param))
    params = _params(fn)
    if param not in params:
        return
    cls = facts.owner.get(id(fn))
    if cls is None:
        return  # module-level functions: the link step's wrappers follow their callers
    index = params.index(param) - 1  # its position at a bound call (the instance is not passed)
    sites: list = []  # (call, enclosing def)
    for m in facts.methods(cls):
        me = _self_name(m)
        for c in facts.calls_in(m):
            if type(c.func) is ast.Attribute and c.func.attr == fn.name and type(c.func.value) is ast.Name \
                    and c.func.value.id == me:
                sites.append((c, m))
    if fn.name == "forward":
        for holder, attr in facts.holders(cls):
            for m in facts.methods(holder):
                me = _self_name(m)
                loops = {st.target.id for st in walk(m) if isinstance(st, (ast.For, ast.AsyncFor))
                         and type(st.target) is ast.Name and _self_attr(st.iter, me) == attr}
                for c in facts.calls_in(m):
                    f = c.func
                    if _self_attr(f, me) == attr or type(f) is ast.Subscript and _self_attr(f.value, me) == attr \
                            or type(f) is ast.Name and f.id in loops:
                        sites.append((c, m))
    for c, m in sites:
        a = _argument(c, param, index)
        if a is None:
            continue  # the default: None adds nothing, another value is the function's own, written there
        if type(a) is ast.Constant and a.value is None:
            continue
        if type(a) is ast.Name and a.id in _params(m):
            _up(facts, m, a.id, out, seen, depth + 1)
            continue
        out.append(a)


def _argument(call: ast.Call, name: str, index: int):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if 0 <= index < len(call.args) and not any(type(a) is ast.Starred for a in call.args[:index + 1]):
        return call.args[index]
    return None


def _params(fn) -> list:
    a = fn.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]


def _self_name(fn) -> str:
    return fn.args.args[0].arg if fn.args.args else ""


def _self_attr(node, me: str) -> str | None:
    """`attr` of `self.attr`, else None."""
    if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == me:
        return node.attr
    return None
