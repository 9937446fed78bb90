"""stub-torch-test: a test module that puts a stand-in in place of torch (or of the project's device module)."""
from __future__ import annotations

import ast

from .base import dotted, predicate
from ..scope import classify

_MODULE_TYPES = ("types.ModuleType", "ModuleType", "_types.ModuleType")
_PATCH_DICTS = ("patch.dict", "mock.patch.dict", "unittest.mock.patch.dict")


def _stand_in_name(ctx, key) -> bool:
    """A module name a stand-in may replace: torch or one of its modules, or a module whose dotted parts
    include a word of `stub-module-words` (`utils.hardware`, `myproj.device`)."""
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return False
    name = key.value
    if name == "torch" or name.startswith("torch."):
        return True
    words = set(ctx.values.get("stub-module-words", ()))
    return any(part in words for part in name.lower().split("."))


def _is_sys_modules(e) -> bool:
    return dotted(e) == "sys.modules" or type(e) is ast.Constant and e.value == "sys.modules"


def _replaces_cuda_query(target) -> bool:
    """`torch.cuda.is_available = lambda: True`: the test answers for torch.cuda itself."""
    name = dotted(target)
    return name.startswith("torch.cuda.") and name.count(".") >= 2


def _installs_stand_in(ctx) -> bool:
    def compute(c) -> bool:
        if c.tree is None:
            return False
        for node in c.nodes(ast.Assign):
            for t in node.targets:
                targets = t.elts if isinstance(t, ast.Tuple) else [t]
                for e in targets:
                    if isinstance(e, ast.Subscript) and _is_sys_modules(e.value) and _stand_in_name(c, e.slice):
                        return True  # sys.modules["torch"] = fake
                    if _replaces_cuda_query(e):
                        return True
        for call in c.calls():
            name = dotted(call.func)
            tail = name.rsplit(".", 1)[-1]
            if name in _MODULE_TYPES and call.args and _stand_in_name(c, call.args[0]):
                return True  # types.ModuleType("torch")
            if tail == "setitem" and len(call.args) >= 2 and _is_sys_modules(call.args[0]) \
                    and _stand_in_name(c, call.args[1]):
                return True  # monkeypatch.setitem(sys.modules, "torch", fake)
            if name in _PATCH_DICTS and call.args and _is_sys_modules(call.args[0]) and len(call.args) >= 2 \
                    and isinstance(call.args[1], ast.Dict) and any(_stand_in_name(c, k) for k in call.args[1].keys):
                return True  # patch.dict(sys.modules, {"torch": fake})
            if tail == "setattr" and call.args and dotted(call.args[0]) == "torch.cuda":
                return True  # monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        return False
    return ctx.fact("stub-torch-test", compute)


@predicate("stub-torch-test", effect="guard")
def stub_torch_test(ctx, hit) -> bool:
    """A finding of a category in `stub-test-categories` (CUDA devices, CUDA libraries, the environment, AMP,
    backend flags) in a test file (scope `test`) that puts a stand-in in place of torch or of the project's
    device module: `sys.modules["torch"] = fake`, `monkeypatch.setitem(sys.modules, "torch", fake)`,
    `patch.dict(sys.modules, {"torch": fake})`, `types.ModuleType("torch")` or `ModuleType("utils.hardware")`
    (a module whose dotted name holds a word of `stub-module-words`), or that answers for torch.cuda itself
    (`torch.cuda.is_available = lambda: True`, `monkeypatch.setattr(torch.cuda, ...)`). Such a module tests the
    project's device logic against a pretend machine: its "cuda" strings, flags and environment variables are
    inputs of that pretence and no tensor reaches a GPU, so nothing in it needs a port (the code under test is
    reported where it is written). A docstring calling the module CPU-only is not evidence; the stand-in is."""
    if hit.rule.category not in ctx.values.get("stub-test-categories", ()):
        return False
    if not ctx.fact("stub-torch-test:scope", lambda c: bool(c.path) and classify(c.path) == "test"):
        return False
    return _installs_stand_in(ctx)
