"""cuda-build-arm: a CUDAExtension a build script picks only in the arm of a CUDA availability test."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate
from .extension_build_check import _QUERIES, _builds_cpu_extension, _leaves
from ..astwalk import walk


def _asks_cuda(test) -> bool:
    """The test calls a CUDA query (`torch.cuda.is_available()`, `torch.cuda.device_count()`)."""
    for n in walk(test):
        if isinstance(n, ast.Call):
            name = dotted(n.func)
            if name.rsplit(".", 1)[-1] in _QUERIES and ".cuda." in f".{name}":
                return True
    return False


@predicate("cuda-build-arm", kinds=("call", "reference"), effect="guard")
def cuda_build_arm(ctx, hit) -> bool:
    """A `CUDAExtension` (called, or put in a name: `extension = CUDAExtension`) inside the body of an `if` whose
    test asks whether CUDA is there (`if (torch.cuda.is_available() and CUDA_HOME is not None) or
    os.getenv("FORCE_CUDA", "0") == "1":`), in a build script that also builds a `CppExtension` and whose other arm
    goes on (no raise, exit or return). detectron2's setup.py and its many forks, maskrcnn-benchmark, FCOS,
    AdelaiDet, pytorch_cluster, openfold and MONAI build the CPU extension on a host without CUDA, so on Trainium the
    CUDA build is never chosen: the kernels it would compile are reported where they are (TRN601), and what
    the port needs is the CPU build. Ten recorded verdicts call this line wrong. A script whose only extension is a
    `CUDAExtension`, or whose other arm raises, stays reported."""
    if ctx.tree is None or not ctx.fact("extension-build-check", _builds_cpu_extension):
        return False
    node = hit.node
    cur = node
    up = parent_of(ctx, node)
    while up is not None:
        if isinstance(up, ast.If) and any(cur is st for st in up.body):
            return _asks_cuda(up.test) and not _leaves(up.orelse)
        if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            return False
        cur, up = up, parent_of(ctx, up)
    return False
