"""Cython wrappers of a CUDA extension's kernels, as places of its build (report step, inside extension_places).

py-faster-rcnn's GPU NMS, copied into many detection and pose repositories, is built as
`Extension("nms.gpu_nms", ["nms/nms_kernel.cu", "nms/gpu_nms.pyx"], ...)`: `gpu_nms.pyx` declares the kernel's host
entry (`cdef extern from "gpu_nms.hpp": void _nms(...)`) and wraps it for Python. Cython sources are not scanned,
but the wrapper is part of the CUDA build the port replaces, so its first `cdef extern from` line is a place of the
build's finding (`elsewhere`). Only a build that also compiles a `.cu` source counts (a `.pyx` built alone is a CPU
extension), and only a `.pyx` inside the scanned tree is read (blind48 human-pose-estimation, blind50 yolo2-pytorch).
"""
from __future__ import annotations

import ast
import os
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .astwalk import walk
from .read import DEFAULT_MAX_BYTES, read_bytes

_EXTERN = re.compile(r"""(?m)^[ \t]*cdef[ \t]+extern[ \t]+from[ \t]+["']""")


def _read(root: Path, rel: str) -> str | None:
    # the scanner's own reader: a regular file within the size limit (never a FIFO, a device or a huge file)
    data, _ = read_bytes(root / rel, rel, DEFAULT_MAX_BYTES)
    return data.decode("utf-8", "replace") if data is not None else None


def _build_call(tree, line: int):
    """The `Extension(...)` call starting at `line` (the widest, when calls nest there)."""
    calls = [n for n in walk(tree) if type(n) is ast.Call and n.lineno == line
             and (n.func.attr if type(n.func) is ast.Attribute else getattr(n.func, "id", "")) == "Extension"]
    return max(calls, key=lambda n: (n.end_lineno or n.lineno) - n.lineno, default=None)


def cython_wrappers(findings: list, engine, root=None) -> list:
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    rules = frozenset(values.get("extension-build-rules", ()))
    todo = [i for i, f in enumerate(findings) if f.rule in rules and f.cell is None and f.path.endswith(".py")
            and "Extension" in f.message]
    if root is None or not todo:
        return findings
    base = Path(root)
    out = list(findings)
    trees: dict = {}
    for i in todo:
        f = out[i]
        if f.path not in trees:
            text = _read(base, f.path)
            try:
                trees[f.path] = ast.parse(text) if text is not None else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                trees[f.path] = None
        tree = trees[f.path]
        call = _build_call(tree, f.line) if tree is not None else None
        if call is None:
            continue
        names = [n.value for n in walk(call) if type(n) is ast.Constant and isinstance(n.value, str)]
        if not any(n.endswith(".cu") for n in names):
            continue
        places = []
        folder = PurePosixPath(f.path).parent
        for name in names:
            if not name.endswith(".pyx"):
                continue
            rel = os.path.normpath(str(folder / name)).replace(os.sep, "/")
            if rel.startswith("..") or os.path.isabs(rel):
                continue  # only the scanned tree is read
            text = _read(base, rel)
            m = _EXTERN.search(text) if text else None
            if text and m is not None:
                places.append((rel, text.count("\n", 0, m.start()) + 1, 1, f.rule))
        if places:
            out[i] = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *places))))
    return out
