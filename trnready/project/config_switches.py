"""Training-config switches: a config key set true that the project's Python reads into a condition guarding a
finding (`amp: True` in a recipe, `if self.config.run_cfg.get("amp"): GradScaler()` in the runner).

The positive direction of project/config_keys.py (which guards settings nothing reads). Three parts:

- per Python file, in the per-file pass (the syntax tree in hand, cached with the file's summary): the blocks
  holding one of the file's findings whose condition reads a config key K, as `switches`
  [[K, first line, last line, how, condition line, condition source]]. A condition reads K when its test (an
  `if`, a conditional expression, or a keyword value such as `autocast(enabled=...)`) is, or is an `and`/`or`
  of, `x.get("K")`, `x["K"]`, `getattr(x, "K")`, `x.K` (x not an imported module, not `self`), a local
  assigned from one of those, or an attribute `self.V` the class assigns from one ("read"). A parameter named
  K or `self.K` is "param": it counts only when the project reads K from a config by name somewhere
  (`cfg.get("low_resource")` handed on as `low_resource=`); the file's such reads are `cfgreads`. `not K`
  turns the `else` arm on; a comparison (`== "fp16"`) is a value, not a switch, and is never followed.
- per training config (readers/configs.py): its scalars set to a boolean true whose key is specific (not in
  [context.values] config-switch-generic-keys), as `switches` [[line, col, end col, key, shown]].
- this step: each such setting is reported in the config file with the rule of an unguarded, unsuppressed
  finding its key turns on (one per category per setting line), at medium confidence (the key is matched by
  name), naming the Python place. False, 0, null and strings never switch anything on.

Incremental: the Python side comes from summaries cached with each file; the join is kept in the result cache
under the Python files' digests, so editing a config re-reads that config alone and re-joins.
"""
from __future__ import annotations

import ast
import re

from .config_keys import norm

MAX_SWITCHES = 200
TRUE = frozenset({"true", "yes", "on"})
FALSE = frozenset({"false", "no", "off", "0", "null", "~", ""})
_ENV = ("environ", "env")  # `os.environ.get("K")`, `os.environ["K"]`: a process variable, not a config key
# `.get("K"`, `getattr(x, "K"`, `["K"]` not followed by `=` (a store): the key names a config read by name.
_READ = re.compile(r"""(?:\.get\(\s*|getattr\(\s*[\w.\[\]"']+\s*,\s*|\[\s*)(["'])([A-Za-z_][\w\-]*)\1"""
                   r"""(?!\s*\]\s*=(?!=))""")


# ------------------------------------------------------------------ per Python file
def add_switches(summary: dict | None, tree, text: str, findings) -> None:
    """Adds `switches` (blocks of findings under config conditions) and `cfgreads` to a Python file's summary."""
    if summary is None:
        return
    reads = sorted({norm(m.group(2)) for m in _READ.finditer(text) if not _env_before(text, m.start())})
    if reads:
        summary["cfgreads"] = reads[:400]
    lines = set()
    for f in findings:
        if f.cell is None:
            lines.add(f.line)
            lines.update(ln for ln, _, _ in f.occurrences)
    if not lines or tree is None:
        return
    try:
        found = _Switches(tree, lines).run()
    except RecursionError:
        return
    if found:
        summary["switches"] = found[:MAX_SWITCHES]


def _env_before(text: str, at: int) -> bool:
    before = text[max(0, at - 12):at]
    return any(before.rstrip().endswith(e) for e in _ENV)


def _receiver_env(node) -> bool:
    d = _dotted(node)
    return d is not None and d.rsplit(".", 1)[-1] in _ENV


def _dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Switches:
    def __init__(self, tree: ast.Module, lines: set):
        self.tree = tree
        self.lines = sorted(lines)
        self.out: list = []
        self.modules = set()
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
        return set()

    def note(self, keys: set, first: int, last: int, cond, keyword: str = "") -> None:
        if not keys or not self.holds(first, last) or len(self.out) >= MAX_SWITCHES:
            return
        src = _source(cond)
        for k, how in sorted(keys):
            if k.isidentifier():
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
                self.block(st.body, set(), {}, self.class_attrs(st))
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
        for n in ast.walk(node):
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
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign) and len(n.targets) == 1:
                    t = n.targets[0]
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        got = {kh for kh in self.keys(n.value, set(), {}, {}) if kh[1] == "read"}
                        if got:
                            out[t.attr] = got
        return out


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


# ------------------------------------------------------------------ per training config
def config_switches(entries, values: dict) -> list:
    """[[line, col, end col, key, shown]] of a training config's scalars set to a boolean true, keys that say
    what they switch (not the generic ones of [context.values] config-switch-generic-keys)."""
    generic = {norm(k) for k in values.get("config-switch-generic-keys", ())}
    # `profiler: {enabled: False, cuda: True}`: the node is off, and nothing under it switches anything on
    off = [e.keys[:-1] for e in entries if e.value is not None and not e.in_list and e.keys
           and norm(e.key) in ("enabled", "enable") and e.value.strip().lower() in FALSE]
    out = []
    for e in entries:
        if e.value is None or e.in_list or not e.keys or e.value.strip().lower() not in TRUE:
            continue
        if any(e.keys[:len(node)] == node for node in off):
            continue
        k = norm(e.key)
        if not k.isidentifier() or k in generic:
            continue
        out.append([e.line, e.col, e.end_col, k, f"{e.key}: {e.value.strip()}"])
        if len(out) >= MAX_SWITCHES:
            break
    return out


def valid_config_switches(items) -> bool:
    return isinstance(items, list) and all(
        isinstance(s, list) and len(s) == 5 and all(type(x) is int for x in s[:3]) and isinstance(s[3], str)
        and isinstance(s[4], str) for s in items)


