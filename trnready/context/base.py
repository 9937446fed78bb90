"""The predicate record, the registry and the per-file context predicates read.

A context predicate answers one yes/no question about a match in its surroundings
("is this reference inside a CUDA-availability branch?"). A rule names the ones it
uses (`unless = ["cuda-checked"]` on a [[rule.match]]); the catalogue's [context]
table names the ones applied to every rule. Effects:

- ``drop``: the match is not a finding (it is someone else's concern, or not a use at all);
- ``guard``: the match is a finding marked ``guarded`` (the code never runs on a Neuron
  machine); guarded findings are left out of the default report and never counted.
"""
from __future__ import annotations

import ast
import fnmatch
import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Callable

from ..astwalk import _FIELDS, _fields
from ..astwalk import walk as walk_nodes

# drop: the match is no finding. guard: a finding marked guarded (not counted, listed with --show-guarded).
# advisory: the finding stays but at advisory severity and medium confidence; a str returned by the test names
# the switch and goes into the message (an opt-in mode the default path never takes).
EFFECTS = ("drop", "guard", "advisory")
PYTHON_KINDS = ("call", "method", "reference", "import", "decorator", "device", "keyword", "env", "subscript",
                "syntax")


@dataclass(frozen=True)
class Predicate:
    name: str
    test: Callable[["FileContext", Any], bool]  # (context, hit) -> True when the predicate holds
    kinds: tuple[str, ...]  # matcher kinds it is meaningful for; elsewhere it never holds
    effect: str
    doc: str
    # an advisory predicate's note on the finding, `{held}` standing for the text the predicate returned
    note: str = ""


REGISTRY: dict[str, Predicate] = {}


def predicate(name: str, kinds: tuple[str, ...] = PYTHON_KINDS, effect: str = "drop", note: str = ""):
    """Register `fn(ctx, hit) -> bool` under `name`; its docstring is the reference text. `note`: for an advisory
    predicate returning text, the note the lowered finding carries (`{held}` is that text)."""
    if effect not in EFFECTS:
        raise ValueError(f"effect must be one of {EFFECTS}")

    def wrap(fn):
        if name in REGISTRY:
            raise ValueError(f"context predicate {name!r} is registered twice")
        REGISTRY[name] = Predicate(name, fn, tuple(kinds), effect, (fn.__doc__ or "").strip(), note)
        return fn
    return wrap


@dataclass
class ProjectFacts:
    """What is known about the scanned project as a whole (computed once per scan)."""

    own_packages: frozenset = frozenset()


