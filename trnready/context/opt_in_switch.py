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


def _switch(test, words: frozenset, fn, tree=None) -> str | None:
    """The switch of an `if` test that turns the feature on: the test itself or one operand of an `and`."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for e in parts:
        name = _switch_name(e)
        if name and _words(name) & words and not (type(e) is ast.Name and (
                _defaults_true(fn, name) or fn is None and _set_true(tree, name))):
            return ast.unparse(e)
    return None


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
    child, p = hit.node, parent_of(ctx, hit.node)
    while p is not None and not isinstance(p, _DEFS):
        if (type(p) is ast.If and child in p.body) or (type(p) is ast.IfExp and child is p.body):
            fn = p
            while fn is not None and not isinstance(fn, _DEFS):
                fn = parent_of(ctx, fn)
            found = _switch(p.test, words, fn, ctx.tree)
            if found:
                return found
        child, p = p, parent_of(ctx, p)
    return False
