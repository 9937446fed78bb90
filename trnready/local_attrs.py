"""`args.dist_backend = "nccl"` then `init_process_group(backend=args.dist_backend)` in the same function.

The resolver knows the values of plain names and of `self.x`; an attribute of some other object (an
argparse namespace, a config passed in) is unknown to it, since anything may have set it. When the
function itself writes the attribute just before the call, on every path to it, with no other write in
between, the written value is the one the call reads. Only that one shape is followed: the last
assignment of the attribute in an enclosing block of the call (the call's own block or one around it,
within the same function), and nothing between it and the call that may write the attribute again
(another assignment of it, a rebinding of the object's name, a call given the object itself, a method
call on it, a loop around the call whose body writes it, a `try` body before an `except` holding the call).
"""
from __future__ import annotations

import ast
from .astwalk import walk

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def assigned_value(ctx, expr: ast.Attribute, call: ast.Call):
    """The value expression of the assignment `base.attr = value` that the read `expr` (an argument of `call`)
    sees, or None when it is not certain."""
    base = expr.value
    if type(base) is not ast.Name:
        return None
    name, attr = base.id, expr.attr
    stmt = ctx.statement_at((call.lineno, call.col_offset))
    while stmt is not None:
        up = ctx.parent(stmt)
        if up is None:
            return None
        block = _block_of(up, stmt)
        if block is None and not isinstance(stmt, ast.ExceptHandler):
            return None
        if block is None and _writes(up.body, name, attr):
            return None  # the call is in an `except`: the try body may have run up to any of its statements
        if block is not None:
            for earlier in reversed(block[:block.index(stmt)]):
                found = _assignment(earlier, name, attr)
                if found is not None:
                    return found
                if _writes([earlier], name, attr):
                    return None
        if isinstance(up, _SCOPES):
            return None
        if isinstance(up, _LOOPS) and _writes([up], name, attr, skip=expr):
            return None  # a later iteration reads what the loop body wrote
        if isinstance(up, ast.Try) and block is not None and block is not up.body and _writes(up.body, name, attr):
            return None  # `else` / `finally` after a body that may have written it
        stmt = up
    return None


def _block_of(up, stmt):
    for field in ("body", "orelse", "finalbody"):
        block = getattr(up, field, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return block
    for case in getattr(up, "cases", ()) or ():
        if any(s is stmt for s in case.body):
            return case.body
    return None


def _assignment(st, name: str, attr: str):
    if type(st) is ast.Assign and any(_is_attr(t, name, attr) for t in st.targets):
        return st.value
    if type(st) is ast.AnnAssign and st.value is not None and _is_attr(st.target, name, attr):
        return st.value
    return None


def _is_attr(t, name: str, attr: str) -> bool:
    return type(t) is ast.Attribute and t.attr == attr and type(t.value) is ast.Name and t.value.id == name


def _writes(stmts, name: str, attr: str, skip=None) -> bool:
    """Whether the statements may change `name.attr`."""
    for st in stmts:
        for node in walk(st):
            t = type(node)
            if t is ast.Attribute and node is not skip:
                if type(node.ctx) in (ast.Store, ast.Del) and node.attr in (attr, "__dict__") \
                        and type(node.value) is ast.Name and node.value.id == name:
                    return True
            elif t is ast.Name:
                if node.id == name and type(node.ctx) in (ast.Store, ast.Del):
                    return True
            elif t is ast.Call:
                func = node.func
                if type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id == name:
                    return True  # args.update(...), a method of the object itself
                if type(func) is ast.Attribute and func.attr in ("update", "__setattr__", "setdefault") \
                        and type(func.value) is ast.Attribute and func.value.attr == "__dict__":
                    return True
                for a in (*node.args, *(k.value for k in node.keywords)):
                    a = a.value if type(a) is ast.Starred else a
                    if type(a) is ast.Name and a.id == name:
                        return True  # a function given the object may set the attribute
    return False