@dataclass
class FileContext:
    """Everything known about one file while it is matched.

    Built per file by the engine and dropped afterwards, so no file's state leaks
    into the next through the shared Engine or Resolver. `memo` keeps facts a
    predicate computed lazily (most files never need them)."""

    index: Any  # trnready.index.FileIndex
    tree: ast.AST | None
    resolver: Any  # the per-file view of trnready.resolve.Resolver
    values: dict  # [context.values] of the catalogue: data lists predicates read
    project: ProjectFacts = field(default_factory=ProjectFacts)
    memo: dict = field(default_factory=dict)
    path: str = ""  # the file's path relative to the scanned root, "/"-separated ("" when unknown)

    def fact(self, key: str, compute: Callable[["FileContext"], Any]):
        if key not in self.memo:
            self.memo[key] = compute(self)
        return self.memo[key]

    def statements(self) -> list:
        """Every statement of the file, outer before inner (so sorted by start); expressions not walked."""
        found = self.memo.get("_statements")
        if found is None:
            found = self.memo["_statements"] = statements_of(self.tree)
            self.memo["_starts"] = [(st.lineno, st.col_offset) for st in found]
        return found

    def statement_at(self, pos: tuple[int, int]):
        """The innermost statement holding the position (line, column offset), or None."""
        stmts = self.statements()
        # Going back from the last statement starting at or before pos, the first that still contains it
        # is the innermost: a later-starting one is nested in it or starts after it ends.
        for i in range(bisect_right(self.memo["_starts"], pos) - 1, -1, -1):
            st = stmts[i]
            if pos < (st.end_lineno, st.end_col_offset):
                return st
        return None

    def _holder(self, pos: tuple[int, int], node):
        """The innermost statement other than `node` holding the position, or None (statement_at)."""
        stmts = self.statements()
        for i in range(bisect_right(self.memo["_starts"], pos) - 1, -1, -1):
            st = stmts[i]
            if st is not node and pos < (st.end_lineno, st.end_col_offset):
                return st
        return None

    def nodes(self, kind: type) -> list:
        """Every node of that type in the file, in tree order. One walk per file, shared by all predicates;
        statements (defs, ifs, assignments) come from a walk of the statements alone until that is done, and so
        do `except` handlers and `case` arms, which only a statement's block holds (the walk of the statements
        meets them as it descends)."""
        walked = self.memo.get("_walk")
        if walked is None and (issubclass(kind, ast.stmt) or kind in _IN_BLOCKS):
            table = self.memo.get("_stmt_table")
            if table is None:
                table = self.memo["_stmt_table"] = _by_type(_tree_order(
                    self.tree.body if self.tree is not None else [], []))
            return table.get(kind, [])
        return self._walked()[0].get(kind, [])

    def calls(self) -> list:
        """Every Call node of the file: the index already collected them (no walk), else from the by-type table."""
        found = getattr(self.index, "every_call", None)
        return found if found is not None else self.nodes(ast.Call)

    def compares(self) -> list:
        """Every Compare node of the file: from the index when it collected them (no walk), else the by-type table."""
        found = getattr(self.index, "every_compare", None)
        return found if found is not None else self.nodes(ast.Compare)

    def parents(self) -> dict:
        """id(node) -> the node directly holding it, for the whole file (one walk, built on first use)."""
        return self._walked()[1]

    def parent(self, node):
        """The node directly holding `node` (None at the top or outside the file). Most files ask this of a
        few nodes only: their ancestors are found by descending from the module through the nodes whose
        source span holds theirs, and the whole-file map is built only when that fails (decorators,
        nodes without a position) or has been built anyway."""
        held = getattr(node, "trnready_call", None)
        if held is not None:  # the stand-in import statement of `importlib.import_module("x")` (index.py)
            return held
        walked = self.memo.get("_walk")
        if walked is not None:
            return walked[1].get(id(node))
        near = self.memo.get("_near")
        if near is None:
            near = self.memo["_near"] = {}
        found = near.get(id(node), near)
        if found is not near:
            return found
        if self.tree is not None and getattr(node, "lineno", None) is not None:
            # a node's parent is inside the innermost other statement holding its start: descending from that
            # statement instead of the module skips every statement of the bodies above it (a path found is the
            # node's one path in the tree; when the statement does not hold the node, the module is searched)
            st = self._holder((node.lineno, node.col_offset), node)
            path = _path_to(st, node) if st is not None else None
            if path is not None and len(path) > 1:
                for up, down in zip(path, path[1:]):
                    near[id(down)] = up
                return near[id(node)]
        path = _path_to(self.tree, node) if self.tree is not None else None
        if path is None:
            return self.parents().get(id(node))
        for up, down in zip(path, path[1:]):
            near[id(down)] = up
        near[id(path[0])] = None
        return near[id(node)]

    def may_name(self, word: str) -> bool:
        """False only when no identifier of the file can be `word` (an ASCII identifier): its source text, kept on
        the tree by the reader, does not hold the word. A cheap first look before a walk of every node; True when
        the text is unknown. Python reads identifiers NFKC-normalised (`ｃompile` is `compile`), so a non-ASCII
        text is looked at normalised."""
        text = getattr(self.tree, "trnready_text", None)
        if text is None or word in text:
            return True
        if text.isascii():
            return False
        normal = self.memo.get("_nfkc")
        if normal is None:
            normal = self.memo["_nfkc"] = unicodedata.normalize("NFKC", text)
        return word in normal

    def _walked(self) -> tuple:
        found = self.memo.get("_walk")
        if found is None:
            found = self.memo["_walk"] = _walk(self.tree)
        return found


BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")

