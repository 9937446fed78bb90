"""The module names a build call produces when its `name` is computed, not written (summary `exts`).

A setup.py often builds its extensions through a helper of its own:

```python
def make_cuda_ext(name, module, sources):
    return CUDAExtension(name='%s.%s' % (module, name), sources=[...])

ext_modules=[make_cuda_ext(name='iou3d_nms_cuda', module='pcdet.ops.iou3d_nms', sources=[...])]
```

or picks the name from a table (`name=names.get(MODE)` with `names = dict(oflex="selective_scan_cuda_oflex")` and
`for MODE in MODES`). `possible_names` evaluates the name expression over literal values only: the parameters of
the module-level function holding the build call, bound by each call of that function in the same file (literal
arguments and defaults), names bound once in that function or at module level to a literal, a literal table, or a
loop over a literal list. `%` formatting, `str.format`, `+`, f-strings and `.get` / `[...]` on a table are
followed; anything else leaves the name unknown (nothing is guessed). A table looked up with an unknown key gives
every value it holds.
"""
from __future__ import annotations

import ast
import itertools
from ..astwalk import walk
from .syntax import dotted

MAX_VALUES = 32  # possible values of one expression (a product of tables stays small)
MAX_DEPTH = 6  # names followed through other names


def _holder(tree: ast.Module, call: ast.Call):
    """The module-level function whose body holds the call, or None."""
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.lineno <= call.lineno <= (st.end_lineno or 0):
            return st
    return None


def _single_assigns(body_owner) -> dict:
    """name -> value of the names bound exactly once by `name = value` (also in loops, comprehensions aside)."""
    seen: dict = {}
    nodes = walk(body_owner) if not isinstance(body_owner, ast.Module) else iter(body_owner.body)
    for n in nodes:
        if type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name:
            name = n.targets[0].id
            seen[name] = None if name in seen else n.value
    return {k: v for k, v in seen.items() if v is not None}


def _loop_targets(func) -> dict:
    """name -> the iterable of the `for NAME in ...` loops and comprehensions of the function (bound once)."""
    seen: dict = {}
    for n in walk(func):
        pairs: list = []
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            pairs = [(g.target, g.iter) for g in n.generators]
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            pairs = [(n.target, n.iter)]
        for target, it in pairs:
            if type(target) is ast.Name:
                seen[target.id] = None if target.id in seen else it
    return {k: v for k, v in seen.items() if v is not None}


