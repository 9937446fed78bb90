"""opt-in-switch: a CUDA-only feature used only when the user turns on a switch named for it."""
from __future__ import annotations

import ast
import re

from .base import parent_of, predicate
from ..astwalk import walk

# Words of a switch name, split on underscores and camel case with digits kept (`fp8_vl` -> fp8, vl;
# `load_in_8bit` -> load, in, 8bit; `enableXformers` -> enable, xformers).
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _words(name: str) -> set:
    return {w.lower() for part in name.split("_") for w in _WORD.findall(part)}


def _switch_name(e) -> str | None:
    """`args.xformers`, `use_fp8`, `cfg["use_bnb"]`, `getattr(args, "fp8_vl", False)`, `cfg.get("use_xformers")`,
    `os.getenv("USE_BNB")`: a named switch read for its truth; None for anything else (a comparison, another call,
    a getter whose default is on or unknown: the feature is then the default path)."""
    k = type(e)
    if k is ast.Name:
        return e.id
    if k is ast.Attribute:
        return e.attr
    if k is ast.Subscript and type(e.slice) is ast.Constant and isinstance(e.slice.value, str):
        return e.slice.value
    if k is not ast.Call or e.keywords:
        return None
    f = e.func
    if type(f) is ast.Name and f.id == "getattr":
        key, rest = e.args[1:2], e.args[2:]
    elif (type(f) is ast.Attribute and f.attr in ("get", "getenv")) or (type(f) is ast.Name and f.id == "getenv"):
        key, rest = e.args[:1], e.args[1:]
    else:
        return None
    if len(key) != 1 or type(key[0]) is not ast.Constant or not isinstance(key[0].value, str) or len(rest) > 1:
        return None
    if rest and not (type(rest[0]) is ast.Constant and not rest[0].value):
        # getattr(args, "use_flash_attn", True), os.getenv("USE_APEX", "1"): on unless the user turns it off
        return None
    return key[0].value


