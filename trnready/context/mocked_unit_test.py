"""mocked-unit-test: a test that replaces parts of the program with mocks and runs nothing on a device."""
from __future__ import annotations

import ast

from .base import (dotted, imported_name, is_cpu, name_globs, outermost_function,
                   places_on_device, predicate)
from .cpu_unit_test import _calls_of, _cpu_named, _host_placement, _local_functions
from ..astwalk import walk
from ..scope import classify

# monkeypatch / mocker calls whose first arguments name what they replace (`setitem(os.environ, "X", "1")`,
# `setattr(sys, "argv", [...])`, `patch("sys.argv", [...])`): the last part of the call's name.
_ITEM_CALLS = ("setitem", "delitem")



def _target(call) -> str:
    """What a replacing call names as its target: the string of `patch("sys.argv", ...)` /
    `monkeypatch.setattr("pkg.mod.f", ...)`, `sys.argv` for `patch.object(sys, "argv", ...)` /
    `monkeypatch.setattr(sys, "argv", ...)`, and the mapping of `monkeypatch.setitem(os.environ, ...)`; "" when it
    names none readable."""
    if not call.args:
        return ""
    first = call.args[0]
    if type(first) is ast.Constant and isinstance(first.value, str):
        return first.value
    obj = dotted(first)
    if not obj:
        return ""
    tail = dotted(call.func).rsplit(".", 1)[-1]
    if tail not in _ITEM_CALLS and len(call.args) > 1 and type(call.args[1]) is ast.Constant \
            and isinstance(call.args[1].value, str):
        return obj + "." + call.args[1].value
    return obj


def _environment_only(ctx, call) -> bool:
    """The call only sets up the environment the test runs in (a name of `environment-patch-targets`:
    `os.environ`, `sys.argv`, `sys.path`), or installs a spy (`wraps=`: the real code still runs)."""
    if any(k.arg == "wraps" for k in call.keywords):
        return True
    target = _target(call)
    return any(target == t or target.startswith(t + ".") for t in ctx.values.get("environment-patch-targets", ()))


def _top_imports(ctx) -> dict:
    """name -> module path for the file's own top-level imports (`from unittest import mock` binds mock to
    unittest.mock): how names resolve where the file is read without its index (a linked finding's call site)."""
    def compute(c) -> dict:
        found: dict = {}
        for st in (c.tree.body if c.tree is not None else ()):
            if isinstance(st, ast.Import):
                for a in st.names:
                    found[a.asname or a.name.split(".", 1)[0]] = a.name if a.asname else a.name.split(".", 1)[0]
            elif isinstance(st, ast.ImportFrom) and st.module and not st.level:
                for a in st.names:
                    found[a.asname or a.name] = st.module + "." + a.name
        return found
    return ctx.fact("mocked-unit-test:imports", compute)


def _resolved(ctx, func) -> tuple:
    """(full name, bound by an import): through the resolver when the file was indexed, else the file's
    top-level imports."""
    if ctx.index is not None:
        return imported_name(ctx, func)
    name = dotted(func)
    root, _, rest = name.partition(".")
    module = _top_imports(ctx).get(root) if name else None
    return (module + ("." + rest if rest else ""), True) if module else (name, False)


def _replaces(ctx, call) -> bool:
    """A call of `mock-replacing-calls` (resolved through the file's imports: `patch`, `mock.patch.object`,
    `MagicMock`, `create_autospec`, `mocker.patch`, `monkeypatch.setattr`) that does not only set up the
    environment."""
    pat = name_globs(ctx, "mock-replacing-calls")
    if pat is None:
        return False
    name, _ = _resolved(ctx, call.func)
    return bool(name) and pat.fullmatch(name) is not None and not _environment_only(ctx, call)


def _mocks(ctx, func) -> bool:
    """The test replaces something: a replacing call in its decorators (`@mock.patch(...)`) or body."""
    return any(type(n) is ast.Call and _replaces(ctx, n)
               for part in (*func.decorator_list, *func.body) for n in walk(part))


