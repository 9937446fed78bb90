"""old-torch-branch: code taken only with a torch older than the one torch-neuronx ships never runs on Neuron."""
from __future__ import annotations

import ast
import re

from .base import blocks_of, dotted, expressions_of, predicate
from .neuron_guarded import _exits
from ..astwalk import walk

# The parsers a version comparison goes through (`version.parse`, `packaging.version.Version`, `parse_version`).
_PARSERS = frozenset({"parse", "Version", "parse_version", "LooseVersion", "StrictVersion", "TorchVersion",
                      "digit_version"})
_TORCH_VERSION = ("torch.__version__", "torch.version.__version__")
_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
        "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
# Words of a project's version helper or flag that carry no relation: `is_torch_greater_or_equal_than_2_4`.
_FILLERS = frozenset({"", "is", "torch", "pytorch", "pt", "version", "than", "to"})


class _Unknown(Exception):
    pass


def _release(text: str) -> tuple:
    """(2, 4, 0) of "2.4.0", "2.4.0a0+git", "2.4.0.dev20240101"; pre-release marks are ignored."""
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    if not m:
        raise _Unknown
    return tuple(int(p) for p in m.group(1).split("."))


def _padded(a: tuple, b: tuple) -> tuple:
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)), b + (0,) * (n - len(b))


class _Version(str):
    """A torch version string that compares as a version with strings, tuples and other versions, as
    `torch.__version__` (a TorchVersion) and `packaging.version.Version` do."""

    def _pair(self, other) -> tuple:
        if isinstance(other, str):
            return _padded(_release(self), _release(other))
        if isinstance(other, tuple) and all(type(x) is int for x in other):
            return _padded(_release(self), other)
        raise _Unknown

    def __lt__(self, other):
        a, b = self._pair(other)
        return a < b

    def __le__(self, other):
        a, b = self._pair(other)
        return a <= b

    def __gt__(self, other):
        a, b = self._pair(other)
        return a > b

    def __ge__(self, other):
        a, b = self._pair(other)
        return a >= b

    def __eq__(self, other):
        a, b = self._pair(other)
        return a == b

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__


def _words(name: str) -> list:
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower().split("_")


def _relation(ctx, words: list) -> str | None:
    """The comparison a helper or flag name states (`at_least` -> ">="), from the `torch-version-*-words` lists."""
    rest = "_".join(w for w in words if w not in _FILLERS and not w.isdigit())
    for op, key in ((">=", "torch-version-at-least-words"), (">", "torch-version-above-words"),
                    ("<", "torch-version-below-words"), ("<=", "torch-version-at-most-words")):
        if rest in ctx.values.get(key, ()):
            return op
    return None


def _is_torch_version_name(words: list) -> bool:
    return "torch" in words and "version" in words


