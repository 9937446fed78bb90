"""Helpers that do the flagged thing when called (link step caller-places, branch rec26w).

A project helper whose body resizes bilinearly (`def scale_img(img, ratio): ... F.interpolate(img, mode="bilinear")`),
writes the cuDNN flags (`def init_torch_seeds(seed): cudnn.benchmark = ...`), empties the CUDA cache or seeds the
CUDA generators (`def empty_cache(): gc.collect(); torch.cuda.empty_cache()`) does so at every call: the model or
training code calling it is where the behaviour enters the run, and blind labels mark those calls. The finding stays
the helper's (one finding per thing); its calls become places of it.

Which findings make a helper act is data: `acting-helper-rules` (the finding anywhere in the helper's body but in a
test: `if torch.backends.cudnn.enabled:` asks, it does not act) and `acting-helper-effect-rules` (only a call that
is a statement of its own, made for its effect: `torch.cuda.empty_cache()`, not `dev = torch.cuda.current_device()`
nor `print(torch.cuda.memory_allocated())`). The helper is a module-level function, or a method of a module-level
class (its calls are then those through `self.` or the class name in the class's own file; a function's calls are
those of other modules, since one in its own file sits beside the finding already). A call whose arguments
switch off the arm holding the finding (`process_mask(..., upsample=False)`, or the parameter left at its default,
when the resize sits under `if upsample:`) is no place of it: the arms are read as the callers step reads them
(`project/switch_params.py`), and a value that is not a literal keeps the call.
"""
from __future__ import annotations

import ast

from ..astwalk import calls, walk
from .switch_params import _UNKNOWN, _arms, _truth

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Acting:
    """The helper holding an acting finding: its name, the class holding it when it is a method (None for a
    module-level function), its definition and the `if` arms around the finding that read its parameters."""
    __slots__ = ("name", "owner", "fn", "arms")

    def __init__(self, name: str, owner, fn, arms: list):
        self.name, self.owner, self.fn, self.arms = name, owner, fn, arms


def acting_helper(tree: ast.Module, f, lines: list, effect_only: bool, max_lines: int):
    """The Acting helper of finding `f` when the finding acts in its body; else None. A function longer than
    `max_lines` is no helper of that thing: a `train()` or `main()` holding one resize among a hundred statements is
    the run itself, and its calls (at `__main__`) are no place of the resize."""
    fn, owner = _holder(tree, f.line)
    if fn is None or fn.name.startswith("__") or code_lines(fn) > max_lines:
        return None
    # a value the helper's own default gives (`def smooth(x, mode="bilinear")`, folded into the finding): the calls
    # relying on it are the link step's (callers step 3), and one passing another mode does not resize so
    head_end = fn.body[0].lineno if fn.body else fn.lineno
    if any(fn.lineno <= o[0] < head_end for o in f.occurrences):
        return None
    stmt = _innermost_statement(fn, f.line)
    if stmt is None or stmt is fn:
        return None
    if effect_only:
        # the statement is the finding's call itself (`torch.cuda.empty_cache()`), not a call given its value
        if not (type(stmt) is ast.Expr and type(stmt.value) is ast.Call and stmt.lineno == f.line
                and char_column(lines, stmt) == f.column):
            return None
    elif _asks(stmt, f.line):
        return None
    params = set(_params(fn, method=owner is not None))
    # an early exit before the finding (`if ratio == 1.0: return img`) is an arm the finding is not in
    arms = _arms(fn.body, f.line, params) + [(t, False) for t in _exits_before(fn.body, f.line, params)]
    return Acting(fn.name, owner, fn, arms)


def reaches(acting: Acting, call: ast.Call) -> bool:
    """Whether the call runs the arm holding the finding, or may: False only when the literals it passes (or the
    defaults it leaves) pick the other arm of a test on the helper's parameters."""
    if not acting.arms:
        return True
    fn = acting.fn
    params = _params(fn, method=acting.owner is not None)
    defaults = _defaults(fn, method=acting.owner is not None)
    values: dict = {}
    starred = any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords)
    for k, p in enumerate(params):
        value = _UNKNOWN
        given = next((kw.value for kw in call.keywords if kw.arg == p), None)
        if given is None and k < len(call.args) and not any(type(a) is ast.Starred for a in call.args[:k + 1]):
            given = call.args[k]
        if given is not None:
            value = _literal(given)
        elif not starred and p in defaults:
            value = defaults[p]
        values[p] = value
    return not any(_truth(test, values) is (not in_body) for test, in_body in acting.arms)