def _device_work(ctx, func) -> bool:
    """The function places a tensor or a model on a device, or hands a model to a runner that does: `.cuda()`,
    `.to(x)` with anything but a dtype or "cpu", a torch call given a `device=` other than "cpu"
    (`torch.zeros(8, device="cuda")`; `torch.device("cuda")` alone is a value), or a call of
    `device-placing-calls` (`Trainer(...)`, `trainer.fit(model)`). A `device="cuda"` handed to the project's own
    code (`MixedPrecision(device="cuda")`) places nothing: that is the input a unit test feeds its logic."""
    runners = name_globs(ctx, "device-placing-calls")
    for part in func.body:
        for n in walk(part):
            if type(n) is not ast.Call:
                continue
            f = n.func
            if type(f) is ast.Attribute and f.attr in ("cuda", "to"):
                if places_on_device(n) and not _host_placement(n):
                    return True
                continue
            name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if name and runners is not None and runners.fullmatch(name):
                return True
            full, bound = _resolved(ctx, f)
            if bound and full.startswith("torch.") and full != "torch.device" and any(
                    k.arg == "device" and not is_cpu(k.value) and not _cpu_named(k.value) for k in n.keywords):
                return True
    return False


def _runs_on_device(ctx, func) -> bool:
    """The test, or a function of the file it calls (`helper()`, `self.helper()`, two levels down), does device
    work (`_device_work`)."""
    functions = _local_functions(ctx)
    seen = {id(func)}
    frontier = [func]
    for _ in range(3):
        nxt = []
        for f in frontier:
            if _device_work(ctx, f):
                return True
            for name in _calls_of(f):
                for g in functions.get(name, ()):
                    if id(g) not in seen:
                        seen.add(id(g))
                        nxt.append(g)
        frontier = nxt
    return False


def _mocked_tests(ctx) -> dict:
    """id(test) -> whether the test mocks and runs nothing on a device; computed per test on first ask."""
    return ctx.fact("mocked-unit-test:tests", lambda c: {})


def _unit_test(ctx, func) -> bool:
    memo = _mocked_tests(ctx)
    if id(func) not in memo:
        memo[id(func)] = _mocks(ctx, func) and not _runs_on_device(ctx, func)
    return memo[id(func)]


def _in_test_file(ctx) -> bool:
    return ctx.fact("mocked-unit-test:scope", lambda c: bool(c.path) and classify(c.path) == "test")


def mocked_test_at(ctx, pos: tuple, category: str) -> bool:
    """The predicate at a place (line, column offset) of a file read without its index: a linked finding at the
    call where a test hands its value to the project (`MixedPrecision(device="cuda")` followed into the plugin's
    GradScaler) sits in the test, and the test's mocks hold for it as for a finding written there."""
    if category not in ctx.values.get("mocked-test-categories", ()) or ctx.tree is None or not _in_test_file(ctx):
        return False
    line = pos[0]
    for st in ctx.tree.body:
        body = st.body if isinstance(st, ast.ClassDef) else [st]
        for fn in body:
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.lineno <= line <= (fn.end_lineno or 0):
                return fn.name.startswith("test") and _unit_test(ctx, fn)
    return False


@predicate("mocked-unit-test", effect="guard")
def mocked_unit_test(ctx, hit) -> bool:
    """A finding of a category in `mocked-test-categories` (CUDA devices, CUDA libraries, AMP, backend flags,
    compile options, process-group backends, float64, the environment) inside a test (an outermost function named
    `test*` of a test file, scope `test`) that replaces part of the program with a mock: a call of
    `mock-replacing-calls` in its body or decorators (`@mock.patch(...)`, `patch.object(...)`, `Mock()`,
    `MagicMock()`, `create_autospec(...)`, `PropertyMock()`, `mocker.patch(...)`, `monkeypatch.setattr(...)`),
    while neither the test nor a function of the file it calls puts anything on a device (`.cuda()`, `.to(x)`, a
    torch call given `device="cuda"`) or hands a model to a runner that does (`device-placing-calls`: `Trainer`,
    `.fit`). Such a test is a CPU unit test of the program's logic: its "cuda" strings, GPU flags and CUDA-only
    plugins are inputs of the logic under test, and the code they exercise is reported where it is written. Of
    the recorded verdicts on findings in test functions that mock, 57 were fp and 2 duplicates against 3 tp,
    and each of the 3 ran a real model (a `.cuda()` model, a compile of a CUDA tensor, a Trainer fit).
    Patches that only prepare the environment make no unit test: `patch.dict(os.environ, ...)`,
    `monkeypatch.setenv`/`delenv`/`chdir`, a patch of a name in `environment-patch-targets` (`sys.argv`,
    `sys.path`), a spy (`Mock(wraps=f)`: the real code runs) and `torch._dynamo.config.patch` (a setting)."""
    if hit.rule.category not in ctx.values.get("mocked-test-categories", ()):
        return False
    if not _in_test_file(ctx):
        return False
    func = outermost_function(ctx, hit.node)
    return func is not None and func.name.startswith("test") and _unit_test(ctx, func)

