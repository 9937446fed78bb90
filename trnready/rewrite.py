"""Declarative rewrites ([[rule.rewrite]] in blockers.toml): parse, validate, choose, describe.

A `change` entry may list rewrite tables. Each table names exactly one action;
`trnready fix` tries the tables in order and applies the first one whose
`style` fits the chosen --device-style and whose action fits the code at the
finding (a string literal, a call, a callee). This module is pure `ast` and
never imports libcst, so the scanner can mark findings `fixable` cheaply;
`trnready/fix/` performs the chosen rewrite with libcst.

Actions (the value is an inline table):

  replace-string = { from = "cuda", to = "neuron" }
      the string literal at the finding: "cuda" -> "neuron", "cuda:1" -> "neuron:1"
      (quotes and prefix kept). With `expr = "..."` instead of `to`, the whole literal
      becomes that Python expression; `indexed-expr` (with an `{index}` placeholder)
      is used for "cuda:N" (without it, indexed literals are left to the next table).
  set-arg = { name = "backend", position = 0, value = "neuron" }
      the call at the finding passes `value` for that argument: replaced where it is
      passed (by keyword, or at `position`), added as a keyword when it is absent.
      `value` is a TOML string/number/bool (written as a Python literal) or use
      `expr = "..."` for a Python expression.
  drop-arg = { name = "backend" }
      removes the keyword argument from the call at the finding.
  replace-call = { from = "torch.cuda.amp.autocast", to = "torch.autocast", add-args = ['device_type="neuron"'] }
      the call of `from` (resolved through imports and aliases) becomes a call of `to`;
      `add-args` ("name=expr" keywords) are appended. A call that passes positional
      arguments is left alone when add-args are given (their meaning could shift).
  replace-method = { from = "cuda", to = "to", args = ['"neuron"'] }
      x.cuda(...) -> x.to("neuron", ...): the method is renamed and `args` are put
      first. A call with positional arguments (x.cuda(0)) is left alone.

  replace-choice = { from = "cuda", expr = "...", indexed-expr = "...", calls = { "torch.cuda.is_available" = "torch.accelerator.is_available" } }
      a device literal that is a branch of a conditional expression choosing the device
      (`"cuda" if torch.cuda.is_available() else "cpu"`, also inside `torch.device(...)`,
      negated or with the branches swapped): the literal becomes `expr` (or `indexed-expr`)
      and each call in the condition named in `calls` becomes a call of its new name.
      Applies only when every use of those names' modules in the condition is such a call;
      changing only the literal would leave the condition choosing the CPU on Trainium.

Modifiers of a table:
  style = "neuron" | "accelerator"   only for that --device-style (default: both)
  keyword = ["device_map"]           replace-string only: the literal must be the
                                     direct value of one of these keywords
  unless-keywords = ["device"]       call actions: leave calls passing one of these
  unless-argument-of = ["*_device"]  replace-string / replace-choice: leave a literal passed positionally
                                     to a callee whose last name matches one of these globs (a project
                                     helper comparing the string with names of its own: `solver_device("cuda")`)
  unless-chosen-by = ["torch.cuda"]  replace-string only: leave a literal that is a branch of a
                                     conditional expression whose condition uses these names

Free names in expressions (`torch` in `torch.accelerator.current_accelerator()`)
are modules: fix uses the module's existing alias, or adds `import torch`.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional
from .astwalk import walk

ACTIONS = ("replace-string", "set-arg", "drop-arg", "replace-call", "replace-method", "replace-choice")
STYLES = ("neuron", "accelerator")
_ACTION_KEYS = {
    "replace-string": ({"from"}, {"to", "expr", "indexed-expr"}),
    "set-arg": ({"name"}, {"position", "value", "expr"}),
    "drop-arg": ({"name"}, set()),
    "replace-call": ({"from", "to"}, {"add-args"}),
    "replace-method": ({"from", "to"}, {"args"}),
    "replace-choice": ({"from", "expr", "calls"}, {"indexed-expr"}),
}
_TABLE_KEYS = set(ACTIONS) | {"style", "keyword", "unless-keywords", "unless-chosen-by", "unless-argument-of"}
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_INDEXED = re.compile(r"^(?P<head>[^:]*):(?P<index>[0-9]+)$")


@dataclass(frozen=True)
class Rewrite:
    action: str
    style: Optional[str] = None
    keyword: tuple = ()
    unless_keywords: tuple = ()
    from_: str = ""
    to: Optional[str] = None  # replace-string: new device text; replace-call: dotted name; replace-method: method
    expr: Optional[str] = None  # replace-string / set-arg: a Python expression
    indexed_expr: Optional[str] = None  # replace-string: expression with {index}
    name: Optional[str] = None  # set-arg / drop-arg
    position: Optional[int] = None
    args: tuple = ()  # replace-method: new leading args; replace-call: added keyword args
    modules: tuple = ()  # free names of the expressions: modules the rewrite may need imported
    calls: tuple = ()  # replace-choice: ((old dotted name, new dotted name), ...) for calls in the condition
    unless_chosen_by: tuple = ()  # replace-string: dotted prefixes a choosing condition must not use
    unless_argument_of: tuple = ()  # replace-string / replace-choice: callee name globs of a positional literal

    def for_style(self, style: str) -> bool:
        return self.style is None or self.style == style

    def describe(self) -> str:
        """One line for `trnready explain`."""
        a = self.action
        if a == "replace-string":
            if self.to is not None:
                s = f'"{self.from_}" -> "{self.to}" (and "{self.from_}:N" -> "{self.to}:N")'
            else:
                s = f'"{self.from_}" -> {self.expr}'
                if self.indexed_expr:
                    s += f' (and "{self.from_}:N" -> {self.indexed_expr.replace("{index}", "N")})'
            if self.keyword:
                s += f" where it is the {' / '.join(k + '=' for k in self.keyword)} argument"
        elif a == "set-arg":
            where = f" (position {self.position})" if self.position is not None else ""
            s = f"pass {self.name}={self.expr}{where}, replacing the current value"
        elif a == "drop-arg":
            s = f"remove the {self.name}= argument"
        elif a == "replace-call":
            s = f"{self.from_}(...) -> {self.to}({', '.join(self.args + ('...',))})"
        elif a == "replace-choice":
            s = (f'"{self.from_}" -> {self.expr} where the literal is a branch of `... if COND else ...`, and in '
                 f"COND {', '.join(f'{o}() -> {n}()' for o, n in self.calls)}")
        else:
            s = f".{self.from_}(...) -> .{self.to}({', '.join(self.args + ('...',))})"
        if self.unless_chosen_by:
            s += f"; not in a conditional expression whose condition uses {', '.join(self.unless_chosen_by)}"
        if self.unless_argument_of:
            s += f"; not a positional argument of {', '.join(self.unless_argument_of)}(...)"
        if self.unless_keywords:
            s += f"; calls passing {', '.join(k + '=' for k in self.unless_keywords)} are left alone"
        return s


# -- catalogue validation -----------------------------------------------------

def parse_rewrites(raw, rid: str, severity: str, err) -> tuple[Rewrite, ...]:
    """[[rule.rewrite]] tables -> Rewrite records; `err(msg, entry=, key=)` raises."""
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        err("must be one or more [[rule.rewrite]] tables", entry=rid, key="rewrite")
    if severity != "change":
        err("only entries of severity `change` may declare a rewrite", entry=rid, key="rewrite")
    return tuple(_parse_table(t, rid, err) for t in raw)


def _parse_table(t, rid, err) -> Rewrite:
    if not isinstance(t, dict):
        err("each rewrite must be a table", entry=rid, key="rewrite")
    for k in t:
        if k not in _TABLE_KEYS:
            err(f"unknown rewrite key (expected one of {', '.join(sorted(_TABLE_KEYS))})", entry=rid,
                key=f"rewrite.{k}")
    actions = [k for k in ACTIONS if k in t]
    if len(actions) != 1:
        err(f"a rewrite names exactly one action of {', '.join(ACTIONS)}", entry=rid, key="rewrite")
    action = actions[0]
    spec = t[action]
    key = f"rewrite.{action}"
    if not isinstance(spec, dict):
        err("must be an inline table", entry=rid, key=key)
    required, optional = _ACTION_KEYS[action]
    for k in spec:
        if k not in required | optional:
            err(f"unknown key (expected {', '.join(sorted(required | optional))})", entry=rid, key=f"{key}.{k}")
    for k in sorted(required):
        if k not in spec:
            err("missing required key", entry=rid, key=f"{key}.{k}")
    style = t.get("style")
    if style is not None and style not in STYLES:
        err("must be neuron or accelerator", entry=rid, key="rewrite.style")
    keyword = _names(t.get("keyword", []), rid, "rewrite.keyword", err)
    if keyword and action != "replace-string":
        err("applies to replace-string only", entry=rid, key="rewrite.keyword")
    unless = _names(t.get("unless-keywords", []), rid, "rewrite.unless-keywords", err)
    if unless and action in ("replace-string", "replace-choice"):
        err("applies to call actions only", entry=rid, key="rewrite.unless-keywords")
    chosen_by = t.get("unless-chosen-by", [])
    if isinstance(chosen_by, str):
        chosen_by = [chosen_by]
    if not isinstance(chosen_by, list) or not all(isinstance(x, str) and _DOTTED.fullmatch(x) for x in chosen_by):
        err("must be a list of dotted names", entry=rid, key="rewrite.unless-chosen-by")
    if chosen_by and action != "replace-string":
        err("applies to replace-string only", entry=rid, key="rewrite.unless-chosen-by")
    argument_of = t.get("unless-argument-of", [])
    if not isinstance(argument_of, list) or not all(isinstance(x, str) and x for x in argument_of):
        err("must be a list of callee name globs", entry=rid, key="rewrite.unless-argument-of")
    if argument_of and action not in ("replace-string", "replace-choice"):
        err("applies to replace-string and replace-choice only", entry=rid, key="rewrite.unless-argument-of")
    exprs: list[str] = []

    def expression(src, k):
        if not isinstance(src, str) or not src.strip():
            err("must be a Python expression in a string", entry=rid, key=f"{key}.{k}")
        try:
            ast.parse(src.replace("{index}", "0"), mode="eval")
        except SyntaxError as e:
            err(f"not a valid Python expression: {e.msg}", entry=rid, key=f"{key}.{k}")
        exprs.append(src.replace("{index}", "0"))
        return src

    def dotted(v, k):
        if not isinstance(v, str) or not _DOTTED.fullmatch(v):
            err("must be a dotted Python name", entry=rid, key=f"{key}.{k}")
        return v

    kw = dict(action=action, style=style, keyword=keyword, unless_keywords=unless, unless_chosen_by=tuple(chosen_by),
              unless_argument_of=tuple(argument_of))
    if action == "replace-choice":
        frm = spec["from"]
        if not isinstance(frm, str) or not frm:
            err("must be a non-empty string", entry=rid, key=f"{key}.from")
        expression(spec["expr"], "expr")
        if "indexed-expr" in spec:
            expression(spec["indexed-expr"], "indexed-expr")
        calls = spec["calls"]
        if not isinstance(calls, dict) or not calls:
            err('must be a table of calls such as { "torch.cuda.is_available" = "torch.accelerator.is_available" }',
                entry=rid, key=f"{key}.calls")
        for old_name, new_name in calls.items():
            dotted(old_name, "calls")
            dotted(new_name, "calls")
            exprs.append(new_name)
        kw.update(from_=frm, expr=spec["expr"], indexed_expr=spec.get("indexed-expr"),
                  calls=tuple(sorted(calls.items())))
    elif action == "replace-string":
        frm = spec["from"]
        if not isinstance(frm, str) or not frm:
            err("must be a non-empty string", entry=rid, key=f"{key}.from")
        if ("to" in spec) == ("expr" in spec):
            err("give exactly one of to (new text) or expr (a Python expression)", entry=rid, key=key)
        if "to" in spec and (not isinstance(spec["to"], str) or not spec["to"]):
            err("must be a non-empty string", entry=rid, key=f"{key}.to")
        if "indexed-expr" in spec:
            if "expr" not in spec:
                err("indexed-expr goes with expr", entry=rid, key=f"{key}.indexed-expr")
            expression(spec["indexed-expr"], "indexed-expr")
        if "expr" in spec:
            expression(spec["expr"], "expr")
        kw.update(from_=frm, to=spec.get("to"), expr=spec.get("expr"), indexed_expr=spec.get("indexed-expr"))
    elif action in ("set-arg", "drop-arg"):
        name = spec["name"]
        if not isinstance(name, str) or not _IDENT.fullmatch(name):
            err("must be an argument name", entry=rid, key=f"{key}.name")
        pos = spec.get("position")
        if pos is not None and (not isinstance(pos, int) or isinstance(pos, bool) or pos < 0):
            err("must be a non-negative integer", entry=rid, key=f"{key}.position")
        kw.update(name=name, position=pos)
        if action == "set-arg":
            if ("value" in spec) == ("expr" in spec):
                err("give exactly one of value (a literal) or expr (a Python expression)", entry=rid, key=key)
            if "value" in spec:
                v = spec["value"]
                if not isinstance(v, (str, bool, int, float)):
                    err("must be a string, number or boolean", entry=rid, key=f"{key}.value")
                src = _literal(v)
            else:
                src = expression(spec["expr"], "expr")
            kw.update(expr=src)
    else:
        frm = spec["from"]
        to = spec["to"]
        if action == "replace-call":
            dotted(frm, "from")
            dotted(to, "to")
            exprs.append(to)
            args = spec.get("add-args", [])
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                err("must be a list of strings such as 'device_type=\"neuron\"'", entry=rid, key=f"{key}.add-args")
            for a in args:
                name, eq, value = a.partition("=")
                if not eq or not _IDENT.fullmatch(name.strip()):
                    err(f"{a!r}: added arguments are keywords written name=expression", entry=rid,
                        key=f"{key}.add-args")
                expression(value, "add-args")
            args = tuple(a.strip() for a in args)
        else:
            for k, v in (("from", frm), ("to", to)):
                if not isinstance(v, str) or not _IDENT.fullmatch(v):
                    err("must be a method name", entry=rid, key=f"{key}.{k}")
            args = spec.get("args", [])
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                err("must be a list of Python expressions", entry=rid, key=f"{key}.args")
            for a in args:
                expression(a, "args")
            args = tuple(args)
        kw.update(from_=frm, to=to, args=args)
    kw["modules"] = tuple(sorted({m for src in exprs for m in free_names(src)}))
    return Rewrite(**kw)


def _names(v, rid, key, err) -> tuple:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(x, str) and _IDENT.fullmatch(x) for x in v):
        err("must be a list of keyword names", entry=rid, key=key)
    return tuple(v)


def _literal(v) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def free_names(src: str) -> set[str]:
    """Names an expression reads (keyword names excluded): the modules it needs."""
    tree = ast.parse(src, mode="eval")
    return {n.id for n in walk(tree) if isinstance(n, ast.Name)}


# -- choosing a rewrite for a finding ----------------------------------------------

def split_device(value: str, frm: str):
    """'cuda' -> ('cuda', None); 'cuda:1' -> ('cuda', '1'); anything else -> None."""
    if value == frm:
        return frm, None
    m = _INDEXED.match(value)
    if m and m.group("head") == frm:
        return frm, m.group("index")
    return None


class ImportNames:
    """Local name -> dotted module path, from every import in a file (`import torch as th`:
    th -> torch; `from torch import cuda`: cuda -> torch.cuda). Names not imported stand for
    themselves, so `torch.cuda.is_available` in a notebook cell that did not import torch
    still reads as torch's."""

    def __init__(self, tree: ast.AST):
        self.tree = tree
        self._names: Optional[dict] = None  # walked on first use: most files never ask

    @property
    def names(self) -> dict:
        if self._names is None:
            self._names = self._collect(self.tree)
        return self._names

    @staticmethod
    def _collect(tree: ast.AST) -> dict:
        names: dict = {}
        for node in walk(tree):
            if type(node) is ast.Import:
                for a in node.names:
                    if a.asname:
                        names[a.asname] = a.name
                    else:
                        root = a.name.split(".")[0]
                        names.setdefault(root, root)
            elif type(node) is ast.ImportFrom and node.module and not node.level:
                for a in node.names:
                    if a.name != "*":
                        names[a.asname or a.name] = f"{node.module}.{a.name}"
        return names

    def qualname(self, expr: ast.AST) -> str:
        parts = []
        while type(expr) is ast.Attribute:
            parts.append(expr.attr)
            expr = expr.value
        if type(expr) is not ast.Name:
            return ""
        return ".".join([self.names.get(expr.id, expr.id), *reversed(parts)])