class _Eval:
    def __init__(self, tree: ast.Module, func, bound: dict):
        self.module = _single_assigns(tree)
        self.local = _single_assigns(func) if func is not None else {}
        self.loops = _loop_targets(func) if func is not None else {}
        self.bound = bound  # parameter -> list of possible values

    def name(self, ident: str, depth: int):
        if ident in self.bound:
            return self.bound[ident]
        if ident in self.loops:
            items = self.value(self.loops[ident], depth + 1)
            if items is not None and len(items) == 1 and isinstance(items[0], (list, tuple)):
                return list(items[0])[:MAX_VALUES]
            return None
        if ident in self.local:
            return self.value(self.local[ident], depth + 1)
        if ident in self.module:
            return self.value(self.module[ident], depth + 1)
        return None

    def value(self, node, depth: int = 0):
        """The possible values of an expression (a list), or None when one of them is unknown."""
        if depth > MAX_DEPTH or node is None:
            return None
        k = type(node)
        if k is ast.Constant:
            return [node.value]
        if k is ast.Name:
            return self.name(node.id, depth)
        if k in (ast.List, ast.Tuple):
            parts = [self.value(e, depth + 1) for e in node.elts]
            if any(p is None or len(p) != 1 for p in parts):
                return None
            return [tuple(p[0] for p in parts if p)]
        if k is ast.Dict:
            return self._table(node.keys, node.values, depth)
        if k is ast.Call and type(node.func) is ast.Name and node.func.id == "dict" and not node.args:
            return self._table([ast.Constant(kw.arg) if kw.arg else None for kw in node.keywords],
                               [kw.value for kw in node.keywords], depth)
        if k is ast.BinOp:
            return self._binop(node, depth)
        if k is ast.JoinedStr:
            return self._fstring(node, depth)
        if k is ast.Subscript:
            return self._lookup(node.value, node.slice, depth)
        if k is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "get" and node.args:
            return self._lookup(node.func.value, node.args[0], depth)
        if k is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "format" \
                and type(node.func.value) is ast.Constant and isinstance(node.func.value.value, str):
            return self._format(node, depth)
        return None

    def _format(self, node: ast.Call, depth: int):
        """`"{}.{}".format(module, name)`: positional and keyword arguments, each a literal str or int."""
        template = node.func.value.value if type(node.func) is ast.Attribute and type(node.func.value) is ast.Constant \
            else None
        if not isinstance(template, str) or any(kw.arg is None for kw in node.keywords):
            return None
        args = [self.value(a, depth + 1) for a in node.args]
        names = [str(kw.arg) for kw in node.keywords]
        kws = [self.value(kw.value, depth + 1) for kw in node.keywords]
        if any(v is None or not all(isinstance(x, (str, int)) for x in v) for v in (*args, *kws)):
            return None
        out: list = []
        for combo in itertools.islice(itertools.product(*args, *kws), MAX_VALUES):
            try:
                out.append(template.format(*combo[:len(args)], **dict(zip(names, combo[len(args):]))))
            except (IndexError, KeyError, ValueError):
                return None
        return out

    def _table(self, keys, values, depth: int):
        out: dict = {}
        for key, val in zip(keys, values):
            kv, vv = self.value(key, depth + 1), self.value(val, depth + 1)
            if kv is None or vv is None or len(kv) != 1 or len(vv) != 1:
                return None
            out[kv[0]] = vv[0]
        return [out]

    def _lookup(self, table_node, key_node, depth: int):
        table = self.value(table_node, depth + 1)
        if table is None or len(table) != 1 or not isinstance(table[0], dict):
            return None
        keys = self.value(key_node, depth + 1)
        if keys is None:  # an unknown key: any value of the table
            return list(dict.fromkeys(table[0].values()))[:MAX_VALUES]
        got = [table[0][k] for k in keys if isinstance(k, (str, int)) and k in table[0]]
        return got or None

    def _binop(self, node: ast.BinOp, depth: int):
        left, right = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
        if left is None or right is None:
            return None
        out: list = []
        for a, b in itertools.islice(itertools.product(left, right), MAX_VALUES):
            try:
                if type(node.op) is ast.Mod and isinstance(a, str):
                    out.append(a % b)
                elif type(node.op) is ast.Add and isinstance(a, str) and isinstance(b, str):
                    out.append(a + b)
                else:
                    return None
            except (TypeError, ValueError):
                return None
        return out

    def _fstring(self, node: ast.JoinedStr, depth: int):
        parts: list = []
        for v in node.values:
            if type(v) is ast.Constant:
                parts.append([str(v.value)])
            elif type(v) is ast.FormattedValue and v.format_spec is None and v.conversion == -1:
                got = self.value(v.value, depth + 1)
                if got is None or not all(isinstance(x, (str, int)) for x in got):
                    return None
                parts.append([str(x) for x in got])
            else:
                return None
        return ["".join(p) for p in itertools.islice(itertools.product(*parts), MAX_VALUES)]


def _bindings(func, call: ast.Call) -> dict | None:
    """Parameter -> [literal value] for one call of the function (defaults fill the rest); None when an
    argument the call passes is not a literal."""
    args = func.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    out: dict = {}
    defaults = args.defaults
    for p, d in zip(params[len(params) - len(defaults):], defaults):
        if type(d) is ast.Constant:
            out[p] = [d.value]
    for p, d in zip((a.arg for a in args.kwonlyargs), args.kw_defaults):
        if type(d) is ast.Constant:
            out[p] = [d.value]
    for p, a in zip(params, call.args):
        if type(a) is ast.Starred:
            return None
        out[p] = [a.value] if type(a) is ast.Constant else None
    for kw in call.keywords:
        if kw.arg is None:
            return None
        out[kw.arg] = [kw.value.value] if type(kw.value) is ast.Constant else None
    return {k: v for k, v in out.items() if v is not None}


def possible_names(tree: ast.Module, call: ast.Call, expr) -> list:
    """The dotted module names `expr` (the build call's name argument) can take, [] when unknown."""
    func = _holder(tree, call)
    runs: list = [{}]
    if func is not None:
        callers = [n for n in walk(tree) if type(n) is ast.Call and type(n.func) is ast.Name
                   and n.func.id == func.name and not (func.lineno <= n.lineno <= (func.end_lineno or 0))]
        if callers:
            runs = [b for b in (_bindings(func, c) for c in callers) if b is not None]
    out: list = []
    for bound in runs:
        got = _Eval(tree, func, bound).value(expr)
        for v in got or ():
            if isinstance(v, str) and v and all(p.isidentifier() for p in v.split(".")) and v not in out:
                out.append(v)
    return out[:MAX_VALUES]


def _has_cuda_source(node) -> bool:
    return node is not None and any(type(n) is ast.Constant and isinstance(n.value, str)
                                    and n.value.endswith((".cu", ".cuh")) for n in walk(node))


