"""env-test-fixture: a test prepares or checks an environment variable for the code under test."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, parent_of, predicate
from ..scope import classify
from ..astwalk import walk

_PATCH_DICTS = ("patch.dict", "mock.patch.dict", "unittest.mock.patch.dict")
_STATEMENTS = (ast.stmt,)


def _is_environ(e) -> bool:
    return dotted(e) in ("os.environ", "environ") or type(e) is ast.Constant and e.value == "os.environ"


def _fixture_call(call) -> bool:
    """`monkeypatch.setenv(...)` / `.delenv(...)` (pytest's fixture, undone after the test) or
    `patch.dict(os.environ, {...})` (undone when the block or the decorated test ends)."""
    name = dotted(call.func)
    tail = name.rsplit(".", 1)[-1] if name else ""
    if tail in ("setenv", "delenv") and not name.startswith("os."):
        return True
    return name in _PATCH_DICTS and bool(call.args) and _is_environ(call.args[0])


def _assertion(call) -> bool:
    """`self.assertEqual(...)`, `assertIn(...)`: a unittest check."""
    f = call.func
    name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
    return name.startswith("assert")


def _dict_reaches_environment(ctx, d) -> bool:
    """The dict literal becomes an environment: `env={...}` of a call, `os.environ.update({...})`,
    `os.environ = {...}`, or a local bound to it and handed on as `env=name` in the same function."""
    up = parent_of(ctx, d)
    if isinstance(up, ast.keyword):
        return up.arg == "env"
    if isinstance(up, ast.Call):
        return isinstance(up.func, ast.Attribute) and _is_environ(up.func.value)
    if isinstance(up, ast.Assign):
        names = {t.id for t in up.targets if isinstance(t, ast.Name)}
        if any(not isinstance(t, ast.Name) for t in up.targets):
            return True  # os.environ = {...}, self.env = {...}: kept
        scope = enclosing_function(ctx, up) or ctx.tree
        for n in walk(scope):
            if isinstance(n, ast.keyword) and n.arg == "env" and isinstance(n.value, ast.Name) \
                    and n.value.id in names:
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is_environ(n.func.value) \
                    and any(isinstance(a, ast.Name) and a.id in names for a in n.args):
                return True
        return False
    return True  # any other place (a return value, a list of dicts): not shown to be input data


@predicate("env-test-fixture", kinds=("env",), effect="guard")
def env_test_fixture(ctx, hit) -> bool:
    """An environment-variable match (`CUDA_VISIBLE_DEVICES`) in a test file (scope `test`) that only sets the
    stage for the code under test or checks what it produced: an argument of pytest's `monkeypatch.setenv` /
    `monkeypatch.delenv`, an entry of `patch.dict(os.environ, {...})`, a value inside an `assert` or a unittest
    `self.assert...(...)` call, or a key of a dict literal the test hands to the project's function (`raw = {...};
    scrub_env(raw)`). Those fixtures are undone after the test and only exercise the project's own reading of the
    variable, which is reported where that code reads it. A dict that becomes a real environment (`env={...}` of a
    subprocess, `os.environ.update(...)`) and a plain `os.environ[...] = ...` assignment stay reported: they set the
    variable for everything the test then runs on the machine."""
    if not ctx.fact("env-test-fixture:scope", lambda c: bool(c.path) and classify(c.path) == "test"):
        return False
    node = hit.node
    child = node
    up = parent_of(ctx, node)
    while up is not None:
        if isinstance(up, ast.Assert):
            return True
        if isinstance(up, ast.Call) and (_fixture_call(up) or _assertion(up)):
            return True
        if isinstance(up, ast.Dict) and child in up.keys:
            return not _dict_reaches_environment(ctx, up)
        if isinstance(up, _STATEMENTS):
            return False
        child, up = up, parent_of(ctx, up)
    return False
