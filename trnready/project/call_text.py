"""`ast.unparse` of a call, the same text, without its visitor for the common shapes.

The summary keeps the source of every call that may carry a value across modules (about 22,000 on
diffusers/src), and `ast.unparse` walked each through a general visitor with precedence bookkeeping:
about a quarter of a summary's time. Most kept calls are a dotted callee given names, dotted names,
plain literals and nested calls of the same shape; those are written here directly, exactly as
ast.unparse writes them. Any other node is handed to ast.unparse itself, standing alone, which gives
the same text as inside the call whenever the node needs no parentheses there: a call argument or a
keyword value is written at the lowest precedence either way, and a callee, an attribute's object or
a starred value is written here only when it is a name, an attribute or a call, which never take any.
tests/test_call_text.py compares the two on every call of real repositories.
"""
from __future__ import annotations

import ast

_Name, _Attribute, _Call, _Constant, _Starred = ast.Name, ast.Attribute, ast.Call, ast.Constant, ast.Starred
_PLAIN = (str, int, bool, type(None))  # repr() is what ast.unparse writes for these (float and complex differ)


def call_text(node) -> str:
    """ast.unparse(node)."""
    out: list = []
    _write(node, out)
    return "".join(out)


def _atomic(node) -> bool:
    """Written without parentheses where an atom is required (a callee, an attribute's object)."""
    t = type(node)
    return t is _Name or t is _Call or (t is _Attribute and _atomic(node.value))


def _write(node, out: list) -> None:
    t = type(node)
    if t is _Name:
        out.append(node.id)
    elif t is _Attribute and _atomic(node.value):
        _write(node.value, out)
        out.append(".")
        out.append(node.attr)
    elif t is _Call and _atomic(node.func):
        _write(node.func, out)
        out.append("(")
        first = True
        for a in node.args:
            if not first:
                out.append(", ")
            first = False
            if type(a) is _Starred and _atomic(a.value):
                out.append("*")
                _write(a.value, out)
            else:
                _write(a, out)
        for k in node.keywords:
            if not first:
                out.append(", ")
            first = False
            out.append(f"{k.arg}=" if k.arg is not None else "**")
            _write(k.value, out)
        out.append(")")
    elif t is _Constant and type(node.value) in _PLAIN and node.kind is None:
        out.append(repr(node.value))
    else:
        out.append(ast.unparse(node))
