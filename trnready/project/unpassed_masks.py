"""Attention masks nobody passes: an attention-mask finding whose mask is a parameter no caller ever fills.

`def forward(self, x, attn_mask=None): ... F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)` is
reported by the attention-mask rules (TRN171-TRN173) because the mask could be anything. When every call of that
function in the project passes nothing (or `None`) for the parameter, the mask is always None and the finding is
dropped (report step `unpassed-mask`). Calls are found project-wide:

- a module's `forward`: calls of instances of the class (`self.attn = Attention(...)` then `self.attn(x)`,
  `attn = Attention(...)` then `attn(x)`);
- another method: `self.method(...)` inside its class;
- a module-level function: `name(...)` anywhere.

A caller that forwards its own parameter (`return self.forward_sdpa(x, context, mask)`) is followed the same way,
to a bounded depth. The finding stays when any call passes a value, when a call spreads `*args`/`**kwargs`, when
the class or function is used any other way (stored in a list, passed as a value, subclassed), or when no call
is found at all (a public library API others call). Only findings of these rules are looked at, and only files
that spell the class or function name are parsed, so a scan without such findings pays nothing."""
from __future__ import annotations

import ast
from dataclasses import dataclass

RULES = frozenset({"TRN171", "TRN172", "TRN173"})
MAX_DEPTH = 4
MAX_FILES = 200  # a name spelled in more files than this is too common to follow: the finding stays


class _Unknown(Exception):
    """A use the step cannot follow: the finding stays."""


@dataclass
class _Module:
    rel: str
    tree: ast.Module
    parents: dict


def _parse(text: str, rel: str):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return _Module(rel, tree, parents)


class _Project:
    def __init__(self, files):
        self.paths = {sf.rel: sf.path for sf in files if sf.kind == "python" and sf.path is not None}
        self.texts: dict = {}
        self.mods: dict = {}
        self.spelled: dict = {}  # name -> files spelling it, None when not followed

    def text(self, rel):
        if rel not in self.texts:
            try:
                self.texts[rel] = self.paths[rel].read_text(encoding="utf-8", errors="replace")
            except OSError:
                self.texts[rel] = ""
        return self.texts[rel]

    def module(self, rel):
        if rel not in self.mods:
            self.mods[rel] = _parse(self.text(rel), rel) if rel in self.paths else None
        return self.mods[rel]

    def spelling(self, name: str) -> list:
        if name not in self.spelled:
            try:
                self.spelled[name] = self._spelling(name)
            except _Unknown:
                self.spelled[name] = None
        if self.spelled[name] is None:
            raise _Unknown
        return self.spelled[name]

    def _spelling(self, name: str) -> list:
        found = [rel for rel in self.paths if name in self.text(rel)]
        if len(found) > MAX_FILES:
            raise _Unknown
        for rel in found:
            m = self.module(rel)
            if m is None:
                raise _Unknown
            # `from .attention import Attention as Attn`: calls under another name are not counted
            if any(isinstance(n, ast.ImportFrom) and any(a.name == name and a.asname and a.asname != name
                                                         for a in n.names) for n in ast.walk(m.tree)):
                raise _Unknown
        return found


def _refers_to_import(m: _Module, name: str) -> bool:
    """Whether the module's top-level `name` is an imported one (not a class or function it defines itself)."""
    defines = any(isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
                  for n in m.tree.body)
    imports = any(isinstance(n, ast.ImportFrom) and any(a.name == name for a in n.names) for n in ast.walk(m.tree))
    return imports and not defines


def _enclosing(mod: _Module, node):
    """(function, class or None) around a node."""
    p = mod.parents.get(node)
    while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
        p = mod.parents.get(p)
    if p is None:
        return None, None
    cls = mod.parents.get(p)
    return p, cls if isinstance(cls, ast.ClassDef) else None


def _none_default_params(fn) -> dict:
    """name -> positional index (None for keyword-only) of the parameters whose default is None."""
    a = fn.args
    pos = a.posonlyargs + a.args
    out = {}
    for i, (arg, d) in enumerate(zip(pos[len(pos) - len(a.defaults):], a.defaults)):
        if isinstance(d, ast.Constant) and d.value is None:
            out[arg.arg] = pos.index(arg)
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if isinstance(d, ast.Constant) and d.value is None:
            out[arg.arg] = None
    return out


