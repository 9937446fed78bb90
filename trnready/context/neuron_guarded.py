"""neuron-guarded: code that runs only when a condition is false on a Neuron machine."""
from __future__ import annotations

import ast
import re

from .base import expressions, predicate

# is_torch_xla_available(), is_xla_installed(), is_torch_tpu_available(), _XLA_AVAILABLE: TPU paths.
_TPU_CHECK = re.compile(r"^_?(is_)?(torch_)?(xla|tpu)\w*_(available|installed)$", re.I)
# `not TEST_CUDA`, `not HAS_GPU`: project flags saying "CUDA is there", used in skip decorators.
_CUDA_FLAG = re.compile(r"(^|_)(cuda|gpu|gpus)($|_)", re.I)
_SKIP_CALLS = frozenset({"skip", "skipTest", "SkipTest", "xfail"})
_SETUPS = frozenset({"setUp", "setUpClass", "setup_method", "setup_class", "setUpModule"})


def _tail(e) -> str:
    if type(e) is ast.Attribute:
        return e.attr
    if type(e) is ast.Name:
        return e.id
    return ""


class _Conditions:
    """Decides whether a test expression is always false (or always true) on a Neuron machine."""

    def __init__(self, flags: set, backends: frozenset):
        self.flags = flags  # names assigned only from never-true-on-Neuron expressions
        # Accelerators a Trainium host never has ([context.values] other-accelerators): torch.<x>.is_available()
        # and torch.<x>.device_count() answer False and 0 there.
        self.backends = backends

    def _device_count(self, e) -> bool:
        return type(e) is ast.Call and type(e.func) is ast.Attribute and e.func.attr == "device_count" \
            and _tail(e.func.value) in self.backends

    def never(self, t) -> bool:
        """False on every Neuron machine: torch.cuda.is_available(), x.is_cuda, x.device.type == "cuda", ..."""
        k = type(t)
        if k is ast.BoolOp:
            parts = [self.never(v) for v in t.values]
            return any(parts) if type(t.op) is ast.And else all(parts)
        if k is ast.UnaryOp and type(t.op) is ast.Not:
            return self.always(t.operand)
        if k is ast.Call:
            f = t.func
            if type(f) is ast.Attribute and f.attr == "is_available" and _tail(f.value) in self.backends:
                return True
            if _TPU_CHECK.match(_tail(f)):
                return True
            if type(f) is ast.Attribute and f.attr == "startswith" and t.args and type(t.args[0]) is ast.Constant:
                return t.args[0].value in ("cuda", "cuda:")
            return False
        if k is ast.Compare and len(t.ops) == 1:
            op, left, right = type(t.ops[0]), t.left, t.comparators[0]
            if op in (ast.Eq, ast.In, ast.Is):
                return any(type(o) is ast.Constant and o.value in ("cuda", "gpu") for o in (left, right))
            if self._device_count(left) and op in (ast.Gt, ast.GtE) and type(right) is ast.Constant \
                    and isinstance(right.value, int) and right.value >= (0 if op is ast.Gt else 1):
                return True
            return False
        if k is ast.Attribute:
            if t.attr == "is_cuda":
                return True
            if t.attr in ("hip", "cuda") and _tail(t.value) == "version":
                return True  # torch.version.hip / torch.version.cuda are None off CUDA/ROCm builds
            return bool(_TPU_CHECK.match(t.attr))
        if k is ast.Name:
            return t.id in self.flags or bool(_TPU_CHECK.match(t.id))
        return False

    def always(self, t) -> bool:
        """True on every Neuron machine (the negation of `never`)."""
        k = type(t)
        if k is ast.BoolOp:
            parts = [self.always(v) for v in t.values]
            return all(parts) if type(t.op) is ast.And else any(parts)
        if k is ast.UnaryOp and type(t.op) is ast.Not:
            return self.never(t.operand)
        if k is ast.Compare and len(t.ops) == 1:
            op, left, right = type(t.ops[0]), t.left, t.comparators[0]
            if self._device_count(left) and op in (ast.Lt, ast.LtE, ast.Eq) and type(right) is ast.Constant \
                    and isinstance(right.value, int) and right.value >= (1 if op is ast.Lt else 0):
                return True
            if op in (ast.NotEq, ast.NotIn, ast.IsNot) and any(
                    type(o) is ast.Constant and o.value in ("cuda", "gpu") for o in (left, right)):
                return True
        return False

    def skip_needs_cuda(self, cond) -> bool:
        """A skip condition that holds without CUDA: `not torch.cuda.is_available()`, `not TEST_CUDA`."""
        if self.always(cond):
            return True
        if type(cond) is ast.UnaryOp and type(cond.op) is ast.Not and type(cond.operand) in (ast.Name, ast.Attribute):
            return bool(_CUDA_FLAG.search(_tail(cond.operand)))
        if type(cond) is ast.BoolOp and type(cond.op) is ast.Or:
            return any(self.skip_needs_cuda(v) for v in cond.values)
        return False