def device_choice(node: ast.AST, parents) -> Optional[ast.IfExp]:
    """The conditional expression choosing a device whose branch is this literal, directly or as
    the only argument of a call (`torch.device("cuda" if ... else "cpu")` has it directly;
    `torch.device("cuda") if ... else torch.device("cpu")` through the call); else None."""
    branch, parent = node, parents.get(node)
    if type(parent) is ast.Call and len(parent.args) == 1 and parent.args[0] is node and not parent.keywords:
        branch, parent = parent, parents.get(parent)
    if type(parent) is ast.IfExp and (parent.body is branch or parent.orelse is branch):
        return parent
    return None


def _condition_refs(test: ast.expr, names: ImportNames):
    """(node, dotted name) for each outermost name or attribute chain in a condition."""
    inner = {id(n.value) for n in walk(test) if type(n) is ast.Attribute}
    for n in walk(test):
        if type(n) in (ast.Name, ast.Attribute) and id(n) not in inner:
            yield n, names.qualname(n)


def _under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def choice_calls(rw: Rewrite, node: ast.AST, parents, names: ImportNames) -> Optional[list]:
    """replace-choice: [(callee node in the condition, new dotted name)], or None when the
    rewrite does not fit (no such condition, or it uses those modules in another way)."""
    ifexp = device_choice(node, parents)
    if ifexp is None:
        return None
    mapping = dict(rw.calls)
    modules = {old.rpartition(".")[0] for old in mapping}
    out = []
    for ref, q in _condition_refs(ifexp.test, names):
        if q in mapping:
            call = parents.get(ref)
            if type(call) is not ast.Call or call.func is not ref:
                return None  # named but not called: nothing we know how to rewrite
            out.append((ref, mapping[q]))
        elif _under(q, modules):
            return None  # e.g. torch.cuda.device_count() > 0 next to is_available(): left for review
    return out or None


