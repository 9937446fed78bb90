"""Switch parameters of test functions: `def test_log_prob(self, cuda=False)` run on the CPU by the test runner and
again with `cuda=True` by a `test_log_prob_cuda` that runs only where CUDA is (`if torch.cuda.is_available():
self.test_log_prob(cuda=True)`). On a Neuron machine every run of the function has the switch off.

This module reads the syntax only: which parameters are switches (a literal off default), and what each call of
the file passes for them. neuron-guarded decides which calls run on Neuron."""
from __future__ import annotations

import ast

_OFF = (False, None, 0)
_SELF = ("self", "cls")


def _off_default(d) -> bool:
    return type(d) is ast.Constant and d.value in _OFF and type(d.value) is not str


def switch_params(fn) -> dict:
    """{name: positional index or None} of the parameters whose default is False / None / 0 (`cuda=False`,
    `use_gpu=None`). The index counts `self` / `cls`; a keyword-only parameter has None."""
    a = fn.args
    pos = a.posonlyargs + a.args
    out: dict = {}
    for i, d in enumerate(a.defaults):
        k = len(pos) - len(a.defaults) + i
        if _off_default(d):
            out[pos[k].arg] = k
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if d is not None and _off_default(d):
            out[p.arg] = None
    return out


def is_method(fn) -> bool:
    a = fn.args
    first = (a.posonlyargs + a.args)[:1]
    return bool(first) and first[0].arg in _SELF


_UNKNOWN = object()


def passed(call: ast.Call, name: str, index, method: bool):
    """The expression the call passes for parameter `name` (at positional `index`, counting `self` for a method
    called through an attribute), None when it leaves the default, _UNKNOWN behind a `*args` / `**kwargs`."""
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if index is not None:
        at = index - 1 if method and type(call.func) is ast.Attribute else index
        if any(type(a) is ast.Starred for a in call.args[:at + 1]):
            return _UNKNOWN
        if 0 <= at < len(call.args):
            return call.args[at]
    if any(k.arg is None for k in call.keywords) or any(type(a) is ast.Starred for a in call.args):
        return _UNKNOWN
    return None


def off_value(e) -> bool:
    return e is None or _off_default(e)


def unknown(e) -> bool:
    return e is _UNKNOWN
