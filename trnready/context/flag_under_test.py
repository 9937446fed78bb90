"""flag-under-test: a backend flag a test sets so that its assertions can check how the program handles it."""
from __future__ import annotations

import ast

from .base import dotted, imported_name, outermost_function, predicate
from ..scope import classify


def _asserted_names(ctx, fn) -> frozenset:
    """Resolved dotted names read inside the test's assertions: `assert torch.backends.cudnn.allow_tf32 is tf32`
    and unittest's `self.assertTrue(torch.backends.cudnn.benchmark)` / `assertEqual(...)`."""
    found = set()
    for node in ast.walk(fn):
        if type(node) is ast.Assert:
            parts = [node.test]
        elif type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr.startswith("assert"):
            parts = list(node.args)
        else:
            continue
        for part in parts:
            for sub in ast.walk(part):
                if type(sub) is ast.Attribute and dotted(sub):
                    found.add(imported_name(ctx, sub)[0])
    return frozenset(found)


@predicate("flag-under-test", kinds=("reference",), effect="guard")
def flag_under_test(ctx, hit) -> bool:
    """A backend flag assigned in a test function (scope `test`) whose assertions read the same flag
    (`torch.backends.cudnn.allow_tf32 = not tf32` ... `assert torch.backends.cudnn.allow_tf32 is tf32`): the test
    checks how the project's own code sets or restores the flag, so the flag is the value under test, not a
    setting the port has to change. The code under test is where the flag is set for real, and it is reported
    there. A test that sets a flag it never asserts on (a determinism setting for its own run) stays. Used by
    TRN261."""
    if ctx.index is None or not ctx.path or classify(ctx.path) != "test":
        return False
    if type(getattr(hit.node, "ctx", None)) is not ast.Store:
        return False
    fn = outermost_function(ctx, hit.node)
    if fn is None:
        return False
    key = "flag-under-test:%d" % id(fn)
    if key not in ctx.memo:
        ctx.memo[key] = _asserted_names(ctx, fn)
    return (hit.qualname or hit.name) in ctx.memo[key]
