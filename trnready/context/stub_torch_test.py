"""stub-torch-test: a test module that puts a stand-in in place of torch (or of the project's device module)."""
from __future__ import annotations

import ast

from ._test_skips import words
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


_PATCHES = ("patch", "mock.patch", "unittest.mock.patch")
_PATCH_OBJECTS = ("patch.object", "mock.patch.object", "unittest.mock.patch.object")


def _mocked_cuda_query(ctx, name: str) -> bool:
    """A dotted target string whose last part is a CUDA query (`...accelerators.cuda.num_cuda_devices`,
    `torch.cuda.is_available`, `pkg.utils.get_gpu_count`): its own words or the module's name a GPU
    (`gpu-words`) and its last part asks for devices (`cuda-query-words`)."""
    gpu = set(ctx.values.get("gpu-words", ()))
    queries = set(ctx.values.get("cuda-query-words", ()))
    module, _, last = name.rpartition(".")
    last_words = words(last)
    return bool(queries & set(last_words)) and bool(gpu & set(last_words + words(module)))


def _mocked_hardware_fixture(ctx, fn) -> bool:
    """A test taking a fixture named for pretend GPUs (`cuda_count_2`, `mock_cuda_available`, `fake_gpus`): its name
    holds a GPU word and a word of `mocked-hardware-words`."""
    gpu = set(ctx.values.get("gpu-words", ()))
    fake = set(ctx.values.get("mocked-hardware-words", ()))
    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        parts = set(words(a.arg))
        if parts & gpu and parts & fake:
            return True
    return False


def _scope_of(ctx, node):
    """Where a torch.cuda answer holds: the outermost function holding it when that is a plain function or a test
    method (a test or fixture patching for itself); None (the whole module) at the top level or in a helper of a
    class (the methods of a pretend-CUDA context manager the tests share)."""
    outer = None
    up = ctx.parent(node)
    while up is not None:
        if isinstance(up, ast.ClassDef):
            return outer if outer is not None and outer.name.startswith("test") else None
        if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
            outer = up
        up = ctx.parent(up)
    return outer


def _stand_ins(ctx) -> tuple:
    """(a module stand-in anywhere: the whole file, the functions that answer for torch.cuda themselves)."""
    def compute(c) -> tuple:
        whole: bool = False
        functions: list = []
        if c.tree is None:
            return whole, functions

        def cuda_answer(node):
            nonlocal whole
            scope = _scope_of(c, node)
            if scope is None:
                whole = True
            else:
                functions.append(scope)
        for node in c.nodes(ast.Assign):
            for t in node.targets:
                targets = t.elts if isinstance(t, ast.Tuple) else [t]
                for e in targets:
                    if isinstance(e, ast.Subscript) and _is_sys_modules(e.value) and _stand_in_name(c, e.slice):
                        whole = True  # sys.modules["torch"] = fake
                    elif _replaces_cuda_query(e):
                        cuda_answer(node)  # torch.cuda.is_available = lambda: True
        for call in c.calls():
            name = dotted(call.func)
            tail = name.rsplit(".", 1)[-1]
            if name in _MODULE_TYPES and call.args and _stand_in_name(c, call.args[0]):
                whole = True  # types.ModuleType("torch")
            elif tail == "setitem" and len(call.args) >= 2 and _is_sys_modules(call.args[0]) \
                    and _stand_in_name(c, call.args[1]):
                whole = True  # monkeypatch.setitem(sys.modules, "torch", fake)
            elif name in _PATCH_DICTS and len(call.args) >= 2 and _is_sys_modules(call.args[0]) \
                    and isinstance(call.args[1], ast.Dict) and any(_stand_in_name(c, k) for k in call.args[1].keys):
                whole = True  # patch.dict(sys.modules, {"torch": fake})
            elif tail == "setattr" and call.args and dotted(call.args[0]) == "torch.cuda":
                cuda_answer(call)  # monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
            elif (name in _PATCHES or tail == "setattr") and call.args and isinstance(call.args[0], ast.Constant) \
                    and isinstance(call.args[0].value, str) and _mocked_cuda_query(c, call.args[0].value):
                cuda_answer(call)  # @mock.patch("pkg.accelerators.cuda.num_cuda_devices", return_value=2)
            elif name in _PATCH_OBJECTS and len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) \
                    and isinstance(call.args[1].value, str) \
                    and _mocked_cuda_query(c, dotted(call.args[0]) + "." + call.args[1].value):
                cuda_answer(call)  # mock.patch.object(CUDAAccelerator, "is_available", return_value=True)
        for fn in (*c.nodes(ast.FunctionDef), *c.nodes(ast.AsyncFunctionDef)):
            if fn.name.startswith("test") and _mocked_hardware_fixture(c, fn):
                functions.append(fn)  # def test_x(cuda_count_2): a fixture pretends two GPUs
        return whole, functions
    return ctx.fact("stub-torch-test", compute)


@predicate("stub-torch-test", effect="guard")
def stub_torch_test(ctx, hit) -> bool:
    """A finding of a category in `stub-test-categories` (CUDA devices, CUDA libraries, the environment, AMP,
    backend flags) in a test file (scope `test`) that puts a stand-in in place of torch or of the project's
    device module: `sys.modules["torch"] = fake`, `monkeypatch.setitem(sys.modules, "torch", fake)`,
    `patch.dict(sys.modules, {"torch": fake})`, `types.ModuleType("torch")` or `ModuleType("utils.hardware")`
    (a module whose dotted name holds a word of `stub-module-words`), or that answers for torch.cuda itself
    (`torch.cuda.is_available = lambda: True`, `monkeypatch.setattr(torch.cuda, ...)`): at the top level or in a
    class (a pretend-CUDA context manager) for the whole module, inside a function (a test or fixture patching for
    itself) for that function alone, since the module's other tests may use the real device. Such a module tests the
    project's device logic against a pretend machine: its "cuda" strings, flags and environment variables are
    inputs of that pretence and no tensor reaches a GPU, so nothing in it needs a port (the code under test is
    reported where it is written). A docstring calling the module CPU-only is not evidence; the stand-in is."""
    if hit.rule.category not in ctx.values.get("stub-test-categories", ()):
        return False
    if not ctx.fact("stub-torch-test:scope", lambda c: bool(c.path) and classify(c.path) == "test"):
        return False
    whole, functions = _stand_ins(ctx)
    if whole:
        return True
    if not functions:
        return False
    up = ctx.parent(hit.node)
    while up is not None:
        if any(up is f for f in functions):
            return True
        up = ctx.parent(up)
    return False
