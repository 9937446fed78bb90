"""`ast.walk` without its two generator layers per node: the same nodes in the same (breadth-first) order.

Every predicate and project step walks subtrees; with `ast.walk` (which calls `iter_child_nodes`, which calls
`iter_fields`) the walking itself was about a seventh of a profiled cold scan. Fields that never hold a node
(names, flags, Constant's value) are skipped by a per-class table; tests/test_astwalk.py compares the result
with `ast.walk` node by node over real files.
"""
from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from typing import Any

_AST = ast.AST
# fields holding a str, int, bool, None or plain constant in every node class that has them
_SCALAR = frozenset(("id", "attr", "arg", "module", "level", "kind", "conversion", "is_async", "simple",
                     "type_comment", "asname", "name", "tag"))
_NO_CHILDREN = (ast.Constant, ast.MatchSingleton)
_FIELDS: dict = {}


def _fields(cls: type[ast.AST]) -> tuple:
    fields = () if cls in _NO_CHILDREN else tuple(f for f in cls._fields if f not in _SCALAR)
    _FIELDS[cls] = fields
    return fields


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Yield `node` and every node below it, breadth first, exactly as `ast.walk` does."""
    todo = deque((node,))
    pop, push, table = todo.popleft, todo.append, _FIELDS
    while todo:
        n = pop()
        fields = table.get(type(n))
        if fields is None:
            fields = _fields(type(n))
        for name in fields:
            v = getattr(n, name, None)
            if type(v) is list:
                for x in v:
                    if isinstance(x, _AST):
                        push(x)
            elif v is not None and isinstance(v, _AST):
                push(v)
        yield n


def loaded_names(node: ast.AST, names) -> set:
    """The names among `names` read (a Name in Load context) anywhere in `node`'s subtree, node included: what
    `{n.id for n in walk(node) if type(n) is ast.Name and n.id in names and type(n.ctx) is ast.Load}` gives, from
    `of_kinds`' plain stack loop."""
    Load = ast.Load
    return {n.id for n in of_kinds(node, (ast.Name,)) if n.id in names and type(n.ctx) is Load}


def of_kinds(node: ast.AST, kinds) -> list:
    """The nodes of exactly these types in `node`'s subtree, node included, in no particular order: what
    `[n for n in walk(node) if type(n) in kinds]` holds, from one plain stack loop (no generator step per node)
    for callers that use the nodes as a set."""
    out: list = []
    stack: list = [node]
    pop, push, table, AST = stack.pop, stack.append, _FIELDS, _AST
    while stack:
        n = pop()
        k = type(n)
        if k in kinds:
            out.append(n)
        fields = table.get(k)
        if fields is None:
            fields = _fields(k)
        for name in fields:
            v = getattr(n, name, None)
            if type(v) is list:
                for x in v:
                    if isinstance(x, AST):
                        push(x)
            elif v is not None and isinstance(v, AST):
                push(v)
    return out


# the fields of a statement (or except handler, match case) that hold statements, per class, in `_fields` order
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_BLOCKS: dict = {}
_BLOCK_KINDS = (ast.stmt, ast.excepthandler, ast.match_case)


def statements(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and the statements (except handlers and match cases too) below it, in the order `walk` yields them.

    For a step that looks only for statements (imports, definitions): expressions are never entered. The order is
    `walk`'s because no statement lies below an expression, so leaving expression subtrees out moves no statement
    to another depth, and the blocks of each node are taken in `_fields` order, as `walk` takes them."""
    todo = deque((node,))
    pop, push, table, kinds = todo.popleft, todo.append, _BLOCKS, _BLOCK_KINDS
    while todo:
        n = pop()
        fields = table.get(type(n))
        if fields is None:
            fields = table[type(n)] = tuple(f for f in type(n)._fields if f in _BLOCK_FIELDS)
        for name in fields:
            v = getattr(n, name, None)
            if type(v) is list:
                for x in v:
                    if isinstance(x, kinds):
                        push(x)
        yield n


_DEF_KINDS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def own_statements(stmts: list) -> Iterator[Any]:
    """The statements of a block and of the blocks nested in it (the arms of if / for / while / with / try, except
    handlers), in source order, without entering the functions and classes defined there (the definitions themselves
    are yielded): what one function's body runs itself."""
    stack = list(reversed(stmts))
    pop, push = stack.pop, stack.extend
    while stack:
        s = pop()
        yield s
        if type(s) in _DEF_KINDS:
            continue
        inner: list = []
        for name in ("body", "orelse"):
            inner += getattr(s, name, None) or ()
        for h in getattr(s, "handlers", None) or ():
            inner += h.body
        inner += getattr(s, "finalbody", None) or ()
        push(reversed(inner))


def calls(tree) -> list:
    """The Call nodes of `tree` in `walk` order, found once per tree and kept on it (`trnready_walk_calls`): project
    steps ask each parsed file for the calls of one helper after another."""
    got = getattr(tree, "trnready_walk_calls", None)
    if got is None:
        Call = ast.Call
        got = tree.trnready_walk_calls = [n for n in walk(tree) if type(n) is Call]
    return got
