"""Report step: the tests and benchmarks of a CUDA kernel the project builds run only where that build exists."""
from __future__ import annotations

import re
from dataclasses import replace

_SCOPES = ("test", "benchmark")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_KERNEL = re.compile(r"\b__global__\b")


def _imports_kernel(f) -> bool:
    """An unguarded custom-kernel finding on an import statement at the top level of the module (column 1: not
    inside a `try:` or an `if`): `import swin_window_process`, the extension the project's setup.py builds."""
    head = f.snippet.lstrip()
    return (f.category == "custom-cuda-kernel" and f.column == 1 and not f.guarded and not f.suppressed
            and (head.startswith("import ") or head.startswith("from ")))


def kernel_tests(findings: list, engine) -> list:
    """In a test or benchmark file that imports a CUDA kernel at its top with no guard (the project's own built
    extension, followed from its setup.py by the link step), findings of the categories in `kernel-test-categories`
    (`.cuda()`, `torch.cuda.synchronize()`, ...) are guarded (`guarded_by` "cuda-kernel-test"): the module fails at
    that import wherever the CUDA build is missing, a Trainium host included, so nothing after it runs there. Porting
    the kernel is the item, reported at the build and at the import, which stays reported."""
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    categories = frozenset(values.get("kernel-test-categories", ()))
    if not categories:
        return findings
    files = {f.path for f in findings if f.scope in _SCOPES and _imports_kernel(f)}
    if not files:
        return findings
    return [replace(f, guarded=True, guarded_by="cuda-kernel-test")
            if f.path in files and f.category in categories and not f.guarded else f for f in findings]


def kernel_test_sources(findings: list, engine, root=None) -> list:
    """A CUDA source file in a test folder that defines no `__global__` kernel is the host side of a GPU unit
    test: it calls the project's kernels (defined and reported in its sources) and checks their results, built
    only by the test harness. Its whole-file finding is guarded (`guarded_by` "cuda-kernel-test"): porting the
    kernels is the item, and their tests are rewritten with them. A test file defining a kernel of its own keeps
    its finding (that kernel is code to port)."""
    from .postprocess_cuda import open_cuda_files

    cuda, texts = open_cuda_files(findings, engine, root, lambda f: f.scope == "test")
    if not cuda:
        return findings
    out = list(findings)
    for i in cuda:
        text = texts.get(findings[i].path)
        if text is not None and not _KERNEL.search(_COMMENT.sub(" ", text)):
            out[i] = replace(findings[i], guarded=True, guarded_by="cuda-kernel-test")
    return out
