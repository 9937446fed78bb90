"""One finding per thing, the folds that join places far apart in one file (file step `one_per_thing`).

Each function maps a finding's place to a key; findings of one rule and standing with the same key are one
thing to change, reported at the first (postprocess.py keeps it, the others become its occurrences):

- `shell_assignments`: the same `NAME=value` prefix, or the same value of one option (`--nproc_per_node 8`), on many
  command lines of one shell script;
- `file_apis`: one API of a category in `[context.values] one-per-file-api-categories` used again and again in
  one file (`@custom_fwd` on each autograd Function after one `from torch.cuda.amp import custom_fwd`);
- `class_decorators`: the decorators of one class's methods (`@custom_fwd` on forward, `@custom_bwd` on backward);
- `alias_uses`: the uses of a name bound once to an API (`type_tensor = torch.cuda.FloatTensor`), which belong to
  the finding of that assignment;
- `shared_places`: findings of one rule naming the same place at match time: the plain import of a library the
  port drops (`import deepspeed`, then `deepspeed.init_distributed()` in one function and `deepspeed.initialize(...)`
  in another: one library to replace in the file), or the assignment writing the flagged value (`seed =
  0xABEDABE7`, then `g.manual_seed(seed)` twice: one value to rewrite);
- `arm_statements`: the same statement, or the same call of one API on one operand, in alternative arms of the
  branches of one block (`if` / `elif` / `else`, sibling `if`s, `try` / `except`).

A block that runs only when an imported name is true (`if HAS_APEX:`) may be guarded by a project step after the
file steps; findings inside such a block join only findings of the same block, so no fold hides a place that stays
reachable.
"""
from __future__ import annotations

import ast
import bisect
import re
from typing import Any
from .astwalk import walk
from .project.syntax import dotted as _dotted

# `NAME=value` in a shell line: the value as written (quoted, or up to a blank or a command separator).
_SHELL_VALUE = re.compile(r"""=("[^"]*"|'[^']*'|[^\s;&|)]*)""")


def shell_assignments(findings: list, ctx, result) -> dict:
    """(line, column) -> "NAME=value" for the findings of a shell script that sit on the name of a variable
    assignment (`CUDA_VISIBLE_DEVICES=2 python main.py ...`, `export CUDA_VISIBLE_DEVICES=$GPU_ID`). Quotes
    around the value do not make another value."""
    if ctx.kind != "shell" or len(findings) < 2 or not result.sources:
        return {}
    lines = result.sources[0].text.splitlines()
    out: dict = {}
    for f in findings:
        if f.end_line not in (None, f.line) or not 0 < f.line <= len(lines) or f.end_column is None:
            continue
        text = lines[f.line - 1]
        name = text[f.column - 1:f.end_column - 1]
        m = _SHELL_VALUE.match(text, f.end_column - 1)
        if m and name.isidentifier():
            out[(f.line, f.column)] = f"{name}={m.group(1).strip(chr(34) + chr(39))}"
            continue
        # the value of a command-line option (`--nproc_per_node 8` on each torchrun line of a script)
        opt = _OPTION_BEFORE.search(text, 0, f.column - 1)
        if opt and name:
            out[(f.line, f.column)] = f"{opt.group(1)}={name}"
    return out


_OPTION_BEFORE = re.compile(r"(--[A-Za-z][\w-]*)[= ][\"']?$")


def _chains(tree, want: set) -> dict:
    """(line, column) -> the longest dotted name (`torch.cuda.amp.autocast`, `custom_fwd`) starting there, for
    the positions in `want`. Only the statements holding those lines are looked into."""
    out: dict = {}
    for st in _holding(tree, sorted({ln for ln, _ in want})):
        for node in _own_expressions(st):
            if type(node) not in (ast.Attribute, ast.Name):
                continue
            pos = (node.lineno, node.col_offset + 1)
            if pos not in want:
                continue
            text = _dotted(node)
            if text is not None and len(text) > len(out.get(pos, "")):
                out[pos] = text
    return out