def _defaults_true(fn, name: str) -> bool:
    """`def f(xformers=True)`: the switch is on unless the caller turns it off, so the feature is the default."""
    if fn is None or type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return False
    a = fn.args
    pos = a.posonlyargs + a.args
    pairs = list(zip(pos[len(pos) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    return any(p.arg == name and type(d) is ast.Constant and d.value is True for p, d in pairs)


def _set_true(tree, name: str) -> bool:
    """The module (a notebook's cells, read as one) sets the name at its top level, and only ever to the literal
    True (`USE_QLORA = True` in a cell, then `if USE_QLORA:`): the switch is on as the file is written."""
    found = False
    for node in walk(tree) if tree is not None else ():
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            targets = []
        for t in targets:
            for n in walk(t):
                if type(n) is ast.Name and n.id == name:
                    value = getattr(node, "value", None)
                    if type(node) is not ast.Assign or len(node.targets) != 1 or type(t) is not ast.Name or \
                            not (type(value) is ast.Constant and value.value is True):
                        return False
                    found = found or node in tree.body
    return found


def _literal_flag(v):
    if type(v) is ast.Constant and (v.value is None or isinstance(v.value, bool)):
        return bool(v.value)
    return None


def _passes_to_base(init, name: str) -> bool:
    """`super().__init__(..., name, ...)` or `Base.__init__(self, ..., name=name)` in the constructor."""
    for n in walk(init):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "__init__" and any(
                type(a) is ast.Name and a.id == name for a in (*n.args, *(k.value for k in n.keywords))):
            return True
    return False


def _kept_default(cls, attr: str, classes: dict | None = None, depth: int = 0):
    """What `__init__` of the class keeps in `self.attr`: True or False when it is a literal or a parameter with a
    literal default (`self.use_sdpa = use_sdpa` under `use_sdpa: bool = False`; None counts as False), else None
    (not kept there, kept twice, or from anything else). A constructor that hands a parameter of that name with a
    literal default on to its base's (`super().__init__(..., use_sdpa)`, the base keeping it: wenet's attention
    subclasses) keeps that default; a class without a constructor keeps what its base in the file keeps."""
    init = next((b for b in cls.body if type(b) is ast.FunctionDef and b.name == "__init__"), None) \
        if cls is not None else None
    if init is None:
        if cls is None or depth > 3 or not classes:
            return None
        bases = [classes.get(b.id) for b in cls.bases if type(b) is ast.Name]
        found = {_kept_default(b, attr, classes, depth + 1) for b in bases if b is not None}
        return found.pop() if len(found) == 1 else None
    a = init.args
    pos = a.posonlyargs + a.args
    defaults = {p.arg: d for p, d in (*zip(pos[len(pos) - len(a.defaults):], a.defaults),
                                      *zip(a.kwonlyargs, a.kw_defaults)) if d is not None}
    kept = []
    for n in walk(init):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and any(
                type(t) is ast.Attribute and t.attr == attr and type(t.value) is ast.Name and t.value.id == "self"
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
            kept.append(n.value)
    if not kept and attr in defaults and _passes_to_base(init, attr):
        return _literal_flag(defaults[attr])
    if len(kept) != 1 or kept[0] is None:
        return None
    v = kept[0]
    if type(v) is ast.Name and v.id in defaults:
        v = defaults[v.id]
    return _literal_flag(v)


def _switch(test, words: frozenset, fn, tree=None, cls=None, known_off: bool = False,
            classes: dict | None = None) -> str | None:
    """The switch of an `if` test that turns the feature on: the test itself or one operand of an `and`. A
    `self.attr` switch that the class's `__init__` keeps on by default is none; for a category that needs to know
    the default (`known_off`: attention masks, whose fast path is often the default one), only a switch the class
    keeps off by default is."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for e in parts:
        name = _switch_name(e)
        if name and _words(name) & words and not (type(e) is ast.Name and (
                _defaults_true(fn, name) or fn is None and _set_true(tree, name))):
            if type(e) is ast.Attribute and type(e.value) is ast.Name and e.value.id == "self":
                kept = _kept_default(cls, e.attr, classes)
                if kept is True or known_off and kept is None:
                    continue
            elif known_off:
                continue
            return ast.unparse(e)
    return None


def _classes(ctx) -> dict:
    """The module-level classes of the file by name (the bases a switch's default is looked up in)."""
    return ctx.fact("opt-in-switch:classes", lambda c: {n.name: n for n in getattr(c.tree, "body", ())
                                                        if type(n) is ast.ClassDef})


def _negated(test):
    """The operand of `if not x:`, whose `else` arm runs when x is on."""
    return test.operand if type(test) is ast.UnaryOp and type(test.op) is ast.Not else None


@predicate("opt-in-switch", effect="advisory",
           note="(opt-in: only when `{held}` is set; the default path does not use it)")
def opt_in_switch(ctx, hit) -> bool | str:
    """A match of a category in `opt-in-categories` (CUDA-only libraries, FP8, custom kernels) in the body of an
    `if` (or the first arm of `x if c else y`) whose test is a switch named for the feature: a flag, attribute,
    config key, `getattr(args, "...")`, `cfg.get("...")` or `os.getenv("...")` holding a word of `opt-in-words`
    (`if args.xformers:`, `elif args.fp8:`, `torch.float8_e4m3fn if args.fp8_vl else torch.bfloat16`, `if
    self.use_bnb and ...:`). The user asks for the feature; without the switch the program takes its default path,
    which does not need it. The finding stays, as an advisory of medium confidence naming the switch: leave it off
    on Trainium. A switch that is on by default is no opt-in: not a parameter whose default is True, nor a getter
    whose default is truthy or not a constant (`getattr(args, "use_flash_attn", True)`, `os.getenv("USE_APEX",
    "1")`), nor a module-level name the file sets to True and nothing else (`USE_QLORA = True` in a notebook cell,
    then `if USE_QLORA:` at the top level). Nor comparisons (`attn_mode == "xformers"` may be the configured
    default, `os.getenv("FLASH_ATTEN", "1") == "1"` is), or availability checks (`neuron-guarded` and the
    optional-import rule treat those)."""
    category = hit.rule.category
    if category not in ctx.fact("opt-in-switch:categories", lambda c: frozenset(c.values.get("opt-in-categories", ()))):
        return False
    words = ctx.fact("opt-in-switch:words", lambda c: frozenset(w.lower() for w in c.values.get("opt-in-words", ())))
    known_off = category in ctx.fact("opt-in-switch:known-off", lambda c: frozenset(
        c.values.get("opt-in-known-off-categories", ())))
    def enclosing(node):
        fn = node
        while fn is not None and not isinstance(fn, _DEFS):
            fn = parent_of(ctx, fn)
        cls = parent_of(ctx, fn) if type(fn) is ast.FunctionDef else None
        return fn, cls if type(cls) is ast.ClassDef else None

    child, p = hit.node, parent_of(ctx, hit.node)
    while p is not None:
        if type(p) in (ast.If, ast.IfExp):
            on = child in p.body if type(p) is ast.If else child is p.body
            # `if not self.use_sdpa: <default path> else: <the feature>`
            off = _negated(p.test) if (child in p.orelse if type(p) is ast.If else child is p.orelse) else None
            if on or off is not None:
                fn, cls = enclosing(p)
                found = _switch(p.test if on else off, words, fn, ctx.tree, cls, known_off, _classes(ctx))
                if found:
                    return found
        # `if not self.use_sdpa: return <default path>` before the statement: it runs only with the switch on
        for block in (getattr(p, "body", None), getattr(p, "orelse", None)):
            if type(block) is list and child in block:
                for st in block[:block.index(child)]:
                    off = _negated(st.test) if type(st) is ast.If and not st.orelse else None
                    if off is not None and st.body and type(st.body[-1]) in (ast.Return, ast.Raise):
                        fn, cls = enclosing(st)
                        found = _switch(off, words, fn, ctx.tree, cls, known_off, _classes(ctx))
                        if found:
                            return found
        if isinstance(p, _DEFS):
            break
        child, p = p, parent_of(ctx, p)
    return False