# Nodes that are not statements but sit in a statement's block list (`handlers`, `cases`): _tree_order lists them
_IN_BLOCKS = (ast.ExceptHandler, ast.match_case)


_BLOCKS_OF: dict = {}  # node type -> the BLOCK_FIELDS it has (none for a simple statement)


def blocks_of(kind: type) -> tuple:
    found = _BLOCKS_OF.get(kind)
    if found is None:
        found = _BLOCKS_OF[kind] = tuple(n for n in BLOCK_FIELDS if n in kind._fields)
    return found


_IN_ORDER: dict = {}  # node type -> its BLOCK_FIELDS in the order _walk meets them (last field first)


def _tree_order(stmts, out: list) -> list:
    """Statements (and the handlers and cases holding them) in the order _walk meets them: its stack
    takes a node's fields last to first (an `if`'s else before its body), each list in order."""
    for s in stmts:
        out.append(s)
        kind = type(s)
        names = _IN_ORDER.get(kind)
        if names is None:
            names = _IN_ORDER[kind] = tuple(n for n in reversed(kind._fields) if n in BLOCK_FIELDS)
        for name in names:
            inner = getattr(s, name, None)
            if inner:
                _tree_order(inner, out)
    return out


def _by_type(nodes) -> dict:
    table: dict = {}
    for node in nodes:
        lst = table.get(type(node))
        if lst is None:
            table[type(node)] = [node]
        else:
            lst.append(node)
    return table


def _statements(stmts, out: list) -> list:
    for s in stmts:
        if hasattr(s, "lineno"):  # match_case holds statements but has no position of its own
            out.append(s)
        for name in blocks_of(type(s)):
            inner = getattr(s, name, None)
            if inner:
                _statements(inner, out)
    return out


def statements_of(tree) -> list:
    """Every statement of the module, outer before inner. Kept on the tree: the predicates and the
    project summary of the same file share one list (callers must not change it)."""
    if tree is None:
        return []
    found = getattr(tree, "trnready_statements", None)
    if found is None:
        found = _statements(tree.body, [])
        try:
            tree.trnready_statements = found
        except AttributeError:
            pass
    return found


def expressions(stmt):
    """The expression nodes of one statement itself (not of the statements nested in its body)."""
    stack = [getattr(stmt, f) for f in stmt._fields if f not in BLOCK_FIELDS]
    while stack:
        v = stack.pop()
        if type(v) is list:
            stack.extend(v)
        elif isinstance(v, ast.AST) and not isinstance(v, ast.stmt):
            yield v
            stack.extend(getattr(v, f, None) for f in v._fields)


def expressions_of(stmt, kinds: tuple) -> list:
    """The nodes of those types among `expressions(stmt)`, in the same order: one plain loop, without a generator
    step and a call per expression node (a predicate that acts on a few kinds of expression walks every
    statement of the file)."""
    out: list = []
    table, AST, stmt_type = _FIELDS, ast.AST, ast.stmt
    stack = [getattr(stmt, f) for f in stmt._fields if f not in BLOCK_FIELDS]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        v = pop()
        if type(v) is list:
            extend(v)
        elif isinstance(v, AST) and not isinstance(v, stmt_type):
            k = type(v)
            if k in kinds:
                out.append(v)
            fields = table.get(k)
            if fields is None:
                fields = _fields(k)
            for f in fields:
                push(getattr(v, f, None))
    return out


def _span(node):
    """(start, end) positions of a node including its decorators; None for a node without a position."""
    line = getattr(node, "lineno", None)
    if line is None or getattr(node, "end_lineno", None) is None:
        return None
    start = (line, node.col_offset)
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        first = decorators[0]
        start = min(start, (first.lineno, first.col_offset))
    return start, (node.end_lineno, node.end_col_offset)