def _holding(tree, lines: list):
    """Every statement (at any depth) whose lines hold one of the sorted `lines`; no other one is entered."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                continue
            if isinstance(child, ast.stmt):
                start = min([child.lineno, *(d.lineno for d in getattr(child, "decorator_list", ()))])
                end = getattr(child, "end_lineno", None) or child.lineno
                if bisect.bisect_left(lines, start) == bisect.bisect_right(lines, end):
                    continue
                yield child
            stack.append(child)


def _own_expressions(st):
    """The expression nodes of a statement outside the statements nested in it (decorators, tests, `with`
    items, arguments' defaults included)."""
    stack = [st]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                yield from walk(child)
            elif not isinstance(child, ast.stmt):
                stack.append(child)




def file_apis(tree, mine: list, categories: frozenset) -> dict:
    """(line, column) -> the API a finding of one of `categories` names: the last part of the dotted name at the
    finding (`autocast`, `GradScaler`, `custom_fwd`, however it was imported). Only files with two or more such
    findings are walked."""
    want = {(f.line, f.column) for f in mine if f.category in categories}
    if len(want) < 2:
        return {}
    return {pos: text.rsplit(".", 1)[-1] for pos, text in _chains(tree, want).items()}


def class_decorators(tree, mine: list, categories: frozenset) -> dict:
    """line -> (line, column) of the class whose method a decorator on that line decorates, for the findings of
    `categories` (`@custom_fwd` on forward and `@custom_bwd` on backward of one autograd Function)."""
    lines = {f.line for f in mine if f.category in categories}
    if len(lines) < 2:
        return {}
    out: dict = {}
    for node in _holding(tree, sorted(lines)):
        if type(node) is not ast.ClassDef:
            continue
        for st in node.body:
            if type(st) not in (ast.FunctionDef, ast.AsyncFunctionDef):
                continue
            for d in getattr(st, "decorator_list", ()):
                for ln in range(d.lineno, (d.end_lineno or d.lineno) + 1):
                    if ln in lines:
                        out[ln] = (node.lineno, node.col_offset)
    return out


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(scope):
    """The nodes of one scope, without those of the functions, lambdas and classes nested in it (their
    decorators, defaults and bases belong to it), and the nested scopes."""
    nodes: list = []
    nested: list = []
    body: Any = getattr(scope, "body", None)
    stack: list = [body] if type(scope) is ast.Lambda else list(body) if isinstance(scope, _SCOPES) else \
        list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            nested.append(node)
            outer = [*getattr(node, "decorator_list", ()), *getattr(node, "bases", ()),
                     *getattr(node, "keywords", ())]
            args = getattr(node, "args", None)
            if isinstance(args, ast.arguments):
                outer += [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
            stack.extend(outer)
            continue
        nodes.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return nodes, nested


def _bound_names(scope, nodes, nested) -> dict:
    """name -> how many times the scope binds it (assignments, loop and `with` targets, imports, defs,
    parameters)."""
    count: dict = {}

    def add(name):
        count[name] = count.get(name, 0) + 1
    for node in nested:
        if type(node) is not ast.Lambda:
            add(node.name)
    args = getattr(scope, "args", None)
    if isinstance(args, ast.arguments):
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if a is not None:
                add(a.arg)
    for node in nodes:
        t = type(node)
        if t is ast.Name and type(node.ctx) is not ast.Load:
            add(node.id)
        elif t in (ast.Import, ast.ImportFrom):
            for a in node.names:
                add(a.asname or a.name.split(".", 1)[0])
        elif t is ast.ExceptHandler and node.name:
            add(node.name)
        elif t in (ast.Global, ast.Nonlocal):
            for name in node.names:
                add(name)
                add(name)  # declared elsewhere: never a plain alias of this scope
    return count


def _target_name(st) -> str:
    return getattr(st.targets[0], "id", "")


def _is_alias(st) -> bool:
    """`NAME = dotted.api`, `NAME = api` (a name imported from the API's module), or one of two picked by a
    condition (`amp_cm = autocast if args.amp else nullcontext`): what index.py binds as an alias."""
    if not (type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name):
        return False
    v = st.value
    if type(v) is ast.IfExp:
        return _is_reference(v.body) and _is_reference(v.orelse)
    return _is_reference(v)


def _is_reference(v) -> bool:
    return type(v) in (ast.Name, ast.Attribute) and _dotted(v) is not None


def _statements_at(tree, lines: list):
    """The statements starting on one of the (sorted) lines."""
    at = set(lines)
    return (st for st in _holding(tree, lines) if st.lineno in at)


def _project_names(tree) -> set:
    """Names bound by `from X import NAME` of a module that is not a well-known library (at any depth of
    statements): the names project/summary.py looks for flags among."""
    from .project.summary import _EXTERNAL

    out: set = set()
    stack = list(tree.body)
    while stack:
        st = stack.pop()
        if type(st) is ast.ImportFrom and (st.level or (st.module or "").split(".", 1)[0] not in _EXTERNAL):
            out.update(a.asname or a.name for a in st.names if a.name != "*")
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(st, name, None)
            if inner:
                stack.extend(inner)
    return out


def alias_uses(tree, mine: list) -> dict:
    """(line, column) -> the line of `NAME = dotted.api` for the findings at a use of NAME (`type_tensor(inp)`
    after `type_tensor = torch.cuda.FloatTensor`), when the scope binds NAME only there and that line carries a
    finding too. Functions nested in the scope see the alias unless they bind the name themselves."""
    at = {(f.line, f.column) for f in mine}
    lines = {f.line for f in mine}
    if len(at) < 2 or not any(_is_alias(st) for st in _statements_at(tree, sorted(lines))):
        return {}
    out: dict = {}
    shared: set = set()  # names some function declares global: they may be rebound anywhere in the module
    stack: list = [(tree, {})]
    while stack:
        scope, seen = stack.pop()
        nodes, nested = _own_nodes(scope)
        bound = _bound_names(scope, nodes, nested)
        shared.update(n for node in nodes if type(node) is ast.Global for n in node.names)
        aliases = {k: v for k, v in seen.items() if k not in bound}
        for node in nodes:
            if type(node) is ast.Assign and node.lineno in lines and _is_alias(node) and \
                    bound.get(_target_name(node)) == 1:
                aliases[_target_name(node)] = node.lineno
        for node in nodes:
            if type(node) is ast.Name and type(node.ctx) is ast.Load and node.id in aliases and \
                    (node.lineno, node.col_offset + 1) in at:
                out[(node.lineno, node.col_offset + 1)] = (node.id, aliases[node.id])
        # A class body's own names are not its methods' (a method reads `NAME` from the enclosing function or module,
        # never from the class body), but the names the class body inherited are: a module-level
        # `_counter_dtype = torch.float64` read in a method of a class of the module is the same alias.
        inherited = seen if type(scope) is ast.ClassDef else aliases
        stack += [(n, inherited) for n in nested]
    return {pos: line for pos, (name, line) in out.items() if name not in shared}


def _same_call(call) -> str | None:
    """The callee, its first operand and its keywords: the same call of one API on one tensor, whatever its other
    positional arguments (`F.interpolate(x, (32, 32), mode="bilinear")` or `(256, 256)`). None for a call with no
    operand, or a literal one (`torch.cuda.current_device()`, `torch.randn(2, 8)`): such a call in two arms builds
    or picks two things."""
    first = call.args[:1]
    if not first or isinstance(first[0], (ast.Constant, ast.Starred)):
        return None
    return ast.dump(ast.Call(func=call.func, args=first, keywords=call.keywords))


def _writes_at(st, col: int) -> bool:
    """The statement assigns one target a value whose text holds the column (0-based): the place match.py lists
    where a flagged value is written (`seed = 0xABEDABE7`, `backend = "gloo" if nt else "nccl"`)."""
    if type(st) is ast.Assign and len(st.targets) == 1 or type(st) is ast.AnnAssign and st.value is not None:
        v = st.value
        assert v is not None
        return (v.lineno, v.col_offset) <= (st.lineno, col) < (v.end_lineno, v.end_col_offset)
    return False


def shared_places(tree, mine: list, categories: frozenset, value_categories: frozenset = frozenset()) -> dict:
    """(line, column) -> (line, column) of the one place a finding names at match time that is either the plain
    import of a library (for `categories`, the library categories) or, for `value_categories`, the assignment
    writing its flagged value.
    match.py lists `import deepspeed` among the places of each use of the library, and `seed = 0xABEDABE7` among
    the places of each `g.manual_seed(seed)`: two findings of one rule naming that one place are one thing to
    change (one library to drop, one value to rewrite), however far apart. Other places a finding carries (an
    option read, a host random draw) join nothing, and so does a written value in other categories: the mask an
    attention call reads is a place of each call, each its own item."""
    wanted = [f for f in mine if f.occurrences]
    if len(wanted) < 2:
        return {}
    lines = {ln for f in wanted for ln, _c, _r in f.occurrences}
    starts = {st.lineno: st for st in _statements_at(tree, sorted(lines))}
    out: dict = {}
    for f in wanted:
        for ln, col, rule in f.occurrences:
            st = starts.get(ln)
            if st is None or rule != f.rule:
                continue
            if type(st) in (ast.Import, ast.ImportFrom) and f.category in categories or \
                    f.category in value_categories and _writes_at(st, col - 1):
                out[(f.line, f.column)] = (ln, col)
                break
    return out


def arm_statements(tree, mine: list) -> dict:
    """(line, column) -> [(branch, text, path), ...] for the findings in a simple statement inside an arm of an
    `if` / `try` (body, `elif`, `else`, except handlers), `path` being the arms that lead there (see `apart`):

    - the whole statement, as syntax without positions, with `branch` the block that holds the outermost branch:
      sibling `if`s of one block (a dispatch on a value, each arm returning) count as arms of one branch there;
    - for a finding at a call, that call (see _same_call), with `branch` the outermost `if` / `try` itself: the
      two arms of one `if` / `else` may do a little more or less around the same call.

    A loop, `with`, def or class (and a `finally`) starts afresh. Only files with two findings of one rule are
    walked."""
    rules = [f.rule for f in mine]
    if len(rules) == len(set(rules)):
        return {}
    want: dict = {}
    for f in mine:
        want.setdefault(f.line, []).append(f.column)
    lines = sorted(want)
    calls: dict = {}
    out: dict = {}
    # Module-level code is left alone: a project step after the file steps may guard one of its blocks (a flag
    # only ever False), and a fold would hide the other, reachable one. `in_def`: inside a function.
    stack: list = [(getattr(tree, "body", []), None, None, (), False)]
    while stack:
        body, block, branch, path, in_def = stack.pop()
        for st in body:
            end = getattr(st, "end_lineno", None) or st.lineno
            held = lines[bisect.bisect_left(lines, st.lineno):bisect.bisect_right(lines, end)]
            if not held:
                continue
            if in_def and (isinstance(st, ast.If) or type(st).__name__ in ("Try", "TryStar")):
                outer = (block, branch) if block is not None else (id(body), (st.lineno, st.col_offset))
                arms = (st.body, st.orelse, *(h.body for h in getattr(st, "handlers", ())))
                stack += [(b, *outer, (*path, (st.lineno, st.col_offset, i)), True) for i, b in enumerate(arms)]
                stack.append((getattr(st, "finalbody", []), None, None, (), True))
            elif hasattr(st, "body") or isinstance(st, ast.Match):
                inner = in_def or isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))
                stack += [(b, None, None, (), inner) for b in (getattr(st, "body", []), getattr(st, "orelse", []))]
                stack += [(b, None, None, (), inner)
                          for b in (*(h.body for h in getattr(st, "handlers", ())), getattr(st, "finalbody", []))]
                stack += [(c.body, None, None, (), inner) for c in getattr(st, "cases", ())]
            elif block is not None:
                whole = ("block", block), ast.dump(st), path
                for node in walk(st):  # outer calls first: `torch.randn(2).cuda()` is the call at its column
                    if type(node) is ast.Call and node.lineno in want:
                        calls.setdefault((node.lineno, node.col_offset + 1), node)
                for ln in held:
                    for col in want[ln]:
                        call = calls.get((ln, col))
                        text = _same_call(call) if call is not None else None
                        out[(ln, col)] = [whole] if text is None else [whole, (("branch", branch), text, path)]
    return out


