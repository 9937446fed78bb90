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
    the port needs is the CPU build. Ten recorded verdicts call this line wrong. Only for a test that also lets the
    user force the build (`or FORCE_CUDA`: a plain availability test is neuron-guarded's), and only at the top of
    the script or in a function without parameters (`get_extensions()`); a helper each extension calls with its own
    sources is the extension step's. A script whose only extension is a `CUDAExtension`, or whose other arm raises,
    stays reported."""
    if ctx.tree is None or not ctx.fact("extension-build-check", _builds_cpu_extension):
        return False
    node = hit.node
    cur = node
    up = parent_of(ctx, node)
    arm = None
    while up is not None:
        if arm is None and isinstance(up, ast.If) and any(cur is st for st in up.body):
            arm = up
        if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = up.args
            if a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg:
                # a helper each extension calls with its own sources (`make_ext(name, module, sources,
                # sources_cuda)`): which of them need CUDA is the extension step's question (project/cpu_less_sources)
                return False
            break
        if isinstance(up, ast.ClassDef):
            return False
        cur, up = up, parent_of(ctx, up)
    if arm is None or not _opt_in(arm.test):
        return False  # a plain availability test: neuron-guarded says it (and the gated-sources step reads that)
    return not _leaves(arm.orelse)


def _opt_in(test) -> bool:
    """`cuda_test or opt_in`: an `or` one of whose operands asks for CUDA and another does not (`os.getenv(
    "FORCE_CUDA", "0") == "1"`, a build flag the user may set), which neuron-guarded cannot call False."""
    return isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and any(_asks_cuda(v) for v in test.values) \
        and not all(_asks_cuda(v) for v in test.values)
