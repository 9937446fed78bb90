"""moved-after: an operation on tensors its function moves to a device only afterwards."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, parent_of, places_on_device, predicate
from ..astwalk import of_kinds, walk

_CALL = (ast.Call,)
_ASSIGN = (ast.Assign,)
_RETURN = (ast.Return,)

_MAX_CALLERS = 8  # calls of a preparing function followed to see their results moved


@predicate("moved-after", kinds=("call", "method", "subscript"), effect="guard")
def moved_after(ctx, hit) -> bool:
    """The operation reads or writes tensors that its function moves to a device only afterwards: `y =
    x2[1:].masked_select(mask)` then `x, y = to_cuda(x, y)`, `labels[~masked] = -100` then `labels =
    labels.to(args.device)`. A tensor is moved because it is not on the device yet, so the operation ran on the host
    while the batch was being prepared; its data-dependent size never reaches a device op. The names followed are
    the statement's targets (a subscript written into counts by its root) and the plain names the operation reads;
    a move is `.cuda()`, `.to(device)` with a chosen device (not a dtype, "cpu" or another tensor's `.device`), or
    the name handed to a function of `device-move-functions` (`to_cuda(x, y)`), its result assigned back to the
    same name (`labels = labels.to(device)`, `x, y = to_cuda(x, y)`: only the moved copy is kept; a move used in
    passing, `f(x.cuda())`, may be a no-op). The name must not be moved before the operation nor bound again between
    it and the move. One level up: a name the function returns, when every
    call of the function in the file binds its result to names moved afterwards (`inputs, labels =
    mask_tokens(batch)` then `labels.to(device)`). For rules of the categories in `moved-after-categories`: those
    whose operation is the concern (a float64 tensor moved later is the problem itself)."""
    if hit.rule.category not in ctx.values.get("moved-after-categories", ()):
        return False
    stmt = _statement(ctx, hit.node)
    fn = enclosing_function(ctx, stmt) if stmt is not None else None
    if fn is None or fn.name == "forward":
        return False
    names = _followed(stmt, hit.node)
    movers = frozenset(ctx.values.get("device-move-functions", ()))
    start = (stmt.lineno, stmt.col_offset)
    if any(p < start and n in names for p, n in _moves(fn, movers)):
        return False  # something it works on is on the device already
    if any(_moved_later(ctx, fn, name, stmt, movers) for name in names):
        return True
    returned = _returned(fn)
    if not names & returned:
        return False
    calls = _calls_of(ctx, fn)
    if not calls or len(calls) > _MAX_CALLERS:
        return False
    for call in calls:
        up = parent_of(ctx, call)
        caller = enclosing_function(ctx, call)
        if type(up) is not ast.Assign or up.value is not call or caller is None:
            return False
        if not any(_moved_later(ctx, caller, n, up, movers) for n in _target_names(up.targets)):
            return False
    return True


def _statement(ctx, node):
    while node is not None and not isinstance(node, ast.stmt):
        node = parent_of(ctx, node)
    return node


def _target_names(targets) -> set:
    """Names a list of assignment targets binds or writes into (`x[m] = 0` writes into x)."""
    out: set = set()
    stack = list(targets)
    while stack:
        t = stack.pop()
        if type(t) is ast.Name:
            out.add(t.id)
        elif type(t) in (ast.Tuple, ast.List):
            stack.extend(t.elts)
        elif type(t) is ast.Starred:
            stack.append(t.value)
        elif type(t) in (ast.Subscript, ast.Attribute):
            root = t
            while type(root) in (ast.Subscript, ast.Attribute):
                root = root.value
            if type(root) is ast.Name and type(t) is ast.Subscript:
                out.add(root.id)
    return out


def _followed(stmt, node) -> set:
    """The statement's targets and the plain names the matched operation reads (never `self`)."""
    names = set()
    if type(stmt) in (ast.Assign, ast.AugAssign, ast.AnnAssign):
        names |= _target_names(stmt.targets if type(stmt) is ast.Assign else [stmt.target])
    names |= {n.id for n in walk(node) if type(n) is ast.Name and type(n.ctx) is ast.Load}
    names.discard("self")
    return names


def _arms(ctx, node, fn) -> set:
    """The (if statement, arm) pairs holding `node` inside `fn` (an except handler counts as an arm of its try)."""
    out: set = set()
    child, p = node, parent_of(ctx, node)
    while p is not None and p is not fn:
        if type(p) is ast.If and child is not p.test:
            out.add((id(p), any(s is child for s in p.body)))
        elif type(p) is ast.ExceptHandler:
            out.add((id(p), True))
        child, p = p, parent_of(ctx, p)
    return out


def _moves(fn, movers: frozenset, rebinding: bool = False, nodes: bool = False) -> list:
    """(position, name) of each move of a plain name in the function; with `rebinding`, only those whose result is
    assigned back to the same name (`x = x.cuda()`, `x, y = to_cuda(x, y)`): the function keeps the moved copy
    only, so the name was not on the device before (a move used in passing, `f(x.cuda())`, may be a no-op)."""
    out = []
    for n in of_kinds(fn, _CALL):
        f = n.func
        if type(f) is ast.Attribute and type(f.value) is ast.Name and f.attr in ("cuda", "to") \
                and places_on_device(n) and not _follows_a_tensor(n):
            out.append(((n.lineno, n.col_offset), f.value.id, n))
        elif movers and dotted(f).rsplit(".", 1)[-1] in movers:
            for a in (*n.args, *(k.value for k in n.keywords)):
                if type(a) is ast.Name:
                    out.append(((n.lineno, n.col_offset), a.id, n))
    if not rebinding:
        return [(p, name) for p, name, _ in out]
    bound = {}
    for n in of_kinds(fn, _ASSIGN):
        if type(n.value) is ast.Call:
            bound[id(n.value)] = _target_names(n.targets)
    if nodes:
        return [(p, name, call) for p, name, call in out if name in bound.get(id(call), ())]
    return [(p, name) for p, name, call in out if name in bound.get(id(call), ())]


def _follows_a_tensor(call) -> bool:
    """`.to(x.device)` / `.to(other)`: wherever another value is, possibly the host."""
    args = list(call.args[:1]) + [k.value for k in call.keywords if k.arg == "device"]
    return bool(args) and all(type(a) is ast.Attribute and a.attr == "device" for a in args)


def _moved_later(ctx, fn, name: str, stmt, movers: frozenset) -> bool:
    end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
    # only a move on every path after the operation: one inside an arm the operation is not in (YOLOX's `if mode ==
    # "cpu": ... .cuda()`, a fallback after an out-of-memory error) runs only on that path
    held = _arms(ctx, stmt, fn)
    moves = sorted(((p, call) for p, n, call in _moves(fn, movers, rebinding=True, nodes=True)
                    if n == name and p > end), key=lambda m: m[0])
    first = next((p for p, call in moves if _arms(ctx, call, fn) <= held), None)
    if first is None:
        return False
    for n in walk(fn):
        if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store \
                and end < (n.lineno, n.col_offset) < (first[0], 0):
            return False  # bound again before the move: another value is moved
    return True


def _returned(fn) -> set:
    out: set = set()
    for n in of_kinds(fn, _RETURN):
        if n.value is not None:
            value = n.value
            vals = list(value.elts) if isinstance(value, (ast.Tuple, ast.List)) else [value]
            out |= {v.id for v in vals if isinstance(v, ast.Name)}
    return out


def _calls_of(ctx, fn) -> list:
    """The file's calls of the function by its name (`self.name(...)` for a method); [] when the name is used in
    any other way (handed on, stored), as a caller elsewhere could then keep the result on the host."""
    calls, others = [], 0
    for n in ctx.nodes(ast.Call):
        f = n.func
        if type(f) is ast.Name and f.id == fn.name or type(f) is ast.Attribute and f.attr == fn.name \
                and type(f.value) is ast.Name and f.value.id in ("self", "cls"):
            calls.append(n)
    for n in ctx.nodes(ast.Attribute):
        if n.attr == fn.name:
            others += 1
    for n in ctx.nodes(ast.Name):
        if n.id == fn.name:
            others += 1
    return calls if others == len(calls) else []
