"""device-data-in-test: a "cuda" string or a GPU flag that a unit test hands to logic as plain data."""
from __future__ import annotations

import ast

from .base import dotted, imported_name, outermost_function, parent_of, predicate
from .project_callee import callee_names
from ..scope import classify
from ..astwalk import walk



def _local_functions(ctx) -> dict:
    def compute(c) -> dict:
        found: dict = {}
        for st in c.statements():
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                found.setdefault(st.name, []).append(st)
        return found
    return ctx.fact("device-data-in-test:defs", compute)


def _callee_name(call) -> str:
    f = call.func
    if type(f) is ast.Name:
        return f.id
    if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id in ("self", "cls"):
        return f.attr
    return ""


def _tensor_work(ctx, tree, carrier) -> bool:
    """The subtree calls torch (`torch.randn(...)`, `torch.amp.autocast(...)`) or moves something (`.cuda()`,
    `.to(...)`) anywhere but in the carrier call itself. Dtypes read as attributes (`torch.bfloat16`) are no work."""
    for n in walk(tree):
        if type(n) is not ast.Call or n is carrier:
            continue
        f = n.func
        if type(f) is ast.Attribute and f.attr in ("cuda", "to"):
            return True
        name, bound = imported_name(ctx, f)
        if bound and (name == "torch" or name.startswith("torch.")):
            return True
    return False


def _mocks(ctx, func) -> bool:
    """The test replaces parts of the project for the call: a `monkeypatch` / `mocker` parameter, a `patch(...)`
    decorator or call, a `Mock()` / `MagicMock()`."""
    names = set(ctx.values.get("test-mock-names", ()))
    args = func.args
    if any(a.arg in names for a in args.posonlyargs + args.args + args.kwonlyargs):
        return True
    for n in walk(func):
        if type(n) is ast.Call:
            name = dotted(n.func)
            if name and (name.rsplit(".", 1)[-1] in names or name.split(".", 1)[0] in names):
                return True
    return False


def _unpacked(ctx, d, func) -> bool:
    """The dict literal is spread into a call as keywords: `f(**{...})`, or `cfg = {...}` then `f(**cfg)`."""
    up = parent_of(ctx, d)
    if isinstance(up, ast.keyword):
        return up.arg is None
    names = {t.id for t in up.targets if isinstance(t, ast.Name)} if isinstance(up, ast.Assign) else set()
    return any(isinstance(n, ast.keyword) and n.arg is None and isinstance(n.value, ast.Name) and n.value.id in names
               for n in walk(func))


def _carrier(ctx, node):
    """The call or dict literal the matched value is written in, or None."""
    if isinstance(node, ast.Call):
        return node  # the call itself is the finding (a device keyword or argument it is given)
    up = parent_of(ctx, node)
    if isinstance(up, ast.keyword):
        up = parent_of(ctx, up)
    if isinstance(up, (ast.Call, ast.Dict)):
        return up
    return None


@predicate("device-data-in-test", kinds=("device", "keyword"), effect="guard")
def device_data_in_test(ctx, hit) -> bool:
    """A device string or GPU flag (`device="cuda"`, `load_in_4bit=True`, `backend="cuda"`) in a test file (scope
    `test`) that is an input of a unit test of the project's logic rather than a placement: it is written into a
    record the test builds (`SimpleNamespace(device="cuda")`, `dict(...)`, a `{...}` literal, `self.subTest(...)`,
    a `Mock(...)`: names in `test-data-constructors`), handed to a function or class the test file defines, or
    handed to one of the project's own functions by a test that mocks its surroundings (a `monkeypatch` parameter,
    `patch(...)`, `Mock()`: `test-mock-names`). It must sit in a test (an outermost function named `test*`; a
    program under tests/ is no unit test), and that test must do no tensor work besides:
    no torch call and no `.cuda()` / `.to(...)`, reading a dtype such as `torch.bfloat16` aside; a helper of the
    file it hands the value to must do none either. A test that moves tensors, or hands the flag to a library
    loader, stays reported."""
    if not ctx.fact("device-data-in-test:scope", lambda c: bool(c.path) and classify(c.path) == "test"):
        return False
    carrier = _carrier(ctx, hit.node)
    if carrier is None:
        return False
    func = outermost_function(ctx, hit.node)
    if func is None or not func.name.startswith("test") or _tensor_work(ctx, func, carrier):
        return False
    if isinstance(carrier, ast.Dict):
        return not _unpacked(ctx, carrier, func)  # a record the test writes, unless spread into a call
    name = _callee_name(carrier)
    if dotted(carrier.func).rsplit(".", 1)[-1] in ctx.values.get("test-data-constructors", ()):
        return True
    local = _local_functions(ctx).get(name, ()) if name else ()
    if local:
        return not any(_tensor_work(ctx, d, None) for d in local)
    names = callee_names(ctx, carrier)
    libraries = set(ctx.values.get("model-libraries", ())) | set(ctx.values.get("cuda-only-packages", ()))
    if names and not any(n.split(".", 1)[0] in libraries for n in names):
        return _mocks(ctx, func)
    return False