_REBOUND = object()  # a name bound some other way (augmented assignment, loop target, walrus)


def _flags(stmts, conds: _Conditions) -> set:
    """Names every assignment of which is a never-on-Neuron expression (or False/None), at least one
    being a check: `_SUPPORTS_FLEX = torch.cuda.is_available() and ...`, then `if _SUPPORTS_FLEX:`."""
    assigns: dict = {}
    for node in stmts:
        k = type(node)
        if k is ast.Assign:
            for t in node.targets:
                if type(t) is ast.Name:
                    assigns.setdefault(t.id, []).append(node.value if len(node.targets) == 1 else _REBOUND)
        elif k is ast.AnnAssign:
            if type(node.target) is ast.Name and node.value is not None:
                assigns.setdefault(node.target.id, []).append(node.value)
        elif k in (ast.AugAssign, ast.For, ast.AsyncFor) and type(node.target) is ast.Name:
            assigns.setdefault(node.target.id, []).append(_REBOUND)
    if not assigns:
        return set()
    flags: set = set()
    for _ in range(2):  # a flag derived from another flag: USE_FLEX = _SUPPORTS_FLEX and cfg.flex
        conds.flags = flags
        flags = {n for n, vals in assigns.items()
                 if _REBOUND not in vals
                 and all((type(v) is ast.Constant and v.value in (False, None)) or conds.never(v) for v in vals)
                 and any(conds.never(v) for v in vals)}
    return flags


def _exits(stmts) -> str:
    """'skip' / 'exit' when the block ends by leaving the function or test, else ''."""
    if not stmts:
        return ""
    last = stmts[-1]
    if type(last) is ast.Expr and type(last.value) is ast.Call and _tail(last.value.func) in _SKIP_CALLS:
        return "skip"
    if type(last) is ast.Raise and last.exc is not None:
        exc = last.exc.func if type(last.exc) is ast.Call else last.exc
        return "skip" if _tail(exc) in _SKIP_CALLS else "exit"
    if type(last) in (ast.Return, ast.Continue, ast.Break):
        return "exit"
    if type(last) is ast.Expr and type(last.value) is ast.Call and _tail(last.value.func) == "exit":
        return "exit"
    return ""


