"""Findings in a branch that a parameter switches off in every run of the project (`callers-switch-off`).

CodeFormer's `BiSeNet.forward(self, x, return_feat=False)` interpolates bilinearly only under `if return_feat:`,
and its one caller never passes `return_feat`; nerfstudio's loss helper takes a `nonzero()` path only under
`if reduction_type == "image":` while every loss leaves `reduction_type` at its default "batch". The branch never
runs, so what it holds is not part of the port.

A finding is guarded when it lies inside an arm of an `if` / `elif` of its own function whose test, given each
caller's value of the parameters it reads, picks the other arm, for every resolved caller of the function (the
callers step's rule for knowing them all: project/callers.py). A caller's value is what it passes as a literal,
or the parameter's literal default when it leaves it out; a caller handing on anything else (a variable, a
parameter of its own, a spread) makes the answer unknown, and unknown never guards. Tests read: a parameter
alone, `not p`, `p is None` / `p is not None`, `p == literal`, `p != literal`, `p in (literals)`, `p not in
(...)`, `p.endswith(literal)` / `p.startswith(literal)` of a string value (DLA's `if name.endswith(".pth"):`
with every caller passing a hub name such as "dla34"), `len(p) > n` (and the other comparisons) of a literal list,
tuple or string (PIFu's `if len(gpu_ids) > 0:` with every caller leaving `gpu_ids=[]`), and `and` / `or` of those
(`x and p` is false when p is). A parameter the function assigns again is not read. A finding with places folded
into it elsewhere (occurrences) is left alone unless every place lies in the same arms. A caller passing a device test
(`using_cuda=self.device.type == th.device("cuda").type`) passes False, its value on every Neuron machine
(project/call_sites.py)."""
from __future__ import annotations

import ast
import re

from ..truth import truth
from .call_sites import rebound
from ..astwalk import walk

SWITCH_OFF = "callers-switch-off"
_UNKNOWN = object()


def may_switch(line: int, def_line: int, params: tuple, lines: list) -> bool:
    """The cheap look, before any caller is indexed: an `if` / `elif` between the definition and the finding's
    line names one of the parameters that have a literal default."""
    if not params or not 0 < line <= len(lines):
        return False
    words = re.compile(r"\b(?:if|elif)\b.*\b(?:%s)\b" % "|".join(re.escape(p) for p in params))
    depth = _indent(lines[line - 1])
    for k in range(max(def_line - 1, 0), line - 1):
        if not words.search(lines[k]):
            continue
        at = _indent(lines[k])
        if depth <= at:
            continue
        # the finding's line is inside the block the `if` opens: no line between them leaves it (an `elif` /
        # `else` of the same `if` does not)
        inside = True
        for text in lines[k + 1:line - 1]:
            stripped = text.lstrip()
            if not stripped or stripped.startswith("#"):
                continue
            ind = len(text) - len(stripped)
            if ind < at or ind == at and not stripped.startswith(("elif", "else")):
                inside = False
                break
        if inside:
            return True
    return False


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _switch_arms(f, rel: str, fname: str, callers, tree, known: bool):
    """(the function's node, its parameters -> their literal default or "?", the ones its body reads
    unchanged, the arms of `if` statements reading them that hold the finding, the resolved callers), or None when
    no parameter can switch the finding's line. `known`: every caller must be resolved (decided before the file is
    parsed again)."""
    sig = callers.sig(rel, fname)
    if sig is None:
        return None
    # the parameters with a literal default, and every other one as unknown unless the callers pass it
    literals = {p: (sig[3][p][0] if p in sig[3] and sig[3][p] and sig[3][p][0] != "?" else "?")
                for p in sig[2] if p not in ("self", "cls")}
    if not literals:
        return None
    found = callers.callers(rel, fname)
    if not found or known and not callers.known(rel, fname):
        return None
    fn = _function_at(tree.get(), sig[0], f.line)
    if fn is None:
        return None
    read = set(literals) - rebound(fn)
    arms = _arms(fn.body, f.line, read)
    if not arms:
        return None
    return fn, literals, read, arms, found


def _values(callers, rel: str, fname: str, call, literals: dict, read: set) -> tuple[dict, bool]:
    """(parameter -> the literal value the call gives it, the default when it leaves it out; whether the call
    writes one of them itself)."""
    values = {}
    given = False
    for p in read:
        v = callers.passed(rel, fname, call, p)
        given = given or v is not None and _literal(v) is not _UNKNOWN
        values[p] = _literal(literals[p] if v is None else v)
    return values, given


def switched_off(f, rel: str, fname: str, callers, tree) -> bool:
    """Whether finding `f` (in function `fname` of file `rel`) sits in an arm no resolved caller can reach.
    `tree`: an object whose `get()` gives the file's syntax tree (parsed only when needed)."""
    got = _switch_arms(f, rel, fname, callers, tree, known=True)
    if got is None:
        return False
    fn, literals, read, arms, found = got
    # Places folded into the finding (`cudnn.benchmark = False` after `cudnn.deterministic = True`) go with it
    # only when they lie in the same arms: the finding is then guarded as a whole.
    mine = [(id(t), b) for t, b in arms]
    if any([(id(t), b) for t, b in _arms(fn.body, o[0], read)] != mine for o in f.occurrences):
        return False
    for _crel, call in found:
        values, _given = _values(callers, rel, fname, call, literals, read)
        if not any(_truth(test, values) is (not in_body) for test, in_body in arms):
            return False
    return True


