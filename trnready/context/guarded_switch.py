"""guarded-switch: the block of `if <param>:` in a test module's helper whose every call turning the parameter on is
code Neuron never runs."""
from __future__ import annotations

import ast

from ._test_skips import runs_as_tests
from .base import predicate
from .neuron_guarded import _spans
from ..astwalk import walk


def _off_params(fn) -> dict:
    """parameter name -> its position (None for a keyword-only one), for the parameters whose default is False or
    None (`cuda=False`): the switch is off unless a call turns it on."""
    a = fn.args
    positional = a.posonlyargs + a.args
    out: dict = {}
    for i, (arg, d) in enumerate(zip(positional[len(positional) - len(a.defaults):], a.defaults)):
        if type(d) is ast.Constant and (d.value is False or d.value is None):
            out[arg.arg] = len(positional) - len(a.defaults) + i
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if type(d) is ast.Constant and (d.value is False or d.value is None):
            out[arg.arg] = None
    return out


def _switch_blocks(fn, params: dict) -> list:
    """[(param, if-statement)] of `if <param>:` in the function (not in a nested one), the parameter never bound
    again in it."""
    stored = {n.id for n in walk(fn) if type(n) is ast.Name and type(n.ctx) is not ast.Load}
    out = []
    for n in walk(fn):
        if type(n) is ast.If and type(n.test) is ast.Name and n.test.id in params and n.test.id not in stored:
            out.append((n.test.id, n))
    return out


def _turned_on(call, name: str, index) -> bool | None:
    """Whether the call may pass the parameter a true value; None when it cannot be told (`*args`, `**kwargs`)."""
    if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    for k in call.keywords:
        if k.arg == name:
            return not (type(k.value) is ast.Constant and not k.value.value)
    if index is not None and index < len(call.args):
        v = call.args[index]
        return not (type(v) is ast.Constant and not v.value)
    return False


def _switch_spans(ctx) -> list:
    tree = ctx.tree
    if tree is None or not runs_as_tests(ctx.path, tree):
        return []
    found = []
    for fn in tree.body:
        if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef) and not fn.name.startswith("test"):
            params = _off_params(fn)
            blocks = _switch_blocks(fn, params) if params else []
            if blocks:
                found.append((fn, params, blocks))
    if not found:
        return []
    spans = ctx.fact("neuron-guarded", _spans)
    if spans is None or not spans.statement_spans:
        return []
    names = {fn.name: (fn, params, blocks) for fn, params, blocks in found}
    if len(names) != len(found):
        return []  # a name defined twice: which definition a call reaches is not followed
    calls: dict = {}
    for c in ctx.calls():
        if type(c.func) is ast.Name and c.func.id in names:
            calls.setdefault(c.func.id, []).append(c)
    called = {id(c.func) for cs in calls.values() for c in cs}
    other = {n.id for n in ctx.nodes(ast.Name) if n.id in names and id(n) not in called
             and not any(n is fn for fn, _, _ in found)}
    out = []
    for name, (_fn, params, blocks) in names.items():
        if name in other or not calls.get(name):
            continue  # handed on (a fixture, a callback) or never called: its callers are not seen
        for param, branch in blocks:
            index = params[param]
            on = [_turned_on(c, param, index) for c in calls[name]]
            if None in on:
                continue
            if all(spans.holds((c.lineno, c.col_offset), "") for c, yes in zip(calls[name], on) if yes):
                out.append(((branch.body[0].lineno, branch.body[0].col_offset),
                            (branch.body[-1].end_lineno, branch.body[-1].end_col_offset)))
    return out


@predicate("guarded-switch", effect="guard")
def guarded_switch(ctx, hit) -> bool:
    """In a module the test runner runs, the block of `if cuda:` in a helper (a module-level function not named as a
    test) whose parameter defaults to False or None (`def _demo_inputs(shape, cuda=False)`), when every call of the
    helper in the file that may turn it on (`cuda=True`, a positional argument, anything but a false literal) is
    code `neuron-guarded` guards (inside `if torch.cuda.is_available():`, a test skipped without CUDA). On Neuron
    the helper is only ever called with the switch off, so the block's `.cuda()` runs for nobody; the check around
    the calls is what the port changes. A helper handed on by name, defined twice, called with `*args` or
    `**kwargs`, or whose parameter the function binds again is left alone; no other module imports a test module's
    helpers."""
    if not ctx.path or ctx.tree is None:
        return False
    spans = ctx.fact("guarded-switch", _switch_spans)
    if not spans:
        return False
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    return any(s <= pos < e for s, e in spans)