def _path_to(tree, target) -> list | None:
    """[tree, ..., target]: the chain of nodes holding target, or None when target has no position or is
    not found by descending only into nodes whose span holds target's (the caller then walks the file)."""
    if target is tree:
        return [tree]
    want = _span(target)
    if want is None:
        return None
    (start, end), AST = want, ast.AST
    up: dict = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        for name in node._fields:
            value = getattr(node, name, None)
            for child in (value if type(value) is list else (value,)):
                if not isinstance(child, AST):
                    continue
                if child is target:
                    path = [child, node]
                    while path[-1] is not tree:
                        path.append(up[id(path[-1])])
                    path.reverse()
                    return path
                span = _span(child)
                if span is None or (span[0] <= start and end <= span[1]):
                    up[id(child)] = node
                    stack.append(child)
    return None


def _walk(tree) -> tuple:
    """(nodes by type, in tree order; id(node) -> parent) in one plain stack over _fields: several times
    faster than ast.walk + iter_child_nodes, which the predicates would otherwise each repeat."""
    table: dict = {}
    parents: dict = {}
    if tree is None:
        return table, parents
    stack = [tree]
    pop, push, AST = stack.pop, stack.append, ast.AST
    # astwalk's per-class table of the fields that can hold a node: names, flags and constants are not read
    while stack:
        node = pop()
        k = type(node)
        lst = table.get(k)
        if lst is None:
            table[k] = [node]
        else:
            lst.append(node)
        fields = _FIELDS.get(k)
        if fields is None:
            fields = _fields(k)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in reversed(value):
                    if isinstance(item, AST):
                        parents[id(item)] = node
                        push(item)
            elif isinstance(value, AST):
                parents[id(value)] = node
                push(value)
    return table, parents


def is_cpu(e) -> bool:
    """"cpu", "cpu:0" or torch.device("cpu")."""
    if type(e) is ast.Call and dotted(e.func) in ("torch.device", "device") and len(e.args) == 1 and not e.keywords:
        e = e.args[0]
    return type(e) is ast.Constant and isinstance(e.value, str) and e.value.split(":")[0] == "cpu"


def host_or_dtype(e) -> bool:
    """A `.to(...)` argument that keeps the tensor on the host: "cpu" or a dtype (`torch.float16`, `x.dtype`, a
    name that says it holds one: `.to(dtype)`, `.to(out_dtype)`)."""
    return is_cpu(e) or dotted(e).startswith("torch.") and dotted(e) != "torch.device" or \
        type(e) is ast.Attribute and e.attr == "dtype" or \
        type(e) is ast.Name and (e.id == "dtype" or e.id.endswith("_dtype"))


def places_on_device(call) -> bool:
    """The call puts something on a device: `.cuda()`, `.to(x)` with anything but a dtype or "cpu", or a
    `device=` keyword other than "cpu"."""
    f = call.func
    if type(f) is ast.Attribute and f.attr == "cuda":
        return True
    if type(f) is ast.Attribute and f.attr == "to":
        args = list(call.args[:1]) + [k.value for k in call.keywords if k.arg == "device"]
        if any(not host_or_dtype(a) for a in args):
            return True
    return any(k.arg == "device" and not is_cpu(k.value) for k in call.keywords)


def imported_name(ctx: "FileContext", func) -> tuple[str, bool]:
    """(full name, bound by an import of the file) of a call's callee: `torch.manual_seed` also through
    `import torch as th` or `from torch import manual_seed`, resolved by the file's own imports; the dotted name
    as written (and False) when no import binds its root, "" for a callee that is not a dotted name."""
    name = dotted(func)
    if not name:
        return "", False
    root, _, rest = name.partition(".")
    module = ctx.index.module
    for b in (ctx.resolver.lookup(module, root) if module is not None else None) or ():
        if b.kind == "import" and isinstance(b.value, str):
            return ctx.resolver.canonical(b.value + ("." + rest if rest else "")), True
    return name, False


def placements(call) -> list:
    """The places a call names for its result: its `device=` keywords, and the first argument of `.to(x)`
    (`.cuda()` names none: it always means the GPU)."""
    args = [k.value for k in call.keywords if k.arg == "device"]
    if type(call.func) is ast.Attribute and call.func.attr == "to":
        args += list(call.args[:1])
    return args


@lru_cache(maxsize=64)
def _globs(patterns: tuple):
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)) if patterns else None