class _Spans:
    def __init__(self, ctx):
        self.ctx = ctx
        self.conds = _Conditions(set(), frozenset(ctx.values.get("other-accelerators", ())))
        self.values = ctx.values
        self.decorators = frozenset(ctx.values.get("cuda-test-decorators", ()))
        self.packages = frozenset(ctx.values.get("cuda-only-packages", ()))
        self.spans: list = []  # (start, end, choice): choice = a branch that picks between devices

    def add(self, first, last, choice=False) -> None:
        start = (first.lineno, first.col_offset)
        if hasattr(first, "decorator_list") and first.decorator_list:
            d = first.decorator_list[0]
            start = min(start, (d.lineno, d.col_offset - 1))
        self.spans.append((start, (last.end_lineno, last.end_col_offset), choice))

    def run(self, tree) -> "_Spans":
        self.conds.flags = _flags(self.ctx.statements(), self.conds)
        if self._module_skipped(tree.body):
            self.add(tree.body[0], tree.body[-1])
        self.block(tree.body)
        self.statement_spans, self.spans = self.spans, []
        self.by_statement: dict = {}
        return self

    def holds(self, pos, device: bool) -> bool:
        if any(start <= pos < end and not (choice and device) for start, end, choice in self.statement_spans):
            return True
        # Inside one statement: `a and b` after a CUDA check, either branch of `x if <check> else y`. Only the
        # innermost statement holding the match is walked, and only once.
        inner = self.ctx.statement_at(pos)
        if inner is None:
            return False
        spans = self.by_statement.get(id(inner))
        if spans is None:
            spans = self.by_statement[id(inner)] = self._expression_spans(inner)
        return any(start <= pos < end and not (choice and device) for start, end, choice in spans)

    def _expression_spans(self, stmt) -> list:
        self.spans = []
        for node in expressions(stmt):
            k = type(node)
            if k is ast.BoolOp and type(node.op) is ast.And:
                # torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0): the right-hand
                # operands are never evaluated on a Neuron machine
                for i, v in enumerate(node.values[:-1]):
                    if self.conds.never(v):
                        self.add(node.values[i + 1], node.values[-1])
                        break
            elif k is ast.IfExp:
                if self.conds.never(node.test):
                    self.add(node.body, node.body, choice=True)
                elif self.conds.always(node.test):
                    self.add(node.orelse, node.orelse, choice=True)
        return self.spans

    def block(self, stmts) -> None:
        for i, s in enumerate(stmts):
            k = type(s)
            if k is ast.If:
                never, always = self.conds.never(s.test), self.conds.always(s.test)
                if never and s.body:
                    self.add(s.body[0], s.body[-1], choice=bool(s.orelse))
                if always and s.orelse:
                    self.add(s.orelse[0], s.orelse[-1], choice=True)
                if always and not s.orelse:
                    how = _exits(s.body)
                    if how and i + 1 < len(stmts):
                        self.add(stmts[i + 1], stmts[-1])  # `if not torch.cuda.is_available(): return`
                    if how == "skip":
                        self.add(s, s)  # the skip guard of a test is part of the test
                self.block(s.body)
                self.block(s.orelse)
            elif k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                if any(self._skip_decorator(d) for d in s.decorator_list) or (
                        k is ast.ClassDef and self._setup_skips(s)):
                    self.add(s, s)
                self.block(s.body)
            elif k in (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith):
                self.block(s.body)
                self.block(getattr(s, "orelse", []))
            else:  # try / try* / match: every nested block (handlers and match cases hold statements)
                for name in ("body", "orelse", "finalbody"):
                    self.block(getattr(s, name, None) or [])
                for h in (getattr(s, "handlers", None) or []) + (getattr(s, "cases", None) or []):
                    self.block(h.body)

    def _skip_decorator(self, d) -> bool:
        """@unittest.skipIf(not torch.cuda.is_available(), ...), @pytest.mark.skipif(...), @skipUnless(cuda),
        @gpu_test(2), @requires_cuda, @withPackage("cudf")."""
        func = d.func if type(d) is ast.Call else d
        name = _tail(func)
        if name in self.decorators:
            return True
        if type(d) is not ast.Call:
            return False
        if name in ("skipIf", "skipif") and d.args:
            return self.conds.skip_needs_cuda(d.args[0])
        if name == "skipUnless" and d.args:
            return self.conds.never(d.args[0]) or (
                type(d.args[0]) in (ast.Name, ast.Attribute) and bool(_CUDA_FLAG.search(_tail(d.args[0]))))
        if name == "withPackage":
            return any(type(a) is ast.Constant and isinstance(a.value, str)
                       and a.value.split(">")[0].split("=")[0].strip() in self.packages for a in d.args)
        return False

    def _module_skipped(self, body) -> bool:
        """pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), ...) (or a list holding one)."""
        for s in body:
            if type(s) is ast.Assign and any(type(t) is ast.Name and t.id == "pytestmark" for t in s.targets):
                marks = s.value.elts if type(s.value) in (ast.List, ast.Tuple) else [s.value]
                if any(self._skip_decorator(m) for m in marks):
                    return True
        return False

    def _setup_skips(self, cls: ast.ClassDef) -> bool:
        """A test class whose setUp skips without CUDA: `if not torch.cuda.is_available(): self.skipTest(...)`."""
        for s in cls.body:
            if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name in _SETUPS:
                for st in s.body:
                    if type(st) is ast.If and self.conds.always(st.test) and _exits(st.body) == "skip":
                        return True
        return False


def _spans(ctx):
    if ctx.tree is None:
        return None
    return _Spans(ctx).run(ctx.tree)


@predicate("neuron-guarded", effect="guard")
def neuron_guarded(ctx, hit) -> bool:
    """Code that runs only when a condition is false on a Neuron machine: the body of
    `if torch.cuda.is_available():`, `if x.device.type == "cuda":`, `if x.is_cuda:`, `if torch.version.hip:`,
    optional TPU paths (`if is_torch_xla_available():`), flags assigned from such checks
    (`_SUPPORTS_FLEX = torch.cuda.is_available() and ...` then `if _SUPPORTS_FLEX:`), everything after
    `if not torch.cuda.is_available(): return` (or raise, or a test skip), and tests that skip without
    CUDA (`@unittest.skipIf(not torch.cuda.is_available(), ...)`, `@pytest.mark.skipif(...)`, a module
    `pytestmark`, a `setUp` that calls skipTest, project decorators listed in `cuda-test-decorators`,
    `@withPackage("cudf")` for packages in `cuda-only-packages`). Such findings are marked guarded.

    The condition itself is never guarded, and a device string in a branch that chooses between
    devices (`"cuda" if torch.cuda.is_available() else "cpu"`, or an if/else) stays a finding: on
    Trainium that choice silently falls back to the CPU."""
    node = hit.node
    spans = ctx.fact("neuron-guarded", _spans)
    if spans is None:
        return False
    return spans.holds((getattr(node, "lineno", 0), getattr(node, "col_offset", 0)), hit.matcher.kind == "device")