def _argument_of(node: ast.AST, parents, globs: tuple) -> bool:
    """The literal (or the conditional expression choosing it) is a positional argument of a call whose callee's
    last name matches one of `globs`."""
    import fnmatch

    arg = parents.get(node)
    arg = arg if type(arg) is ast.IfExp else node
    call = parents.get(arg)
    if type(call) is not ast.Call or not any(a is arg for a in call.args):
        return False
    func = call.func
    tail = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    return bool(tail) and any(fnmatch.fnmatchcase(tail, g) for g in globs)


def applies(rw: Rewrite, node: ast.AST, qualname: str = "", parents=None,
            names: Optional[ImportNames] = None) -> bool:
    """Does this rewrite fit the code at a finding? `parents` (child -> parent) and `names` enable
    the context checks (keyword=, callee inside a call, a device choice); without them a
    replace-choice never fits and the other checks are assumed to hold."""
    a = rw.action
    if a in ("replace-string", "replace-choice"):
        if type(node) is not ast.Constant or type(node.value) is not str:
            return False
        parts = split_device(node.value, rw.from_)
        if parts is None:
            return False
        if parts[1] is not None and rw.to is None and not rw.indexed_expr:
            return False
        if rw.unless_argument_of and parents is not None and _argument_of(node, parents, rw.unless_argument_of):
            return False
        if a == "replace-choice":
            return parents is not None and names is not None and choice_calls(rw, node, parents, names) is not None
        if rw.unless_chosen_by and parents is not None and names is not None:
            ifexp = device_choice(node, parents)
            if ifexp is not None and any(_under(q, rw.unless_chosen_by) for _, q in _condition_refs(ifexp.test, names)):
                return False
        if rw.keyword and parents is not None:
            parent = parents.get(node)
            return type(parent) is ast.keyword and parent.arg in rw.keyword
        return True
    if a == "replace-call":
        if type(node) is ast.Call:
            call = node
        elif type(node) in (ast.Name, ast.Attribute):
            if parents is None:
                call = None
            else:
                call = parents.get(node)
                if type(call) is not ast.Call or call.func is not node:
                    return False
        else:
            return False
        if qualname != rw.from_:
            return False
        if call is None:
            return True
        return _call_ok(rw, call, added=[x.partition("=")[0].strip() for x in rw.args])
    if type(node) is not ast.Call:
        return False
    if a == "replace-method":
        f = node.func
        return type(f) is ast.Attribute and f.attr == rw.from_ and _call_ok(rw, node, added=[])
    if a == "set-arg":
        if any(k.arg in rw.unless_keywords for k in node.keywords):
            return False
        if any(k.arg == rw.name for k in node.keywords):
            return True
        if rw.position is not None:
            for i, arg in enumerate(node.args):
                if type(arg) is ast.Starred:
                    return False
                if i == rw.position:
                    return True
        return not any(type(x) is ast.Starred for x in node.args) and all(k.arg is not None for k in node.keywords)
    if a == "drop-arg":
        return any(k.arg == rw.name for k in node.keywords) and \
            not any(k.arg in rw.unless_keywords for k in node.keywords)
    return False