def name_globs(ctx: "FileContext", key: str):
    """A compiled matcher for the glob patterns of `[context.values] key` (None when there are none).
    Compiled once per pattern list, not once per file."""
    return _globs(tuple(ctx.values.get(key, ())))


def root_name(node) -> str | None:
    while type(node) is ast.Attribute:
        node = node.value
    return node.id if type(node) is ast.Name else None


def compiles(ctx: "FileContext") -> bool:
    """The file names `torch.compile` (`torch.compile(model)`, `@torch.compile`, `compile_fn=torch.compile`): its
    code may be traced. Asked of the text first: most files never spell `compile`, and the answer otherwise
    needs a walk of every node."""
    return ctx.fact("compiles", lambda c: c.may_name("compile") and any(
        dotted(n).endswith("torch.compile") for n in c.nodes(ast.Attribute)))


def parent_of(ctx: "FileContext", node):
    """The syntax node directly holding `node` (None at the top)."""
    return ctx.parent(node)


def call_taking(ctx: "FileContext", node, up: int = 3):
    """The call `node` is an argument of (or sits inside, at most `up` levels down: `dtype=torch.float64` is
    keyword -> call), not looking past a statement, lambda or comprehension; None when it is the called function."""
    for _ in range(up):
        parent = parent_of(ctx, node)
        if parent is None or isinstance(parent, (ast.stmt, ast.Lambda, ast.comprehension)):
            return None
        if type(parent) is ast.Call:
            return parent if node is not parent.func else None
        node = parent
    return None


def call_built_by(ctx: "FileContext", node):
    """The call whose callee is `node` (or the attribute chain `node` starts), or `node` itself when it is one."""
    if type(node) is ast.Call:
        return node
    top, up = node, parent_of(ctx, node)
    while type(up) is ast.Attribute and up.value is top:
        top, up = up, parent_of(ctx, up)
    return up if type(up) is ast.Call and up.func is top else None


def assigned_name(ctx: "FileContext", value) -> tuple | None:
    """(name, enclosing function) when `value` is the whole right side of `name = value` inside a function."""
    up = parent_of(ctx, value)
    if type(up) is not ast.Assign or len(up.targets) != 1 or type(up.targets[0]) is not ast.Name:
        return None
    fn = enclosing_function(ctx, up)
    return (up.targets[0].id, fn) if fn is not None else None


def call_scope(ctx: "FileContext", call):
    """The resolver scope a call of the file was indexed in (the module scope when it is not one of them)."""
    scopes = ctx.memo.get("_call_scopes")
    if scopes is None:
        scopes = ctx.memo["_call_scopes"] = {id(node): scope for node, scope in ctx.index.calls}
    return scopes.get(id(call), ctx.index.module)


def subscript_scope(ctx: "FileContext", node):
    """The resolver scope a subscript of the file was indexed in (the module scope when it is not one of them)."""
    scopes = ctx.memo.get("_subscript_scopes")
    if scopes is None:
        scopes = ctx.memo["_subscript_scopes"] = {id(n): scope for n, scope in ctx.index.subscripts}
    return scopes.get(id(node), ctx.index.module)


def enclosing_try_bodies(ctx: "FileContext", node):
    """The `try` statements, innermost first, whose body (not a handler, `else` or `finally`) holds `node`, up to
    its function, class or lambda."""
    child, up = node, parent_of(ctx, node)
    while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        if isinstance(up, ast.Try) and any(st is child for st in up.body):
            yield up
        child, up = up, parent_of(ctx, up)


def caught_names(handler: ast.ExceptHandler) -> set | None:
    """The last part of each exception type an `except` clause names (`except (OSError, torch.cuda.OutOfMemoryError):`
    -> {"OSError", "OutOfMemoryError"}); None for a bare `except:`."""
    if handler.type is None:
        return None
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "") for t in types}


def enclosing_function(ctx: "FileContext", node):
    """The innermost def/async def holding `node`, or None at module or class level."""
    p = parent_of(ctx, node)
    while p is not None and type(p) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        p = parent_of(ctx, p)
    return p


