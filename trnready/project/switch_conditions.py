"""The Python half of training-config switches (project/config_switches.py): in the per-file pass, the blocks
holding one of the file's findings whose condition reads a config key, and the keys the file reads from a config
by name. Kept apart from the join so that the Python reader imports no project step."""
from __future__ import annotations

import ast
import re

from .config_keys import VALUE_WORD, key_name, norm
from .splat_params import splat_params
from .syntax import dotted as _dotted
from ..astwalk import statements, walk

MAX_SWITCHES = 200
_ENV = ("environ", "env")  # `os.environ.get("K")`, `os.environ["K"]`: a process variable, not a config key
# `.get("K"`, `getattr(x, "K"`, `["K"]` not followed by `=` (a store): the key names a config read by name.
_READ = re.compile(r"""(?:\.get\(\s*|getattr\(\s*[\w.\[\]"']+\s*,\s*|\[\s*)(["'])([A-Za-z_][\w\-]*)\1"""
                   r"""(?!\s*\]\s*=(?!=))""")


def add_switches(summary: dict | None, tree, text: str, findings, calls: list | None = None) -> None:
    """Adds `switches` (blocks of findings under config conditions) and `cfgreads` to a Python file's summary."""
    if summary is None:
        return
    reads = sorted({norm(m.group(2)) for m in _READ.finditer(text) if not _env_before(text, m.start())})
    if reads:
        summary["cfgreads"] = reads[:400]
        if tree is not None:
            try:
                handed = handed_reads(tree, calls)
            except RecursionError:
                handed = []
            if handed:
                summary["cfghanded"] = handed[:200]
    lines = set()
    for f in findings:
        if f.cell is None:
            lines.add(f.line)
            lines.update(ln for ln, _, _ in f.occurrences)
    if not lines or tree is None:
        return
    try:
        found = _Switches(tree, lines).run()
        # `main(**config)`: main's parameters are read from the config by name (project/splat_params.py); only
        # worked out when a parameter guards a finding here, since it walks the whole tree
        splat = splat_params(tree) if any(x[3] == "param" for x in found) else set()
    except RecursionError:
        return
    if found:
        summary["switches"] = found[:MAX_SWITCHES]
    if splat:
        summary["cfgreads"] = sorted(set(summary.get("cfgreads", ())) | {norm(k) for k in splat})[:400]


def handed_reads(tree, calls: list | None = None) -> list:
    """[[P, K], ...]: a config value read by name K handed on as the keyword P of a call, directly
    (`Trainer(use_amp=getattr(cfg.TRAIN, "AMP", False))`) or through a name assigned once from the read (`use_amp =
    getattr(cfg.TRAIN, "AMP", False)` then `LTRTrainer(..., use_amp=use_amp)`). A block under the parameter P of the
    callee (`if self.use_amp:`) is then switched on by a config setting of K (MixFormer's `AMP: true`). Only reads by
    a string key (`.get("K")`, `getattr(x, "K")`, `x["K"]`); P and K that name the same key add nothing."""
    # `calls`: the indexer's list of the file's calls, when it made one (then only statements are walked here)
    keyworded = [c for c in calls if isinstance(c, ast.Call) and c.keywords] if calls is not None else None
    if keyworded == []:
        return []
    assigned: dict = {}
    found = []
    for node in (statements(tree) if keyworded is not None else walk(tree)):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            assigned[name] = None if name in assigned else _read_key(node.value)
        elif keyworded is None and isinstance(node, ast.Call) and node.keywords:
            found.append(node)
    out: set = set()
    for call in keyworded if keyworded is not None else found:
        for kw in call.keywords:
            if kw.arg is None:
                continue
            v = kw.value
            key = assigned.get(v.id) if type(v) is ast.Name else _read_key(v)
            if key and key != norm(kw.arg):
                out.add((norm(kw.arg), key))
    return [list(x) for x in sorted(out)]


def _read_key(node) -> str | None:
    """K of a read of a config value by a string key, else None."""
    if type(node) is ast.Call:
        return _string_arg(node)
    if type(node) is ast.Subscript:
        s = node.slice
        if isinstance(s, ast.Constant) and isinstance(s.value, str) and s.value and not _receiver_env(node.value):
            return norm(s.value)
    return None


def _env_before(text: str, at: int) -> bool:
    before = text[max(0, at - 12):at]
    return any(before.rstrip().endswith(e) for e in _ENV)


def _receiver_env(node) -> bool:
    d = _dotted(node)
    return d is not None and d.rsplit(".", 1)[-1] in _ENV