def _call_ok(rw: Rewrite, call: ast.Call, added: list) -> bool:
    if any(k.arg is None or k.arg in rw.unless_keywords or k.arg in added for k in call.keywords):
        return False
    if call.args and (rw.action == "replace-method" or added):
        return False
    return True


def choose(rewrites, node, qualname: str, style: str, parents=None,
           names: Optional[ImportNames] = None) -> Optional[Rewrite]:
    for rw in rewrites:
        if rw.for_style(style) and applies(rw, node, qualname, parents, names):
            return rw
    return None


class ParentFinder:
    """`parents.get(node)` without a child -> parent map of the whole file.

    Scanning asks for the parent of a few nodes per file; descending only into the
    children whose line span contains the node costs the depth of the tree, where a
    full map costs every node of it.
    """

    def __init__(self, tree: ast.AST):
        self.tree = tree
        self._cache: dict = {}
        self._full: Optional[dict] = None

    def get(self, node: ast.AST, default=None):
        if node in self._cache:
            return self._cache[node]
        line, col = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        found = default
        if line is not None:
            current: ast.AST | None = self.tree
            while current is not None and found is default:
                nxt = None
                for child in ast.iter_child_nodes(current):
                    if child is node:
                        found = current
                        break
                    start = getattr(child, "lineno", None)
                    if start is None:
                        if not isinstance(child, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop,
                                                  ast.cmpop)):
                            nxt = nxt or child  # e.g. ast.arguments, ast.comprehension: no position
                        continue
                    end = getattr(child, "end_lineno", start)
                    end_col = getattr(child, "end_col_offset", None)
                    pos = (start, child.col_offset)  # type: ignore[attr-defined]  # a node with a lineno has a column
                    if pos <= (line, col) and (end_col is None or (line, col) < (end, end_col) or (line, col) == pos):
                        nxt = child
                        break
                current = nxt
        if found is default:
            # Positionless nodes (withitem, arguments, comprehension) can hide the path: fall back
            # to a full map once for this file.
            if self._full is None:
                self._full = {c: n for n in walk(self.tree) for c in ast.iter_child_nodes(n)}
            found = self._full.get(node, default)
        self._cache[node] = found
        return found