def outermost_function(ctx: "FileContext", node):
    """The outermost def/async def holding `node` (a test function around its nested helpers), or None."""
    fn = enclosing_function(ctx, node)
    while fn is not None:
        up = enclosing_function(ctx, fn)
        if up is None:
            return fn
        fn = up
    return None


def imported_roots(ctx: "FileContext", dropped: frozenset = frozenset()) -> set:
    """The top-level modules the file imports absolutely (`import a.b`, `from a.b import c`: `a`); an `import x` of a
    name in `dropped` (a name the file deletes again) does not count."""
    roots = {a.name.split(".", 1)[0] for n in ctx.nodes(ast.Import) for a in n.names
             if not (a.asname is None and "." not in a.name and a.name in dropped)}
    roots |= {n.module.split(".", 1)[0] for n in ctx.nodes(ast.ImportFrom) if not n.level and n.module}
    return roots


def dotted(node) -> str:
    """`torch.int32` for an attribute chain of names, "" otherwise."""
    parts = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


def stored_target(ctx: "FileContext", node):
    """The assignment target `node` is, or is the object of (`torch.cuda.memory` in
    `torch.cuda.memory.mem_get_info = f`): the outermost attribute of its chain when that is written or
    deleted, else None. `x.y.z = v` writes x.y.z; x and x.y are only read to find the object."""
    top = node
    up = parent_of(ctx, top)
    while type(up) is ast.Attribute and up.value is top:
        top, up = up, parent_of(ctx, up)
    if type(top) in (ast.Attribute, ast.Name) and type(top.ctx) in (ast.Store, ast.Del):
        return top
    return None


def size_argument(hit, name: str):
    """The argument `name` of a `torch.f(x, name)` / `x.f(name)` match (the hit's call), by keyword first, then by
    position (1 for a function, 0 for a method); None when absent or passed through `*args`. For predicates that
    judge a size argument (`k` of topk, `repeats` of repeat_interleave)."""
    call = hit.node
    position = 0 if hit.matcher.kind == "method" else 1
    value = next((kw.value for kw in call.keywords if kw.arg == name), None)
    if value is None and len(call.args) > position:
        value = call.args[position]
    return None if value is None or type(value) is ast.Starred else value


def not_none_arguments(hit) -> list:
    """The `is-not-none` argument predicates of a call hit's matcher (the arguments a rule needs passed), or []."""
    if type(hit.node) is not ast.Call:
        return []
    return [p for p in hit.matcher.args if p.op == "is-not-none"]


def argument_of(p, call: ast.Call):
    """The expression a call passes for an argument predicate's argument (`p.name` by keyword first, then
    `p.position`, unless a `*args` comes before it), else None."""
    if p.name is not None:
        for kw in call.keywords:
            if kw.arg == p.name:
                return kw.value
    if p.position is not None and p.position < len(call.args) \
            and not any(type(a) is ast.Starred for a in call.args[:p.position + 1]):
        return call.args[p.position]
    return None


def runs_as_script(tree) -> bool:
    """The module runs something when started: an `if __name__ == "__main__":` block, a call at its top level, or a
    loop there (Reservoir_Pytorch's `Serial_Sweep.py` runs its whole sweep in a top-level `for`; a module of
    definitions alone is a library whose callers decide what runs)."""
    for st in tree.body:
        if type(st) is ast.Expr and type(st.value) is ast.Call or type(st) in (ast.For, ast.While, ast.AsyncFor):
            return True
        if type(st) is ast.If and type(st.test) is ast.Compare and type(st.test.left) is ast.Name \
                and st.test.left.id == "__name__":
            return True
    return False


def value_bound_once(fn, name: str):
    """The value of the one plain assignment binding `name` in `fn` (nested functions included), or None when the
    name is a parameter, bound some other way (a loop, `with`, `+=`, unpacking) or bound more than once."""
    value, stores = None, 0
    for n in walk_nodes(fn):
        t = type(n)
        if t is ast.Name and n.id == name and type(n.ctx) is not ast.Load:
            stores += 1
        elif t is ast.arg and n.arg == name:
            return None
        elif t is ast.Assign and any(type(x) is ast.Name and x.id == name for x in n.targets):
            value = n.value
    return value if stores == 1 else None