class _Switches:
    def __init__(self, tree: ast.Module, lines: set):
        self.tree = tree
        self.lines = sorted(lines)
        self.out: list = []
        self.modules: set = set()
        for st in tree.body:
            if isinstance(st, ast.Import):
                self.modules.update((a.asname or a.name).split(".")[0] for a in st.names)
            elif isinstance(st, ast.ImportFrom):
                self.modules.update(a.asname or a.name for a in st.names)

    def run(self) -> list:
        self.block(self.tree.body, params=set(), local={}, attrs={})
        return self.out

    def holds(self, first: int, last: int) -> bool:
        import bisect

        i = bisect.bisect_left(self.lines, first)
        return i < len(self.lines) and self.lines[i] <= last

    # what a test switches on -------------------------------------------------
    def keys(self, node, params, local, attrs) -> set:
        """(key, how) pairs whose true value makes `node` true."""
        t = type(node)
        if t is ast.BoolOp:
            out: set = set()
            for v in node.values:
                out |= self.keys(v, params, local, attrs)
            return out
        if t is ast.Call:
            f = node.func
            if isinstance(f, ast.Name) and f.id == "bool" and len(node.args) == 1:
                return self.keys(node.args[0], params, local, attrs)
            k = _string_arg(node)
            if k is not None:
                return {(k, "read")}
            return set()
        if t is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) in (ast.Eq, ast.Is) and isinstance(
                node.comparators[0], ast.Constant) and node.comparators[0].value is True:
            # `if params.enable_amp == True:` is `if params.enable_amp:` written out (a comparison with any other
            # value is a value, not a switch)
            return self.keys(node.left, params, local, attrs)
        if t is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) is ast.IsNot and isinstance(
                node.comparators[0], ast.Constant) and node.comparators[0].value is None:
            # `fp16_cfg = cfg.get('fp16', None)` then `if fp16_cfg is not None:`: the arm runs when the key is set
            return self.keys(node.left, params, local, attrs)
        if t is ast.Compare:
            # `params.optimizer_type == 'FusedAdam'`: the config value that picks this arm, noted as the key
            # `optimizer_type=FusedAdam` (a config setting that value is the switch; config_keys.true_switches).
            # `cfg.amp_opt_level != 'O0'`: every other value picks it, noted as `amp_opt_level!=O0` (a setting of
            # another word is the switch: `amp_opt_level: O1`)
            if len(node.ops) != 1 or type(node.ops[0]) not in (ast.Eq, ast.NotEq):
                return set()
            op = "=" if isinstance(node.ops[0], ast.Eq) else "!="
            for side, lit in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
                if isinstance(lit, ast.Constant) and isinstance(lit.value, str) and VALUE_WORD.fullmatch(lit.value):
                    return {(f"{k}{op}{lit.value}", how) for k, how in self.keys(side, params, local, attrs)
                            if "=" not in k}
            return set()
        if t is ast.Subscript:
            s = node.slice
            if isinstance(s, ast.Constant) and isinstance(s.value, str) and not _receiver_env(node.value):
                return {(norm(s.value), "read")}
            return set()
        if t is ast.Name:
            if node.id in local:
                return set(local[node.id])
            if node.id in params:
                return {(norm(node.id), "param")}
            return set()
        if t is ast.Attribute:
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                if node.attr in attrs:
                    return set(attrs[node.attr])
                return {(norm(node.attr), "param")}
            root = _dotted(base)
            if root is None or root.split(".")[0] in self.modules:
                return set()
            return {(norm(node.attr), "read")}
        return set()

    def negated(self, test, params, local, attrs) -> set:
        """Keys whose true value makes `test` false (`not amp`: the else arm runs)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.keys(test.operand, params, local, attrs)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) is ast.Is and isinstance(
                test.comparators[0], ast.Constant) and test.comparators[0].value is None:
            return self.keys(test.left, params, local, attrs)  # `if fp16_cfg is None: ... else: <set>`
        return set()

    def note(self, keys: set, first: int, last: int, cond, keyword: str = "") -> None:
        if not keys or not self.holds(first, last) or len(self.out) >= MAX_SWITCHES:
            return
        src = _source(cond)
        for k, how in sorted(keys):
            if key_name(k).isidentifier():
                self.out.append([k, first, last, how, cond.lineno, src, keyword])

    # walking statements ------------------------------------------------------
    def block(self, body, params, local, attrs) -> None:
        for st in body:
            self.stmt(st, params, local, attrs)

    def stmt(self, st, params, local, attrs) -> None:
        t = type(st)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef):
            if not self.holds(st.lineno, st.end_lineno or st.lineno):
                return
            a = st.args
            names = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)} - {"self", "cls"}
            self.block(st.body, names, {}, attrs)
            return
        if t is ast.ClassDef:
            if self.holds(st.lineno, st.end_lineno or st.lineno):
                self.block(st.body, set(), {}, _ClassAttrs(self, st))
            return
        last = st.end_lineno or st.lineno
        if not self.holds(st.lineno, last):
            self.assign(st, params, local, attrs)
            return
        if t is ast.If:
            pos = self.keys(st.test, params, local, attrs)
            if st.body:
                self.note(pos, st.body[0].lineno, _end(st.body), st.test)
            if st.orelse:
                self.note(self.negated(st.test, params, local, attrs), st.orelse[0].lineno, _end(st.orelse),
                          st.test)
            self.exprs(st.test, params, local, attrs)
            self.block(st.body, params, local, attrs)
            self.block(st.orelse, params, local, attrs)
            return
        arms = [getattr(st, f) for f in ("body", "orelse", "finalbody") if getattr(st, f, None)]
        handlers = getattr(st, "handlers", None) or []
        if arms or handlers:
            # headers (with items, for iterables, while tests) hold conditional expressions too
            for h in ("items", "iter", "test"):
                node = getattr(st, h, None)
                for n in (node if isinstance(node, list) else [node] if node is not None else []):
                    self.exprs(getattr(n, "context_expr", n), params, local, attrs)
            for arm in arms:
                self.block(arm, params, local, attrs)
            for hd in handlers:
                self.block(hd.body, params, local, attrs)
            return
        self.exprs(st, params, local, attrs)
        self.assign(st, params, local, attrs)

    def assign(self, st, params, local, attrs) -> None:
        """`amp = cfg.get("amp", False)`: the local stands for the key from here on."""
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            got = {kh for kh in self.keys(st.value, params, local, attrs) if kh[1] == "read"}
            if got:
                local[st.targets[0].id] = got
            else:
                local.pop(st.targets[0].id, None)

    def exprs(self, node, params, local, attrs) -> None:
        """Conditional expressions and keyword values inside a statement that holds a finding."""
        for n in walk(node):
            if isinstance(n, ast.IfExp):
                self.note(self.keys(n.test, params, local, attrs), n.body.lineno, n.body.end_lineno or n.body.lineno,
                          n.test)
                self.note(self.negated(n.test, params, local, attrs), n.orelse.lineno,
                          n.orelse.end_lineno or n.orelse.lineno, n.test)
            elif isinstance(n, ast.Call):
                for k in n.keywords:
                    if k.arg and not isinstance(k.value, ast.IfExp):
                        self.note(self.keys(k.value, params, local, attrs), n.lineno, n.end_lineno or n.lineno,
                                  k.value, k.arg)

    def class_attrs(self, cls: ast.ClassDef) -> dict:
        """`self.use_amp = cfg.get("amp")` in any method: `self.use_amp` stands for the key in the class."""
        out: dict = {}
        # statements only (an assignment is one): walking every expression of a large class costs
        stack = [st for fn in cls.body if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) for st in fn.body]
        while stack:
            n = stack.pop()
            t = type(n)
            if isinstance(n, ast.Assign):
                if len(n.targets) == 1:
                    tg = n.targets[0]
                    if type(tg) is ast.Attribute and type(tg.value) is ast.Name and tg.value.id == "self":
                        got = {kh for kh in self.keys(n.value, set(), {}, {}) if kh[1] == "read"}
                        if got:
                            out[tg.attr] = got
                continue
            if t in _LEAVES:
                continue
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(n, field, None)
                if sub:
                    stack.extend(sub)
            for h in getattr(n, "handlers", None) or ():
                stack.extend(h.body)
        return out


_LEAVES = (ast.Expr, ast.Return, ast.AugAssign, ast.AnnAssign, ast.Raise, ast.Assert, ast.Pass, ast.Break,
           ast.Continue, ast.Import, ast.ImportFrom, ast.Delete, ast.Global, ast.Nonlocal)


class _ClassAttrs:
    """`self.V` -> keys, of one class: worked out on the first `self.V` a condition tests (most classes holding
    a finding test none, and walking every method of a large class costs)."""

    def __init__(self, finder: _Switches, cls: ast.ClassDef):
        self.finder, self.cls = finder, cls
        self.table: dict | None = None

    def _get(self) -> dict:
        if self.table is None:
            self.table = self.finder.class_attrs(self.cls)
        return self.table

    def __contains__(self, name) -> bool:
        return name in self._get()

    def __getitem__(self, name):
        return self._get()[name]


def _string_arg(call: ast.Call) -> str | None:
    """K of `x.get("K", ...)` (x not the environment) or `getattr(x, "K", ...)`."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "get" and call.args and not _receiver_env(f.value):
        a = call.args[0]
    elif isinstance(f, ast.Name) and f.id == "getattr" and len(call.args) >= 2:
        a = call.args[1]
    else:
        return None
    if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value:
        return norm(a.value)
    return None


def _end(stmts) -> int:
    return max(s.end_lineno or s.lineno for s in stmts)


def _source(node) -> str:
    try:
        s = ast.unparse(node)
    except (ValueError, RecursionError):
        return ""
    return s if len(s) <= 80 else s[:77] + "..."