class FixableCheck:
    """Scan-time answer to "can `trnready fix` rewrite this finding?" for one parsed file.

    Some rewrite of the rule (in either device style) must fit the code. The
    child -> parent map that context checks need is built only when a hit needs it.
    """

    def __init__(self, tree: Optional[ast.AST] = None):
        self.tree = tree
        self._parents: Optional[ParentFinder] = None
        self._names: Optional[ImportNames] = None

    def parents(self) -> Optional["ParentFinder"]:
        if self._parents is None and self.tree is not None:
            self._parents = ParentFinder(self.tree)
        return self._parents

    def names(self) -> Optional[ImportNames]:
        if self._names is None and self.tree is not None:
            self._names = ImportNames(self.tree)
        return self._names

    def __call__(self, rule, node, qualname: str = "") -> bool:
        if not rule.rewrites:
            return False
        choice = type(node) is ast.Constant and any(
            rw.action == "replace-choice" or rw.unless_chosen_by for rw in rule.rewrites)
        parents = self.parents() if choice or (type(node) is not ast.Call and any(
            rw.action == "replace-call" for rw in rule.rewrites)) else None
        names = self.names() if choice else None
        return any(applies(rw, node, qualname, parents, names) for rw in rule.rewrites)


def describe_rewrites(rule) -> str:
    """The `## Automatic fix` section of `trnready explain`."""
    lines = []
    for rw in rule.rewrites:
        style = f"[--device-style {rw.style}] " if rw.style else ""
        lines.append(f"- {style}{rw.describe()}")
    confidences = {m.confidence for m in rule.matchers}
    if confidences == {"medium"}:
        lines.append("Findings of this rule are medium confidence: `trnready fix --unsafe` rewrites them.")
    elif "medium" in confidences:
        lines.append("Medium-confidence findings are rewritten only with `trnready fix --unsafe`.")
    return "\n".join(lines)
