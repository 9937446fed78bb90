"""test-cpu-fallback: a device pick of a test that falls back to the CPU (session 22 policy)."""
from __future__ import annotations

import ast

from ..scope import classify
from .base import call_scope, enclosing_function, predicate

# What ends the program (or the test) instead of falling back: a test that refuses to run without CUDA fails on
# Neuron, which a port must see.
_EXITS = frozenset({"exit", "quit", "_exit"})
_SKIP_CALLS = frozenset({"skipif", "skipIf", "skipUnless"})


def _in_test_file(ctx) -> bool:
    # A notebook is no test a runner collects, whatever its name (PyTorch-Architectures' `test_sample_ResNet18.ipynb`
    # trains the model: blind81): on Neuron its pick silently trains on the CPU
    return ctx.fact("test-cpu-fallback:scope", lambda c: bool(c.path) and classify(c.path) == "test"
                    and not c.path.endswith(".ipynb"))


def _queries(ctx) -> frozenset:
    return frozenset(ctx.values.get("device-pick-queries", ()))


def _is_query(ctx, node) -> bool:
    """`torch.cuda.is_available()` / `torch.cuda.device_count()` (as resolved), the queries a pick reads."""
    if type(node) is not ast.Call:
        return False
    wanted = _queries(ctx)
    names = ctx.resolver.qualnames(node.func, call_scope(ctx, node))
    return any(ctx.resolver.canonical(n) in wanted for n in names)


def _holds_query(ctx, expr) -> bool:
    return any(_is_query(ctx, n) for n in ast.walk(expr))


def _stops(block) -> bool:
    """A block that ends the program or fails the test: `raise` (not a test skip) or `sys.exit()`."""
    for st in block:
        if type(st) is ast.Raise:
            exc = st.exc
            called = exc.func if type(exc) is ast.Call else exc
            name = getattr(called, "attr", None) or getattr(called, "id", None) or ""
            if "Skip" not in name:
                return True
        if type(st) is ast.Expr and type(st.value) is ast.Call:
            f = st.value.func
            name = getattr(f, "attr", None) or getattr(f, "id", None) or ""
            if name in _EXITS:
                return True
    return False


def _decides(ctx, call) -> bool:
    """The query's answer decides a branch or a value that goes on without CUDA: the test of an `if`, a
    conditional expression, a `while`, or an operand of a boolean, comparison or `not` inside one or handed on as
    a keyword (`skip_timing=not torch.cuda.is_available()`). Not an `assert` (the test fails on Neuron), and not
    an `if` one arm of which stops the program: that test requires CUDA."""
    node = call
    parent = ctx.parent(node)
    while type(parent) in (ast.BoolOp, ast.UnaryOp, ast.Compare):
        node, parent = parent, ctx.parent(parent)
    if type(parent) is ast.IfExp:
        return parent.test is node
    if type(parent) is ast.keyword:
        return True
    if type(parent) is ast.Call and parent.args and parent.args[0] is node:
        # the condition of a skip the project defines (`requires_gpu = pytest.mark.skipif(not
        # torch.cuda.is_available(), ...)`, `skip_if_no_cuda = unittest.skipUnless(...)`): part of the test helper
        f = parent.func
        return (getattr(f, "attr", None) or getattr(f, "id", None) or "") in _SKIP_CALLS
    if type(parent) in (ast.If, ast.While) and parent.test is node:
        return not _stops(parent.body) and not _stops(parent.orelse)
    return False


def _picked_string(ctx, node) -> bool:
    """A CUDA device string in one arm of a conditional expression whose test asks the device query and whose other
    arm names no CUDA device: `"cuda" if torch.cuda.is_available() else "cpu"`, also inside a list (`[None, "cpu",
    "cuda"] if torch.cuda.is_available() else [None, "cpu"]`)."""
    child, parent = node, ctx.parent(node)
    for _ in range(6):
        if parent is None:
            return False
        if type(parent) is ast.IfExp and child is not parent.test:
            if not _holds_query(ctx, parent.test):
                return False
            other = parent.orelse if child is parent.body else parent.body
            return not _names([other], _head(node.value))
        if type(parent) not in (ast.List, ast.Tuple, ast.Call, ast.JoinedStr, ast.FormattedValue, ast.BinOp):
            return False
        child, parent = parent, ctx.parent(parent)
    return False


def _head(value: str) -> str:
    """"cuda:0" -> "cuda", "NCCL" -> "nccl": the device or backend a string names."""
    return value.lower().split(":", 1)[0]