def _valid_python(s: dict) -> tuple[list, list]:
    sw = s.get("switches") or []
    reads = s.get("cfgreads") or []
    ok = isinstance(sw, list) and all(
        isinstance(x, list) and len(x) == 7 and isinstance(x[0], str) and all(type(v) is int for v in x[1:3])
        and x[3] in ("read", "param") and type(x[4]) is int and isinstance(x[5], str) and isinstance(x[6], str)
        for x in sw)
    ok = ok and isinstance(reads, list) and all(isinstance(k, str) for k in reads)
    return (sw, reads) if ok else ([], [])


# ------------------------------------------------------------------ the step
def switched_findings(findings: list, files: list, summaries: list, engine, cache=None, digests=(),
                      read_lines=None) -> list:
    """The new findings at the config lines that switch a Python finding on (the findings given are not
    changed or returned). `read_lines(source file) -> [str]`."""
    from ..model import Occurrences, make_finding
    from .report import _context, _unpack

    toggles: dict = {}  # key -> [(config file, line, col, end col, shown)]
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind in ("python", "notebook"):
            continue
        s = _unpack(sf.rel, packed)
        items = (s or {}).get("switches") or []
        if not valid_config_switches(items):
            continue
        for line, col, end_col, key, shown in items:
            toggles.setdefault(key, []).append((sf, line, col, end_col, shown))
    if not toggles:
        return []
    table = _python_table(files, summaries, cache, digests)
    if not table:
        return []
    switches, reads = table
    # Python findings that count: unguarded, unsuppressed, not in a notebook cell.
    by_path: dict = {}
    for f in findings:
        if f.cell is None and not f.guarded and not f.suppressed and f.path in switches:
            by_path.setdefault(f.path, []).append(f)
    rules = {r.id: r for r in engine.rules}
    values = engine.catalogue.context_values
    categories = set(values.get("config-switch-categories", ()))
    any_words = set(values.get("config-switch-any-category-words", ()))
    # (config rel, line) -> the categories already reported on that line: one finding per category per line
    present: dict = {}
    for f in findings:
        if f.cell is None and not f.suppressed:
            present.setdefault((f.path, f.line), set()).add(f.category)
    hits: dict = {}  # (config rel, line, category) -> [(python finding, switch), ...]
    for rel, items in switches.items():
        for key, first, last, how, cond_line, cond, keyword in items:
            if key not in toggles or (how == "param" and key not in reads):
                continue
            # A key turns on a feature (AMP, a CUDA library or kernel, compile, backend flags): a device call or a
            # shape that merely sits in the block is the code's own, unless the key itself names the device.
            every = bool(any_words & set(key.split("_")))
            for f in by_path.get(rel, ()):
                if f.category not in categories and not every:
                    continue
                # `LLM(model, trust_remote_code=cfg.trust_remote_code)`: a keyword switches on what the finding
                # names (`autocast(enabled=...)`, `load_in_8bit=...`), not the call it is passed to
                if keyword and keyword not in ("enabled", "enable") and keyword not in f.message:
                    continue
                if not any(first <= ln <= last for ln, _ in f.places()):
                    continue
                for sf, line, col, end_col, shown in toggles[key]:
                    if f.category in present.get((sf.rel, line), ()):
                        continue
                    hits.setdefault((sf.rel, line, f.category), []).append(
                        (f, (sf, col, end_col, shown, rel, cond_line, cond)))
    if not hits:
        return []
    occurrences = Occurrences()
    out = []
    lines_of: dict = {}
    for (crel, line, _cat), got in sorted(hits.items(), key=lambda kv: kv[0]):
        got.sort(key=lambda g: (g[0].path, g[0].line, g[0].rule))
        f, (sf, col, end_col, shown, rel, cond_line, cond) = got[0]
        rule = rules.get(f.rule)
        if rule is None:
            continue
        if crel not in lines_of:
            lines_of[crel] = read_lines(sf) if read_lines else []
        lines = lines_of[crel]
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        more = len({(g[0].path, g[0].line) for g in got}) - 1
        extra = f" and {more} more place{'s' if more > 1 else ''}" if more else ""
        message = f"`{shown}` turns on {f.path}:{f.line}{extra} (read in `{cond}` at {rel}:{cond_line}): {f.message}"
        out.append(make_finding(rule, occurrences, confidence="medium", path=crel, line=line, column=col,
                                end_line=line, end_column=end_col, snippet=text, message=message,
                                code=text.strip(), context=_context(lines, line)))
    from .report import _suppressed

    return _suppressed(out, lines_of, engine)


def _python_table(files, summaries, cache, digests):
    """({rel: switches}, keys the project reads from a config by name), from the Python summaries; kept in the
    result cache under the Python files' digests (a config edit re-joins without unpacking any)."""
    from ..cache import StepMemo
    from .report import _unpack

    memo = StepMemo(cache, "config-switches")
    key = memo.key(files, digests)
    stored = memo.get(key)
    if isinstance(stored, dict) and isinstance(stored.get("switches"), dict) and isinstance(stored.get("reads"), list):
        sw, reads = {}, set()
        for rel, items in stored["switches"].items():
            got, _ = _valid_python({"switches": items})
            sw[rel] = [tuple(x) for x in got]
        reads = {k for k in stored["reads"] if isinstance(k, str)}
        return sw, reads
    sw, reads = {}, set()
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind != "python":
            continue
        s = _unpack(sf.rel, packed) or {}
        items, keys = _valid_python(s)
        if items:
            sw[sf.rel] = [tuple(x) for x in items]
        reads.update(keys)
    memo.put(key, {"switches": {r: [list(x) for x in v] for r, v in sw.items()}, "reads": sorted(reads)})
    return sw, reads