class _Eval:
    """Evaluates an expression with `torch.__version__` set to one version (the sample)."""

    def __init__(self, ctx, sample: str, scope_names):
        self.ctx = ctx
        self.sample = _Version(sample)
        self.scope_names = scope_names  # name -> the values assigned to it (the function's, then the module's)
        self.depth = 0
        self.read_version = False  # the answer depends on the torch version (else the test is about something else)

    def version(self) -> "_Version":
        self.read_version = True
        return self.sample

    def truth(self, e) -> bool:
        if type(e) is ast.BoolOp:
            known: list = []
            for v in e.values:
                try:
                    known.append(self.truth(v))
                except _Unknown:
                    known.append(None)
            want = type(e.op) is ast.Or  # `or`: one true operand decides; `and`: one false one
            if want in known:
                return want
            if None in known:
                raise _Unknown
            return not want
        if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
            return not self.truth(e.operand)
        return bool(self.value(e))

    def value(self, e):
        k = type(e)
        if k is ast.Constant:
            return e.value
        if k is ast.Tuple:
            return tuple(self.value(x) for x in e.elts)
        if k is ast.Compare:
            left = self.value(e.left)
            for op, right in zip(e.ops, e.comparators):
                r = self.value(right)
                if type(op) not in _CMP:
                    raise _Unknown
                if not _OPS[_CMP[type(op)]](left, r):
                    return False
                left = r
            return True
        if k is ast.BoolOp or k is ast.UnaryOp and type(e.op) is ast.Not:
            return self.truth(e)
        d = dotted(e)
        if d in _TORCH_VERSION:
            return self.version()
        if k is ast.Attribute:
            base = self.value(e.value)
            if isinstance(base, _Version) and e.attr in ("base_version", "public"):
                return _Version(".".join(map(str, _release(base))))
            if isinstance(base, _Version) and e.attr == "release":
                return _release(base)
            if isinstance(base, _Version) and e.attr in ("major", "minor", "micro"):
                parts = _release(base) + (0, 0)
                return parts[("major", "minor", "micro").index(e.attr)]
            raise _Unknown
        if k is ast.Subscript:
            base = self.value(e.value)
            if not isinstance(base, (list, tuple, str)):
                raise _Unknown
            if type(e.slice) is ast.Slice:
                lo, hi = (self.value(x) if x is not None else None for x in (e.slice.lower, e.slice.upper))
                return base[lo:hi]
            return base[self.value(e.slice)]
        if k is ast.Call:
            return self.call(e)
        if k is ast.Name:
            return self.name(e.id)
        raise _Unknown

    def call(self, e):
        f = e.func
        tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if type(f) is ast.Attribute and tail in ("startswith", "split"):
            base = self.value(f.value)
            if not isinstance(base, str) or e.keywords:
                raise _Unknown
            args = [self.value(a) for a in e.args]
            # str methods give plain strings, as they do on a TorchVersion: "2.14.0" < "2.4" is then a str comparison
            return str.startswith(base, *args) if tail == "startswith" else str.split(base, *args)
        if type(f) is ast.Name and tail == "hasattr" and len(e.args) == 2 and not e.keywords \
                and type(e.args[1]) is ast.Constant and isinstance(e.args[1].value, str) \
                and f"{dotted(e.args[0])}.{e.args[1].value}" in self.ctx.values.get("torch-attributes-present", ()):
            # `hasattr(torch.amp, "custom_fwd")`: a probe of the torch version by what it has; true on every target
            self.read_version = True
            return True
        if tail in _PARSERS and len(e.args) == 1:
            v = self.value(e.args[0])
            if not isinstance(v, str):
                raise _Unknown
            return _Version(v)
        words = _words(tail)
        if _is_torch_version_name(words) or "torch" in words:
            args = [a for a in e.args]
            op = _relation(self.ctx, words)
            if op is None and len(args) == 2 and _is_torch_version_name(words):
                op = self.value(args[0])  # is_torch_version("<", "2.4")
                args = args[1:]
            if op in _OPS and len(args) == 1:
                bound = self.value(args[0])
                if isinstance(bound, str):
                    return _OPS[op](self.version(), bound)
        raise _Unknown

    def name(self, name: str):
        values = self.scope_names(name)
        if values:
            if self.depth > 8:
                raise _Unknown
            self.depth += 1
            try:
                found = [self.value(v) for v in values]
            except _Unknown:
                # `TORCH_VERSION = tuple(int(x) for x in torch.__version__.split(".")[:2])`: a name that says it
                # is the torch version, made from torch.__version__ alone, compares as that version
                if _is_torch_version_name(_words(name)) and all(
                        any(dotted(n) in _TORCH_VERSION for n in walk(v)) for v in values):
                    return self.version()
                raise
            finally:
                self.depth -= 1
            if any(x != found[0] or type(x) is not type(found[0]) for x in found[1:]):
                raise _Unknown
            return found[0]
        if values is None:
            raise _Unknown  # a parameter, a loop variable: any value
        words = _words(name)
        op = _relation(self.ctx, words)
        digits = [w for w in words if w.isdigit()]
        if op is not None and "torch" in words and digits:
            return _OPS[op](self.version(), ".".join(digits))  # TORCH_VERSION_AT_LEAST_2_4, _TORCH_GREATER_EQUAL_2_1
        if _is_torch_version_name(words):
            return self.version()  # `from transformers.utils.import_utils import _torch_version`
        raise _Unknown


