"""Masks a subclass in another module hands to its base class's attention method (branch rec26w).

lit-gpt-style adapters derive their attention from the model's (`from pkg.model import CausalSelfAttention as
Base`, `class CausalSelfAttention(Base)`) and call the inherited method with a mask of their own: `amask =
torch.ones(T, aT, dtype=torch.bool)`, then `self.scaled_dot_product_attention(q, ak, av, amask)`, whose body gives it to
SDPA as `attn_mask=mask`. The SDPA call is the finding (in the base class's module); the subclass's argument is the
line that says which mask it is, as `trnready/mask_sources.py` lists such arguments inside one file. Here the
callers are in other modules, so it is a project step: a finding of `mask-source-categories` whose call is given, as
a keyword whose name holds `mask`, a parameter of the method of a module-level class enclosing it. Subclasses are
found in the modules importing that class by name from its module (or from the package re-exporting it; imports
are read as the caller-places step reads them, relative ones included), through
their class statement's bases; their calls `self.method(...)` (unless the subclass overrides it) and
`super().method(...)` handing the parameter a value are places of the finding, at that value. `None`, an argument
left out, or the caller's own parameter handed on add nothing (places only: nothing here drops or guards a finding).
"""
from __future__ import annotations

import ast
from dataclasses import replace

from ..astwalk import walk
from .helper_imports import from_helper, imported_names
from .step_memo import holding

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def inherited_mask_places(findings: list, py: list, text_of, values: dict, names: dict, tree_of, column) -> list:
    """`tree_of(rel)`: a parsed file or None; `column(lines, node)`: its 1-based character column."""
    cats = frozenset(values.get("mask-source-categories", ()))
    wanted = [i for i, f in enumerate(findings) if f.category in cats and not f.guarded and not f.suppressed
              and f.cell is None and f.path.endswith(".py")]
    if not wanted:
        return findings
    bases: dict = {}  # index -> (class name, method name, {parameter: position})
    for i in wanted:
        f = findings[i]
        tree = tree_of(f.path)
        got = _mask_parameters(tree, f.line) if tree is not None else None
        if got is not None:
            bases[i] = got
    if not bases:
        return findings
    places: dict = {}  # index -> [(rel, line, column)]
    gates = sorted({(cls, meth + "(") for cls, meth, _params in bases.values()})
    for rel in py:  # each file read once, for every base method at a time
        text = None
        for i, (cls, meth, params) in bases.items():
            where = findings[i].path
            if rel == where:
                continue
            if text is None:
                text = holding(text_of, rel, gates) or ""  # "" when it holds no base's class and method
            if cls not in text or meth + "(" not in text:
                continue
            tree = tree_of(rel)
            local = {loc for loc, original, mod in imported_names(tree, rel, names, renamed=True)
                     if original == cls and from_helper(mod, where, names)} if tree is not None else set()
            if not local:
                continue
            lines = text.splitlines()
            for sub in tree.body:
                if isinstance(sub, ast.ClassDef) and any(type(b) is ast.Name and b.id in local for b in sub.bases):
                    for arg in _mask_arguments(sub, meth, params):
                        places.setdefault(i, []).append((rel, arg.lineno, column(lines, arg)))
    out = list(findings)
    for i, at in places.items():
        f = out[i]
        more = tuple(dict.fromkeys((*f.elsewhere, *((p, ln, c, f.rule) for p, ln, c in at))))
        out[i] = replace(f, elsewhere=more)
    return out


def _mask_parameters(tree: ast.Module, line: int):
    """(class, method, {parameter: position after self}) when the finding's line is a call in a method of a
    module-level class that hands one of the method's parameters on as a keyword naming a mask."""
    for d in tree.body:
        if not (isinstance(d, ast.ClassDef) and d.lineno <= line <= (d.end_lineno or d.lineno)):
            continue
        for m in d.body:
            if not (isinstance(m, _FUNCS) and m.lineno <= line <= (m.end_lineno or m.lineno)):
                continue
            params = [a.arg for a in (*m.args.posonlyargs, *m.args.args)][1:]
            keyword_only = {a.arg for a in m.args.kwonlyargs}
            found: dict = {}
            for node in walk(m):
                if type(node) is ast.Call and node.lineno <= line <= (node.end_lineno or node.lineno):
                    for kw in node.keywords:
                        v = kw.value
                        if kw.arg and "mask" in kw.arg and type(v) is ast.Name:
                            if v.id in params:
                                found[v.id] = params.index(v.id)
                            elif v.id in keyword_only:
                                found[v.id] = None
            return (d.name, m.name, found) if found else None
    return None


def _mask_arguments(sub: ast.ClassDef, meth: str, params: dict) -> list:
    """The values the subclass's methods hand the mask parameters in `self.meth(...)` / `super().meth(...)`."""
    overrides = any(isinstance(m, _FUNCS) and m.name == meth for m in sub.body)
    out = []
    for m in sub.body:
        if not isinstance(m, _FUNCS):
            continue
        own = {a.arg for a in (*m.args.posonlyargs, *m.args.args, *m.args.kwonlyargs)}
        for node in walk(m):
            if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != meth:
                continue
            recv = node.func.value
            through_super = type(recv) is ast.Call and type(recv.func) is ast.Name and recv.func.id == "super"
            if not (through_super or type(recv) is ast.Name and recv.id == "self" and not overrides):
                continue
            for p, pos in params.items():
                v = next((kw.value for kw in node.keywords if kw.arg == p), None)
                if v is None and pos is not None and pos < len(node.args) \
                        and not any(type(a) is ast.Starred for a in node.args[:pos + 1]):
                    v = node.args[pos]
                if v is None or type(v) is ast.Constant and v.value is None or type(v) is ast.Name and v.id in own:
                    continue
                out.append(v)
    return out