def calls_of(acting: Acting, tree: ast.Module, local_names: set, own_file: bool,
             modules: frozenset | set = frozenset()) -> list:
    """The calls of the helper in a parsed file: by one of `local_names`, or as an attribute of one of `modules`
    (names of its module), for a function; through `self.` or the class name, in the class's own file, for a
    method. Calls inside the helper itself are not its callers."""
    out = []
    inside = (acting.fn.lineno, acting.fn.end_lineno or acting.fn.lineno) if own_file else None
    for node in calls(tree):  # the file's calls, found once for every helper asked of it
        func = node.func
        if acting.owner is None:
            # a function's calls in its own file are beside its finding already (GroupViT's labels call such a
            # call a look-alike): only another module's calls are places
            hit = not own_file and type(func) is ast.Name and func.id in local_names or type(func) is ast.Attribute \
                and func.attr == acting.name and type(func.value) is ast.Name and func.value.id in modules
        else:
            hit = own_file and type(func) is ast.Attribute and func.attr == acting.name \
                and type(func.value) is ast.Name and func.value.id in ("self", "cls", acting.owner)
        if hit and not (inside and inside[0] <= node.lineno <= inside[1]) and reaches(acting, node):
            out.append(node)
    return out


def code_lines(fn) -> int:
    """The lines of the function after its docstring (a long docstring makes no helper longer)."""
    start = fn.lineno
    first = fn.body[0] if fn.body else None
    if type(first) is ast.Expr and type(first.value) is ast.Constant and isinstance(first.value.value, str):
        start = first.end_lineno or first.lineno
    return (fn.end_lineno or fn.lineno) - start


def char_column(lines: list, node) -> int:
    """The 1-based character column of a node in the file's lines (ast gives a UTF-8 byte offset)."""
    from ..readers.python import _column

    line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
    return _column(line, node.col_offset)


def _exits_before(stmts, line: int, params: set) -> list:
    """The tests of the `if` statements without `else`, before the line in a block holding it (not in a nested
    definition), whose body ends in a `return` or `raise` and whose test reads one of `params`."""
    out: list = []
    for st in stmts:
        if (st.end_lineno or st.lineno) < line:
            if type(st) is ast.If and not st.orelse and st.body and type(st.body[-1]) in (ast.Return, ast.Raise) \
                    and any(type(n) is ast.Name and n.id in params for n in walk(st.test)):
                out.append(st.test)
            continue
        if st.lineno > line or isinstance(st, (*_FUNCS, ast.ClassDef)):
            break
        for name in ("body", "orelse", "finalbody"):
            block = getattr(st, name, None) or []
            if block and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno):
                out += _exits_before(block, line, params)
        for h in (getattr(st, "handlers", None) or []) + (getattr(st, "cases", None) or []):
            if h.body and h.body[0].lineno <= line <= (h.body[-1].end_lineno or h.body[-1].lineno):
                out += _exits_before(h.body, line, params)
        break
    return out


def _holder(tree: ast.Module, line: int):
    """(function, class name or None): the module-level function holding the line, or the method of a module-level
    class holding it."""
    for d in tree.body:
        if not d.lineno <= line <= (d.end_lineno or d.lineno):
            continue
        if isinstance(d, _FUNCS):
            return d, None
        if isinstance(d, ast.ClassDef):
            for m in d.body:
                if isinstance(m, _FUNCS) and m.lineno <= line <= (m.end_lineno or m.lineno):
                    return m, d.name
        return None, None
    return None, None


def _innermost_statement(fn, line: int):
    """The innermost statement holding the line (a nested function's statements included)."""
    best = fn
    stack = list(fn.body)
    while stack:
        st = stack.pop()
        if not isinstance(st, ast.stmt) or not st.lineno <= line <= (st.end_lineno or st.lineno):
            continue
        best = st
        stack = [c for name in ("body", "orelse", "finalbody") for c in (getattr(st, name, None) or [])]
        for h in (getattr(st, "handlers", None) or []) + (getattr(st, "cases", None) or []):
            stack.extend(h.body)
    return best


def _asks(stmt, line: int) -> bool:
    """Whether the line lies in a test of the statement: the test of an `if` / `while` / `assert`, or a comparison,
    `and` / `or`, `not` or the test of a conditional expression inside it."""
    def holds(node) -> bool:
        return node is not None and node.lineno <= line <= (node.end_lineno or node.lineno)

    if type(stmt) in (ast.If, ast.While, ast.Assert) and holds(stmt.test):
        return True
    if type(stmt) in (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try):
        return False  # the line is in the statement's head, not in a block (the innermost statement is the head's)
    for node in walk(stmt):
        if isinstance(node, (ast.Compare, ast.BoolOp)) or isinstance(node, ast.UnaryOp) and type(node.op) is ast.Not:
            if holds(node):
                return True
        elif isinstance(node, ast.IfExp) and holds(node.test):
            return True
    return False


def _params(fn, method: bool) -> list:
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if method and names and not _static(fn):
        names = names[1:]
    return names + [a.arg for a in fn.args.kwonlyargs]


def _static(fn) -> bool:
    return any(type(d) is ast.Name and d.id == "staticmethod" for d in fn.decorator_list)


def _defaults(fn, method: bool) -> dict:
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    out = {}
    for p, d in zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults):
        out[p] = _literal(d)
    for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if d is not None:
            out[a.arg] = _literal(d)
    return out


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _UNKNOWN