def _assignments(body_stmts) -> dict:
    found: dict = {}
    for st in body_stmts:
        if type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name:
            found.setdefault(st.targets[0].id, []).append(st.value)
        elif type(st) is ast.AnnAssign and type(st.target) is ast.Name and st.value is not None:
            found.setdefault(st.target.id, []).append(st.value)
        elif type(st) in (ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Import,
                          ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            for name in _bound_otherwise(st):
                found.setdefault(name, []).append(None)  # bound some other way: not a known value
    return found


def _bound_otherwise(st) -> list:
    k = type(st)
    if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        return [st.name]
    if k in (ast.Import, ast.ImportFrom):
        # an imported name is judged by its name (`TORCH_VERSION_AT_LEAST_2_4`), not as an unknown value
        return []
    targets = [st.target] if k in (ast.AugAssign, ast.For, ast.AsyncFor) else \
        [i.optional_vars for i in st.items if i.optional_vars is not None]
    return [n.id for t in targets for n in walk(t) if type(n) is ast.Name]


def _flat(stmts, out: list) -> list:
    """The statements of a block and of the blocks nested in it, but not inside nested functions or classes."""
    for s in stmts:
        out.append(s)
        if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            continue
        for name in blocks_of(type(s)):
            for inner in getattr(s, name, None) or []:
                if isinstance(inner, ast.stmt):
                    _flat([inner], out)
                else:  # except handlers and match cases hold statements
                    _flat(inner.body, out)
    return out


class _Spans:
    def __init__(self, ctx):
        self.ctx = ctx
        self.samples = tuple(ctx.values.get("target-torch-versions", ()))
        self.module = _assignments(_flat(ctx.tree.body, []))
        for g in ctx.nodes(ast.Global):  # `global flag` then `flag = ...` in a function: any value
            for name in g.names:
                self.module.setdefault(name, []).append(None)
        self.spans: list = []
        self.pruned: set = set()  # module names some of whose assignments lie in a branch an old torch takes

    def verdict(self, e, local: dict) -> bool | None:
        """True / False when the test has that value with every torch the port can meet, else None."""
        touched: list = []

        def names(n):
            if n in local:
                return None if None in local[n] else local[n]
            if n in self.module:
                if n in self.pruned:
                    touched.append(n)
                return None if None in self.module[n] else self.module[n]
            return []
        seen = set()
        for s in self.samples:
            ev = _Eval(self.ctx, s, names)
            try:
                seen.add(ev.truth(e))
                if not ev.read_version and not touched:
                    # `if lowvram_mode:`: a test of something else than the torch version (a flag that only an
                    # old torch's branch sets, `_use_apex`, is decided by the version)
                    return None
            except (_Unknown, TypeError, ValueError, IndexError, AttributeError, RecursionError):
                return None
            if len(seen) > 1:
                return None
        return seen.pop() if seen else None

    def add(self, first, last) -> None:
        self.spans.append(((first.lineno, first.col_offset), (last.end_lineno, last.end_col_offset)))

    def block(self, stmts, local: dict) -> None:
        for i, s in enumerate(stmts):
            k = type(s)
            for e in expressions_of(s, _CHOICES):
                self.expression(e, local)
            if k is ast.If:
                v = self.verdict(s.test, local)
                if v is False and s.body:
                    self.add(s.body[0], s.body[-1])
                if v is True and s.orelse:
                    self.add(s.orelse[0], s.orelse[-1])
                if v is True and not s.orelse and _exits(s.body) and i + 1 < len(stmts):
                    self.add(stmts[i + 1], stmts[-1])  # `if not is_torch_2_6: return`
                self.block(s.body, local)
                self.block(s.orelse, local)
            elif k in (ast.FunctionDef, ast.AsyncFunctionDef):
                inner = _assignments(_flat(s.body, []))
                a = s.args
                for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
                    inner.setdefault(arg.arg, []).append(None)  # a parameter: any value
                self.block(s.body, inner)
            elif k is ast.ClassDef:
                self.block(s.body, local)
            else:
                for name in blocks_of(k):
                    for inner in getattr(s, name, None) or []:
                        self.block([inner] if isinstance(inner, ast.stmt) else inner.body, local)

    def expression(self, e, local: dict) -> None:  # (asked of the _CHOICES nodes only: nothing else is looked at)
        k = type(e)
        if k is ast.IfExp:
            v = self.verdict(e.test, local)
            if v is False:
                self.add(e.body, e.body)
            elif v is True:
                self.add(e.orelse, e.orelse)
        elif k is ast.BoolOp:
            for i, part in enumerate(e.values[:-1]):
                if self.verdict(part, local) is (type(e.op) is ast.Or):
                    self.add(e.values[i + 1], e.values[-1])  # `is_torch_2_6 and compile(...)`
                    break

    def holds(self, pos) -> bool:
        return any(start <= pos < end for start, end in self.spans)


_CHOICES = (ast.IfExp, ast.BoolOp)  # the expressions `expression` decides on


def _mentions_version(ctx) -> bool:
    """A cheap first look: no name or attribute holding `version`, and no module read whole that a `hasattr` probe
    of `torch-attributes-present` names, and the file has nothing to evaluate. The
    index already holds every bound name (imports, assignments, parameters, definitions) and the attribute chains
    read from imported names (`torch.__version__`, `utils.is_torch_version`), so no walk of the tree is needed."""
    idx = ctx.index
    if any("version" in name.lower() for s in idx.scopes for name in s.bindings):
        return True
    # `hasattr(torch.amp, "custom_fwd")`: the module probed is read whole (an outermost chain of its own)
    probed = {a.rsplit(".", 1)[0] for a in ctx.values.get("torch-attributes-present", ())}
    for node, _ in idx.refs:
        if probed and type(node) in (ast.Name, ast.Attribute) and dotted(node) in probed:
            return True
        while type(node) is ast.Attribute:
            if "version" in node.attr.lower():
                return True
            node = node.value
        if type(node) is ast.Name and "version" in node.id.lower():
            return True
    return False


def _spans(ctx):
    if ctx.tree is None or not ctx.values.get("target-torch-versions") or not _mentions_version(ctx):
        return None
    spans = _Spans(ctx)
    spans.block(ctx.tree.body, {})
    if spans.spans:
        # A module flag set only in a branch an old torch takes (`_use_apex = False`, then `_use_apex = True` under
        # `if version.parse(torch.__version__) < version.parse("1.6"):`) keeps its other values with torch-neuronx:
        # judged again without those assignments, `if fp16 and _use_apex:` is never taken either.
        stmts = _flat(ctx.tree.body, [])
        dead = [st for st in stmts
                if type(st) in (ast.Assign, ast.AnnAssign) and spans.holds((st.lineno, st.col_offset))]
        if dead:
            gone = {id(st) for st in dead}
            spans.module = _assignments([st for st in stmts if id(st) not in gone])
            for g in ctx.nodes(ast.Global):
                for name in g.names:
                    spans.module.setdefault(name, []).append(None)
            spans.pruned = set(_assignments(dead))
            spans.spans = []
            spans.block(ctx.tree.body, {})
    return spans


@predicate("old-torch-branch", effect="guard")
def old_torch_branch(ctx, hit) -> bool:
    """Code taken only when the installed torch is older than every version in `target-torch-versions`
    (torch-neuronx 2.14 and later): the body of `if version.parse(torch.__version__) < version.parse("2.4"):`,
    of `if torch.__version__ < "2.4":` (a TorchVersion compares as a version), of `if TORCH_VERSION < (2, 4):`,
    of `== "2.6.0"` or `.startswith("2.6")`, of project helpers and flags read by name
    (`is_torch_version("<", "2.4")`, `is_torch_less_or_equal("2.5.1")`, `TORCH_VERSION_AT_LEAST_2_4`,
    `_TORCH_GREATER_EQUAL_2_1`, the relation words being data in `torch-version-*-words`), the `else` of a test
    true on those versions, everything after `if not is_torch_2_6: return`, one arm of `x if <test> else y` and
    the operands after a deciding one of `and`/`or`. A name assigned in the file is followed to its values. The
    test is evaluated with each target version; only a test with the same answer on all of them decides, so
    `>= "2.4"` keeps its body reported (it runs on Neuron) and `.startswith("2.1")` decides nothing (2.14 starts
    so, 2.20 does not). Such a branch never runs with torch-neuronx, so nothing in it needs porting. A module flag
    that only such a branch sets (`_use_apex = False`, then `_use_apex = True` under the old-torch test) keeps its
    other values, so `if fp16 and _use_apex:` is decided too."""
    spans = ctx.fact("old-torch-branch", _spans)
    if spans is None:
        return False
    node = hit.node
    return spans.holds((getattr(node, "lineno", 0), getattr(node, "col_offset", 0)))