MAX_PLACES = 24  # callers listed as places of one finding


def switched_on_by(f, rel: str, fname: str, callers, tree) -> list:
    """[[caller file, line, column]] of the resolved callers that pass a literal (written at the call, not left to
    the default) turning on every arm of the function holding finding `f`: `np_to_variable(x, is_cuda=True)` for the
    `v.cuda()` under `if is_cuda:` in py-faster-rcnn's network.py helper (eleven such calls in longcw's
    faster_rcnn_pytorch, blind48). The port changes the helper and these calls with it: they are places of the
    finding. Empty when the finding is in no such arm."""
    got = _switch_arms(f, rel, fname, callers, tree, known=False)
    if got is None:
        return []
    _fn, literals, read, arms, found = got
    out = []
    for crel, call in found:
        values, given = _values(callers, rel, fname, call, literals, read)
        if given and all(_truth(test, values) is in_body for test, in_body in arms):
            out.append([crel, call[0], call[1] + 1])
            if len(out) >= MAX_PLACES:
                break
    return out


def _literal(src: str):
    if src.startswith(("=", "~", "?", "*")):
        return _UNKNOWN
    try:
        return ast.literal_eval(src)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _UNKNOWN


def _function_at(tree, def_line: int, line: int):
    """The function defined at `def_line` (the recorded one), when it holds `line`."""
    if tree is None:
        return None
    for n in walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno == def_line \
                and n.lineno <= line <= (n.end_lineno or n.lineno):
            return n
    return None


def _arms(stmts, line: int, params: set) -> list:
    """[(test, in body)] for the `if` statements of the function (not of a nested definition) whose body or else
    arm holds `line` and whose test reads one of `params`."""
    out: list = []
    for st in stmts:
        if not (st.lineno <= line <= (st.end_lineno or st.lineno)):
            continue
        if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            return out  # another scope: its own parameters
        if type(st) is ast.If:
            in_body = bool(st.body) and st.body[0].lineno <= line <= (st.body[-1].end_lineno or st.lineno)
            in_else = bool(st.orelse) and st.orelse[0].lineno <= line <= (st.orelse[-1].end_lineno or st.lineno)
            if (in_body or in_else) and any(type(n) is ast.Name and n.id in params for n in walk(st.test)):
                out.append((st.test, in_body))
            out += _arms(st.body if in_body else st.orelse if in_else else [], line, params)
        else:  # loops, with, try, match: the one block holding the line
            for name in ("body", "orelse", "finalbody"):
                out += _arms(getattr(st, name, None) or [], line, params)
            for h in (getattr(st, "handlers", None) or []) + (getattr(st, "cases", None) or []):
                out += _arms(h.body, line, params)
        break
    return out


def _truth(test, values: dict):
    """True / False when the test's value is fixed by the parameters' values, None when it is not."""
    return truth(test, lambda node: _leaf(node, values))


_STR_TESTS = ("endswith", "startswith")
_SIZE_OPS = {ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b, ast.Lt: lambda a, b: a < b,
             ast.LtE: lambda a, b: a <= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}


def _leaf(test, values: dict):
    k = type(test)
    if k is ast.Call and type(test.func) is ast.Attribute and test.func.attr in _STR_TESTS \
            and type(test.func.value) is ast.Name and len(test.args) == 1 and not test.keywords:
        # `if name.endswith(".pth"):` with every caller passing a hub name (`name="dla34"`)
        v = values.get(test.func.value.id, _UNKNOWN)
        try:
            arg = ast.literal_eval(test.args[0])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        ok = isinstance(arg, str) or isinstance(arg, tuple) and all(isinstance(a, str) for a in arg)
        return getattr(v, test.func.attr)(arg) if isinstance(v, str) and ok else None
    if k is ast.Name:
        v = values.get(test.id, _UNKNOWN)
        return None if v is _UNKNOWN else bool(v)
    if k is ast.Compare and len(test.ops) == 1 and type(test.left) is ast.Call and type(test.left.func) is ast.Name \
            and test.left.func.id == "len" and len(test.left.args) == 1 and type(test.left.args[0]) is ast.Name \
            and not test.left.keywords and type(test.ops[0]) in _SIZE_OPS:
        # `if len(gpu_ids) > 0:` with every caller leaving `gpu_ids=[]` (PIFu's init_net)
        v = values.get(test.left.args[0].id, _UNKNOWN)
        if not isinstance(v, (list, tuple, str)):
            return None
        try:
            other = ast.literal_eval(test.comparators[0])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        return _SIZE_OPS[type(test.ops[0])](len(v), other) if type(other) is int else None
    if k is ast.Compare and len(test.ops) == 1 and type(test.left) is ast.Name:
        v = values.get(test.left.id, _UNKNOWN)
        if v is _UNKNOWN:
            return None
        try:
            other = ast.literal_eval(test.comparators[0])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        op = type(test.ops[0])
        try:
            if op is ast.Eq:
                return v == other
            if op is ast.NotEq:
                return v != other
            if op is ast.Is and other is None:
                return v is None
            if op is ast.IsNot and other is None:
                return v is not None
            if op is ast.In and isinstance(other, (tuple, list, set, frozenset)):
                return v in other
            if op is ast.NotIn and isinstance(other, (tuple, list, set, frozenset)):
                return v not in other
        except TypeError:
            return None
    return None