def apart(kind: str, a: tuple, b: tuple) -> bool:
    """Whether two arm paths (arm_statements: (line, column, arm) of each branch from the outermost) lead to
    places that are not one inside the other: "branch" wants alternatives (the paths part at two arms of one
    `if` / `try`), "block" also takes sibling branches (the paths part at two statements of one arm)."""
    for x, y in zip(a, b):
        if x != y:
            return kind == "block" or x[:2] == y[:2]
    return False  # one arm holds the other (or it is the same arm): both run


def guard_blocks(tree) -> list:
    """(first line, last line) of the blocks that run only when a name the module imports is true (the spans a
    project step may guard, project/summary.py guards_of)."""
    from .project.inherited_flags import inherited_guards, instance_guards
    from .project.summary import MAX_GUARDS, guards_of

    imported = _project_names(tree)
    if not imported:
        return []
    return [(g[0], g[1]) for g in guards_of(tree, imported) + inherited_guards(tree, imported, MAX_GUARDS)
            + instance_guards(tree, imported, MAX_GUARDS)]


class Joins:
    """The keys of one file's findings (see the module docstring), built once per file by `joins`."""

    def __init__(self, rel: str):
        self.rel = rel
        self.shell: dict = {}  # (line, column) -> "NAME=value"
        self.apis: dict = {}  # (cell, line, column) -> API name
        self.classes: dict = {}  # (cell, line) -> class position
        self.aliases: dict = {}  # (cell, line, column) -> line of the alias assignment
        self.alias_lines: set = set()  # (cell, line)
        self.arms: dict = {}  # (cell, line, column) -> [(branch, text, arm path), ...]
        self.places: dict = {}  # (cell, line, column) -> the import or written value it names as a place
        self.trees: dict = {}  # cell -> syntax tree
        self.guards: dict = {}  # cell -> [(first, last)] blocks a project step may guard, worked out when asked

    def __bool__(self) -> bool:
        return bool(self.shell or self.apis or self.classes or self.aliases or self.arms or self.places)

    def guard(self, cell, line: int):
        """The innermost block holding the line that runs only when an imported name is true, or None."""
        if cell not in self.guards:
            self.guards[cell] = guard_blocks(self.trees[cell]) if cell in self.trees else []
        spans = [s for s in self.guards[cell] if s[0] <= line <= s[1]]
        return max(spans) if spans else None

    def keys_of(self, f, stand) -> tuple:
        """(keys the finding joins under, keys it only looks up), each led by its standing and rule."""
        if f.path != self.rel:
            return (), ()
        own: list = []
        ask: list = []
        here = (f.cell, f.line, f.column)
        value = self.shell.get((f.line, f.column)) if f.cell is None else None
        if value is not None:
            own.append((stand, f.rule, "assign", value))
        api = self.apis.get(here)
        cls = self.classes.get((f.cell, f.line))
        line = self.aliases.get(here)
        alias = (f.cell, f.line) in self.alias_lines
        shared = self.places.get(here)
        if api is None and cls is None and line is None and not alias and shared is None:
            return tuple(own), ()
        guard = self.guard(f.cell, f.line)
        if api is not None:
            own.append((stand, f.rule, "api", api, guard))
        if cls is not None:
            own.append((stand, f.rule, "class", cls, guard))
        if alias:
            own.append((stand, f.rule, "line", f.line, guard))
        if line is not None:
            ask.append((stand, f.rule, "line", line, guard))
        if shared is not None:
            own.append((stand, f.rule, "place", shared, guard))
        return tuple(own), tuple(ask)

    def same_in_arms(self, f) -> list:
        """[(branch, text, arm path, guard), ...] of a finding in an arm of a branch (arm_statements)."""
        got = self.arms.get((f.cell, f.line, f.column), ()) if f.path == self.rel else ()
        guard = self.guard(f.cell, f.line) if got else None
        return [(*g, guard) for g in got]