def _reassigned(fn, name: str) -> bool:
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
            return True
    return False


def _is_method(fn, cls) -> bool:
    return cls is not None and not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)


def _bound_value(call: ast.Call, param: str, index, method: bool):
    """The expression a call passes for the parameter, None when nothing is passed; _Unknown for spreads."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise _Unknown
    for k in call.keywords:
        if k.arg == param:
            return k.value
    if index is not None:
        i = index - (1 if method else 0)
        if 0 <= i < len(call.args):
            return call.args[i]
    return None


class _Search:
    def __init__(self, project: _Project):
        self.project = project

    def never_passed(self, mod: _Module, fn, cls, param: str, depth: int, seen: frozenset) -> bool:
        key = (mod.rel, fn.lineno, param)
        if depth > MAX_DEPTH or key in seen:
            raise _Unknown
        seen = seen | {key}
        params = _none_default_params(fn)
        if param not in params or _reassigned(fn, param):
            raise _Unknown
        index = params[param]
        method = _is_method(fn, cls)
        calls = self._calls(mod, fn, cls)
        if not calls:
            raise _Unknown  # nobody in the project calls it: a public API
        for cmod, call in calls:
            value = _bound_value(call, param, index, method)
            if value is None or (isinstance(value, ast.Constant) and value.value is None):
                continue
            if isinstance(value, ast.Name):
                cfn, ccls = _enclosing(cmod, call)
                if cfn is not None and self.never_passed(cmod, cfn, ccls, value.id, depth + 1, seen):
                    continue
            raise _Unknown
        return True

    def _calls(self, mod, fn, cls) -> list:
        if cls is None:
            return self._function_calls(fn.name)
        if fn.name in ("forward", "__call__"):
            return self._instance_calls(cls.name, mod)
        if fn.name.startswith("__"):
            raise _Unknown
        return self._method_calls(mod, cls, fn.name)

    def _method_calls(self, mod, cls, name) -> list:
        """`self.name(...)` inside the class; any other `.name` in the project is a use not followed."""
        out = []
        for rel in self.project.spelling(name):
            m = self.project.module(rel)
            if m is None:
                raise _Unknown
            for n in ast.walk(m.tree):
                if isinstance(n, ast.Attribute) and n.attr == name:
                    call = m.parents.get(n)
                    owner = _enclosing(m, n)[1]
                    on_self = isinstance(n.value, ast.Name) and n.value.id == "self"
                    if on_self and owner is not None and owner is not cls and m is not mod:
                        continue  # another class's own method of the same name (subclasses are checked below)
                    if on_self and owner is cls and isinstance(call, ast.Call) and call.func is n:
                        out.append((m, call))
                    elif on_self and owner is not None and owner is not cls and owner.name != cls.name:
                        continue
                    else:
                        raise _Unknown
        self._no_subclass(cls.name)
        return out

    def _function_calls(self, name) -> list:
        out = []
        for rel in self.project.spelling(name):
            m = self.project.module(rel)
            if m is None:
                raise _Unknown
            for n in ast.walk(m.tree):
                if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
                    call = m.parents.get(n)
                    if isinstance(call, ast.Call) and call.func is n:
                        out.append((m, call))
                    else:
                        raise _Unknown
                elif isinstance(n, ast.Attribute) and n.attr == name:
                    raise _Unknown  # `module.name(...)`, `obj.name`: not followed
        return out

    def _no_subclass(self, cname):
        for rel in self.project.spelling(cname):
            m = self.project.module(rel)
            if m is None:
                raise _Unknown
            for n in ast.walk(m.tree):
                if isinstance(n, ast.ClassDef) and any(
                        (isinstance(b, ast.Name) and b.id == cname) or (isinstance(b, ast.Attribute) and b.attr == cname)
                        for b in n.bases):
                    raise _Unknown

    def _instance_calls(self, cname, home) -> list:
        """Calls of instances of the class: `self.x = C(...)` / `x = C(...)`, then `self.x(...)` / `x(...)`."""
        out = []
        for rel in self.project.spelling(cname):
            m = self.project.module(rel)
            if m is None:
                raise _Unknown
            if m is not home and not _refers_to_import(m, cname):
                continue  # the file's own class of that name, or the name only in text
            for n in ast.walk(m.tree):
                if isinstance(n, ast.ClassDef) and n.name == cname:
                    continue
                named = (isinstance(n, ast.Name) and n.id == cname and isinstance(n.ctx, ast.Load)) or \
                    (isinstance(n, ast.Attribute) and n.attr == cname)
                if not named:
                    continue
                call = m.parents.get(n)
                if isinstance(call, ast.Call) and call.args and call.args[-1] is n and \
                        isinstance(call.func, ast.Name) and call.func.id in ("isinstance", "issubclass"):
                    continue
                if not (isinstance(call, ast.Call) and call.func is n):
                    raise _Unknown  # a base class, a value stored or passed: not followed
                out += self._calls_of_instance(m, call)
        return out

    def _calls_of_instance(self, m, construct) -> list:
        st = m.parents.get(construct)
        if isinstance(st, ast.Call) and st.func is construct:
            return [(m, st)]  # `Attention(dim)(x)`
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and st.value is construct):
            raise _Unknown
        target = st.targets[0]
        fn, cls = _enclosing(m, st)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            if cls is None:
                raise _Unknown
            scope, attr = cls, target.attr

            def is_ref(n):
                return isinstance(n, ast.Attribute) and n.attr == attr and isinstance(n.value, ast.Name) \
                    and n.value.id == "self"
        elif isinstance(target, ast.Name) and fn is not None:
            scope, name = fn, target.id

            def is_ref(n):
                return isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        else:
            raise _Unknown
        out = []
        for n in ast.walk(scope):
            if not is_ref(n) or isinstance(n.ctx, ast.Store):
                continue  # another assignment of the name: its calls are counted all the same
            parent = m.parents.get(n)
            if isinstance(parent, ast.Call) and parent.func is n:
                out.append((m, parent))
            elif isinstance(parent, ast.Attribute) and parent.value is n and parent.attr not in ("forward", "__call__"):
                continue  # `self.attn.set_processor(...)`: a method of the module, not a call of it
            else:
                raise _Unknown
        if isinstance(target, ast.Attribute):
            self._no_subclass(scope.name)  # a subclass could call `self.attn(x, mask)`
        return out


def _mask_params(mod: _Module, line: int):
    """(function, class, [parameter names]) of the attention call on the line whose mask keywords all name
    parameters; None when any mask keyword is something else."""
    for n in ast.walk(mod.tree):
        if not (isinstance(n, ast.Call) and n.lineno <= line <= (n.end_lineno or n.lineno)):
            continue
        masks = [k for k in n.keywords if k.arg and "mask" in k.arg]
        if not masks or n.lineno != line and not any(k.value.lineno == line for k in masks):
            continue
        fn, cls = _enclosing(mod, n)
        if fn is None:
            return None
        names = []
        for k in masks:
            if isinstance(k.value, ast.Constant) and k.value.value is None:
                continue
            if not isinstance(k.value, ast.Name):
                return None
            names.append(k.value.id)
        return (fn, cls, names) if names else None
    return None


def drop_unpassed_masks(findings: list, files) -> list:
    """Findings of the attention-mask rules whose mask parameter no call of the project fills are dropped."""
    todo = [f for f in findings if f.rule in RULES and not f.suppressed]
    if not todo:
        return findings
    project = _Project(files)
    search = _Search(project)
    drop = set()
    for f in todo:
        mod = project.module(f.path)
        if mod is None:
            continue
        got = _mask_params(mod, f.line)
        if got is None:
            continue
        fn, cls, names = got
        try:
            if all(search.never_passed(mod, fn, cls, p, 0, frozenset()) for p in names):
                drop.add(id(f))
        except (_Unknown, RecursionError):
            continue
    return [f for f in findings if id(f) not in drop]