def cuda_sourced_names(tree: ast.Module, call: ast.Call, expr) -> list:
    """As possible_names, for a build whose class the machine picks with a C++ fallback (`extension =
    CppExtension` unless CUDA is there): only the builds whose sources, as the build call reads them, name a CUDA
    file. The fallback compiles those sources too, and a C++ build cannot compile a .cu file, so such a module never
    builds without CUDA; sources kept for the CUDA arm (`sources += sources_cuda` there) leave a CPU build."""
    sources = next((k.value for k in call.keywords if k.arg == "sources"), call.args[1] if len(call.args) > 1 else None)
    if sources is None:
        return []
    if _has_cuda_source(sources):
        return possible_names(tree, call, expr)
    func = _holder(tree, call)
    if func is None:
        return []
    out: list = []
    for c, passed in _helper_calls(tree, func, sources):
        if not any(_has_cuda_source(a) for a in passed):
            continue
        bound = _bindings(func, c)
        if bound is None:
            continue
        for v in _Eval(tree, func, bound).value(expr) or ():
            if isinstance(v, str) and v and all(x.isidentifier() for x in v.split(".")) and v not in out:
                out.append(v)
    return out[:MAX_VALUES]


def _helper_calls(tree: ast.Module, func, sources):
    """(call, arguments) of each call of the build helper `func` outside its own body, with the arguments it passes
    to the parameters the `sources` expression reads; nothing when `sources` reads no parameter."""
    args = func.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    read = {n.id for n in walk(sources) if type(n) is ast.Name} & {*params, *(a.arg for a in args.kwonlyargs)}
    if not read:
        return
    for c in walk(tree):
        if type(c) is not ast.Call or type(c.func) is not ast.Name or c.func.id != func.name \
                or func.lineno <= c.lineno <= (func.end_lineno or 0):
            continue
        yield c, [a for p, a in zip(params, c.args) if p in read] + [k.value for k in c.keywords if k.arg in read]


def _cuda_pick_arm(func, name: str):
    """The `if` of the function whose body binds `name` to the CUDA build class (`extension = CUDAExtension`)."""
    for n in walk(func):
        if type(n) is ast.If and any(
                type(b) is ast.Assign and any(type(t) is ast.Name and t.id == name for t in b.targets)
                and (dotted(b.value) or "").endswith("CUDAExtension")
                for b in n.body):
            return n
    return None


def fallback_builds(tree: ast.Module, call: ast.Call, expr) -> list:
    """[(module name, [C++ source paths])] of the builds of a class picked with a C++ fallback whose sources, as
    the build call reads them, name no CUDA file (cuda_sourced_names leaves those out): the literal strings the
    call of the helper passes to the parameters the `sources` expression reads (`sources=["src/op_ext.cpp"]`).
    The link step reads those files: a C++ build that only checks for and dispatches to CUDA tensors gives no
    operator without CUDA (project/cpu_less_sources.py)."""
    sources = next((k.value for k in call.keywords if k.arg == "sources"), call.args[1] if len(call.args) > 1 else None)
    func = _holder(tree, call)
    if sources is None or func is None or _has_cuda_source(sources):
        return []
    out: list = []
    if type(call.func) is ast.Name:
        # sources the function collects itself (`glob.glob(os.path.join(extensions_dir, "cpu", "*.cpp"))`): the
        # paths and patterns compiled when the arm picking the CUDA class is not taken (project/source_globs.py)
        from .source_globs import glob_sources

        globbed = glob_sources(tree, func, call, sources, _cuda_pick_arm(func, call.func.id))
        if globbed:
            for v in _Eval(tree, func, {}).value(expr) or ():
                if isinstance(v, str) and v and all(x.isidentifier() for x in v.split(".")):
                    out.append((v, globbed[:8]))
            return out[:MAX_VALUES]
    for c, passed in _helper_calls(tree, func, sources):
        if any(_has_cuda_source(a) for a in passed):
            continue  # cuda_sourced_names' case
        paths = [n.value for a in passed for n in walk(a) if type(n) is ast.Constant and isinstance(n.value, str)
                 and n.value.endswith((".cpp", ".cc", ".cxx", ".c"))]
        bound = _bindings(func, c)
        if not paths or bound is None:
            continue
        for v in _Eval(tree, func, bound).value(expr) or ():
            if isinstance(v, str) and v and all(x.isidentifier() for x in v.split(".")) \
                    and all(v != o[0] for o in out):
                out.append((v, paths[:8]))
    return out[:MAX_VALUES]