def _names(block, head: str) -> bool:
    return any(type(n) is ast.Constant and type(n.value) is str and _head(n.value) == head
               for st in block for n in ast.walk(st))


def _assigned_target(node, parent):
    """`backend = "nccl"` (one plain name): the name, else None."""
    if type(parent) is ast.Assign and parent.value is node and len(parent.targets) == 1 \
            and type(parent.targets[0]) is ast.Name:
        return parent.targets[0].id
    return None


def _picked_arm(ctx, node) -> bool:
    """`if torch.cuda.is_available(): backend = "nccl"` / `else: backend = "gloo"`: the string is assigned in one
    arm of an `if` asking the device query, and the other arm assigns the same name a value that is not the same
    device or backend (the statement form of a pick; torchrec's and mmrazor's test set-ups)."""
    parent = ctx.parent(node)
    name = _assigned_target(node, parent)
    if name is None:
        return False
    arm = ctx.parent(parent)
    if type(arm) is not ast.If or not _holds_query(ctx, arm.test):
        return False
    other = arm.orelse if parent in arm.body else arm.body if parent in arm.orelse else None
    if not other or _stops(other) or _stops(arm.body if other is arm.orelse else arm.orelse):
        return False
    sets = [st for st in other if type(st) is ast.Assign and any(
        type(t) is ast.Name and t.id == name for t in st.targets)]
    return bool(sets) and not _names(other, _head(node.value))


def _fallback_pick(ctx, value) -> bool:
    """`"nccl" if torch.cuda.is_available() else "gloo"`: a conditional expression asking the device query, one
    arm a string and the other arm naming another device or backend."""
    if type(value) is not ast.IfExp or not _holds_query(ctx, value.test):
        return False
    for arm, other in ((value.body, value.orelse), (value.orelse, value.body)):
        if type(arm) is ast.Constant and type(arm.value) is str and not _names([other], _head(arm.value)):
            return True
    return False


def _picked_argument(ctx, call) -> bool:
    """`dist.init_process_group(backend, ...)` where `backend` is a local name every binding of which, in the
    function, is such a pick (`backend = "nccl" if torch.cuda.is_available() else "gloo"`). A name bound anywhere
    else too (a caller's value, `self.backend = backend` in the other arm) is not known to fall back."""
    args = [k.value for k in call.keywords if k.arg == "backend"] or call.args[:1]
    if not args or type(args[0]) is not ast.Name:
        return False
    name, fn = args[0].id, enclosing_function(ctx, call)
    if fn is None or any(a.arg == name for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs):
        return False
    values = []
    for n in ast.walk(fn):
        if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store:
            parent = ctx.parent(n)
            if type(parent) is not ast.Assign or len(parent.targets) != 1:
                return False
            values.append(parent.value)
    return bool(values) and all(_fallback_pick(ctx, v) for v in values)


@predicate("test-cpu-fallback", effect="guard")
def test_cpu_fallback(ctx, hit) -> bool:
    """In a test file (scope `test`), a device pick that falls back to the CPU: the CUDA string of `"cuda" if
    torch.cuda.is_available() else "cpu"` (also `torch.device(...)` around it, or a list of devices picked the
    same way) and the availability or count query that decides such a pick, an `if torch.cuda.is_available():`
    adding a CUDA case to a test that otherwise runs on the CPU, or `if torch.cuda.device_count() >= 2:` with a
    CPU arm. On a Neuron machine the test still runs, on the CPU: the pick is no migration item (policy of session
    22). Outside the tests the same pick stays a finding: a program silently takes the CPU on Trainium. The query
    is not guarded in an `assert` or in an `if` one arm of which raises or exits (the test requires CUDA and fails
    on Neuron). Only the rules of `test-fallback-categories` (the CUDA device and process-group backend
    categories: `"nccl" if torch.cuda.is_available() else "gloo"`, or `backend = "nccl"` in the CUDA arm of an
    `if` whose other arm sets `"gloo"`, starts the group on gloo there); the queries are data
    (`device-pick-queries`)."""
    if hit.rule.category not in ctx.values.get("test-fallback-categories", ()):
        return False
    if not _in_test_file(ctx):
        return False
    node = hit.node
    if type(node) is ast.Constant and type(node.value) is str:
        return _picked_string(ctx, node) or _picked_arm(ctx, node)
    if type(node) is ast.Call and hit.rule.category != "cuda-device" and _picked_argument(ctx, node):
        return True
    call = node
    for _ in range(3):
        if call is None or type(call) is ast.Call:
            break
        call = ctx.parent(call)
    if call is None or not _is_query(ctx, call):
        return False
    return _decides(ctx, call)
