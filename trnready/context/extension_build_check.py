"""extension-build-check: a CUDA query in a build script that builds a CPU extension when it answers False."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate
from ..astwalk import walk

# The queries a build script asks to choose what it compiles.
_QUERIES = frozenset({"is_available", "device_count", "get_device_capability", "get_arch_list"})


def _builds_cpu_extension(ctx) -> bool:
    """The module imports `CppExtension` from `torch.utils.cpp_extension` (or spells
    `torch.utils.cpp_extension.CppExtension`): it can build the extension without CUDA."""
    if not ctx.may_name("CppExtension"):  # both forms spell the name: a text without it needs no walk
        return False
    for node in walk(ctx.tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("utils.cpp_extension") \
                and any(a.name == "CppExtension" for a in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "CppExtension" \
                and dotted(node.value).endswith("cpp_extension"):
            return True
    return False


@predicate("extension-build-check", kinds=("reference",), effect="guard")
def extension_build_check(ctx, hit) -> bool:
    """A CUDA query (`torch.cuda.is_available()`, `device_count()`, `get_device_capability()`) in a build script
    that also builds a `CppExtension` (torchsparse's setup.py: `if torch.cuda.is_available() and CUDA_HOME is not
    None or FORCE_CUDA: device = "cuda"` then `CUDAExtension if device == "cuda" else CppExtension`). The query runs
    when the package is built, not when the model runs: it picks which extension is compiled, and on a Trainium host
    it answers False and the CPU extension is built, which is the one the port needs. Nothing is placed on a
    device. Only when the query is the test (or part of the test) of an `if` whose other arm goes on without raising,
    exiting or returning (`else: device = "cpu"`), or of a conditional expression whose other value is the
    `CppExtension`. A build script with only a `CUDAExtension`, or whose other arm raises (`raise
    NotImplementedError("Cuda is not available")`) or builds nothing (`return []`), stays reported."""
    if ctx.tree is None:
        return False
    call = parent_of(ctx, hit.node)
    if not (isinstance(call, ast.Call) and call.func is hit.node and dotted(hit.node).rsplit(".", 1)[-1] in _QUERIES):
        return False
    if not ctx.fact("extension-build-check", _builds_cpu_extension):
        return False
    cur: ast.expr = call
    up = parent_of(ctx, call)
    while isinstance(up, (ast.BoolOp, ast.UnaryOp, ast.Compare)):
        cur, up = up, parent_of(ctx, up)
    if isinstance(up, ast.IfExp) and up.test is cur:
        return any(isinstance(n, ast.Name) and n.id == "CppExtension" or isinstance(n, ast.Attribute)
                   and n.attr == "CppExtension" for n in walk(up.orelse))
    return isinstance(up, ast.If) and up.test is cur and bool(up.orelse) and not _leaves(up.orelse)


def _leaves(nodes) -> bool:
    """The arm raises, exits or returns: without CUDA the script builds nothing (or stops)."""
    for top in nodes:
        for n in walk(top):
            if isinstance(n, (ast.Raise, ast.Return)):
                return True
            if isinstance(n, ast.Call) and dotted(n.func).rsplit(".", 1)[-1] in ("exit", "_exit", "abort"):
                return True
    return False
