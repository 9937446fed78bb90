"""Parameter defaults that no call in the project uses.

`def __init__(self, max_metrics=32, device="cuda")` is reported at `"cuda"`; when every call of the function in
the project passes `device` (`MetricsTracker(32, device=self.device)`), the default runs only for callers outside
the project (users of a library) and maybe never: the finding stays, at medium confidence, and its message says
so. (Readers of the precision samples judged such findings wrong in applications, and the labellers of the
recall sets marked the defaults of library loaders, `load_flow_model(name, device="cuda")`, as places to change:
medium confidence with the reason is the honest middle.) The calls are found by name, so another function of the
same name adds its calls and can only keep the finding as it is. Anything the step cannot see through keeps it
too: no call at all, a call spreading `*args` or `**kwargs` before the parameter, the name used other than as a
callee (`callback=build`, `partial(build, ...)`, a subclass `class Sub(MetricsTracker)`), a name in more than
MAX_FILES files, and the methods called by the framework (`forward`, dunder methods but `__init__`, which is
called by its class's name).
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

MAX_FILES = 40  # files holding the name: more than this and the name is too common to follow
_FRAMEWORK_CALLED = frozenset({"forward", "__call__", "setup", "main", "run", "step", "train", "__post_init__"})


class _Default:
    __slots__ = ("callee", "param", "index", "kwonly", "bound")

    def __init__(self, callee: str, param: str, index: int, kwonly: bool, bound: bool):
        self.callee, self.param, self.index, self.kwonly, self.bound = callee, param, index, kwonly, bound


def _defaults_of(tree: ast.Module) -> list:
    """[(first, last, _Default)] for every literal default of a function or method parameter: `first` and
    `last` are the (line, column) span of the default, column 0-based."""
    out = []
    classes = {id(s): n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) for s in n.body}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        cls = classes.get(id(fn))
        if fn.name == "__init__":
            if cls is None:
                continue
            callee = cls.name
        elif fn.name.startswith("__") or fn.name in _FRAMEWORK_CALLED:
            continue
        else:
            callee = fn.name
        a = fn.args
        positional = [*a.posonlyargs, *a.args]
        # a method called through its instance or class (`obj.m(x)`, `Class(x)`) is not given `self`
        bound = cls is not None and not any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
        pairs = [(p, d, i, False) for i, (p, d) in enumerate(zip(positional[len(positional) - len(a.defaults):],
                                                                   a.defaults), len(positional) - len(a.defaults))]
        pairs += [(p, d, -1, True) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        for p, d, i, kwonly in pairs:
            out.append(((d.lineno, d.col_offset), (d.end_lineno or d.lineno, d.end_col_offset or 0),
                        _Default(callee, p.arg, i - (1 if bound and i >= 0 else 0), kwonly, bound)))
    return out


def _passes(call: ast.Call, d: _Default) -> bool | None:
    """True: the call gives the parameter; False: it leaves it at its default; None: cannot tell."""
    if any(k.arg == d.param for k in call.keywords):
        return True
    if not d.kwonly and 0 <= d.index:
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Starred):
                return None
            if i == d.index:
                return True
    if any(k.arg is None for k in call.keywords):
        return None
    return False


def _calls_pass(name: str, defaults: list, trees) -> set:
    """The ids of the defaults (all of callee `name`) that every call of `name` in the project passes."""
    undecided = {id(d) for d in defaults}
    calls = 0
    for tree in trees:
        parents: dict = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                named = node.id == name
            elif isinstance(node, ast.Attribute):
                named = node.attr == name
            else:
                continue
            if not named:
                continue
            up = parents.get(id(node))
            if not (isinstance(up, ast.Call) and up.func is node):
                return set()  # used as a value (a callback, a partial, a base class): calls unseen
            calls += 1
            for d in defaults:
                if id(d) in undecided and _passes(up, d) is not True:
                    undecided.discard(id(d))
            if not undecided:
                return set()
    return undecided if calls else set()


def note_overridden_defaults(findings: list, files, read_text, cache=None, digests=()) -> list:
    """Lower to medium, with the reason, the findings at a parameter default every call in the project
    overrides. read_text(rel) -> the file's text or None. What was found is kept in the result cache under the
    digests of every Python file, so a warm re-scan of an unchanged tree reads nothing for this step."""
    from ..cache import StepMemo

    candidates = [f for f in findings if not f.guarded and not f.suppressed and f.cell is None
                  and f.path.endswith(".py")]
    if not candidates:
        return findings
    memo = StepMemo(cache, "overridden")
    key = memo.key(files, digests)
    stored = memo.get(key)
    if isinstance(stored, list) and all(isinstance(k, list) and len(k) == 5 for k in stored):
        params = {tuple(k[:4]): k[4] for k in stored}
    else:
        params = {(f.path, f.line, f.column, f.rule): p for f, p in _overridden(candidates, files, read_text)}
        memo.put(key, sorted([*k, p] for k, p in params.items()))
    if not params:
        return findings
    out = []
    for f in findings:
        p = None if f.guarded else params.get((f.path, f.line, f.column, f.rule))
        if p is not None:
            f = replace(f, confidence="medium", message=f"{f.message} (every call in the project passes `{p}`: "
                                                        "the default is used only by callers outside it)")
        out.append(f)
    return out


def _overridden(candidates: list, files, read_text) -> list:
    py = [sf.rel for sf in files if sf.kind == "python"]
    trees: dict = {}

    def tree_of(rel):
        if rel not in trees:
            text = read_text(rel)
            try:
                trees[rel] = ast.parse(text) if text is not None else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                trees[rel] = None
        return trees[rel]

    at: dict = {}  # finding index -> _Default
    by_path: dict = {}
    for i, f in enumerate(candidates):
        by_path.setdefault(f.path, []).append(i)
    for rel, idxs in by_path.items():
        tree = tree_of(rel)
        if tree is None:
            continue
        spans = _defaults_of(tree)
        for i in idxs:
            f = candidates[i]
            pos = (f.line, f.column - 1)
            d = next((d for first, last, d in spans if first <= pos < last), None)
            if d is not None:
                at[i] = d
    if not at:
        return []
    by_name: dict = {}
    for d in at.values():
        by_name.setdefault(d.callee, []).append(d)
    texts = {rel: read_text(rel) for rel in py}
    overridden: set = set()
    for name, defaults in by_name.items():
        word = re.compile(rf"\b{re.escape(name)}\b")
        holders = [rel for rel, t in texts.items() if t is not None and word.search(t)]
        if len(holders) > MAX_FILES:
            continue
        found = [t for t in (tree_of(rel) for rel in holders) if t is not None]
        overridden |= _calls_pass(name, defaults, found)
    return [(candidates[i], d.param) for i, d in at.items() if id(d) in overridden]