def joins(findings: list, ctx, result, api_categories: frozenset, class_categories: frozenset = frozenset(),
          library_categories: frozenset = frozenset(), value_categories: frozenset = frozenset()) -> Joins:
    out = Joins(ctx.rel)
    out.shell = shell_assignments(findings, ctx, result)
    for src in result.sources or ():
        tree = getattr(src, "tree", None)
        if not isinstance(tree, ast.AST):
            continue
        cell = src.cell
        mine = [f for f in findings if f.path == ctx.rel and f.cell == cell]
        if len(mine) < 2:
            continue
        if api_categories:
            out.apis.update(((cell, *pos), api) for pos, api in file_apis(tree, mine, api_categories).items())
        if api_categories | class_categories:
            out.classes.update(((cell, ln), c) for ln, c in
                               class_decorators(tree, mine, api_categories | class_categories).items())
        uses = alias_uses(tree, mine)
        out.aliases.update(((cell, *pos), ln) for pos, ln in uses.items())
        out.alias_lines.update((cell, ln) for ln in uses.values())
        out.arms.update(((cell, *pos), v) for pos, v in arm_statements(tree, mine).items())
        out.places.update(((cell, *pos), at) for pos, at in shared_places(tree, mine, library_categories,
                                                                                    value_categories).items())
        out.trees[cell] = tree
    return out


def refold(findings: list, folded: dict, gone: set, with_places) -> list:
    """The findings without those whose id is in `gone`, each host in `folded` (id -> the findings folded into it)
    replaced by `with_places(host, folded findings)`: the last step of a report step that makes findings places of
    another (project/count_settings.py, postprocess_same_kernels.py)."""
    out = []
    for f in findings:
        if id(f) in gone:
            continue
        group = folded.get(id(f))
        out.append(with_places(f, group) if group else f)
    return out
