"""Two CUDA files of one folder that define the same kernels are one kernel to port (a report step).

py-faster-rcnn's NMS, copied into many detection and pose repositories, keeps `nms_kernel.cu` beside `gpu_nms.cu`, a
stale file holding the same `nms_kernel` followed by the C++ Cython once generated from `gpu_nms.pyx`. Reported
apart, the second file was judged a duplicate both times it was drawn (fresh48: deep-high-resolution-net, mmskeleton).
Findings of `same-kernel-rules` (TRN601) in one folder whose kernel lists are equal fold into one: the file a build
script of the folder or the one above names (`setup.py`, `setup_linux.py`, a Makefile, CMakeLists.txt), else the
first by path; the others become its `elsewhere`. A file defining no kernel, or kernels of other names, stays.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .postprocess_folds import refold

# "CUDA source file: 2 __global__ kernels to port to NKI (ROIPoolForward, ROIPoolBackward)"
_KERNELS = re.compile(r"__global__ kernels? to port to NKI \(([^)]*)\)")
_BUILD_FILES = ("setup*.py", "Makefile", "makefile", "CMakeLists.txt", "*.mk", "build*.py", "make*.sh")


def _kernels(message: str) -> tuple:
    m = _KERNELS.search(message)
    return tuple(sorted(k.strip() for k in m.group(1).split(","))) if m else ()


def _named_by_build(rel: str, root) -> bool:
    """Some build file of the CUDA file's folder, or of the folder above, names its file name."""
    if root is None:
        return False
    here = PurePosixPath(rel).parent
    name = PurePosixPath(rel).name
    for folder in (here, here.parent):
        base = Path(root) / folder
        for pattern in _BUILD_FILES:
            for path in base.glob(pattern):
                try:
                    if name in path.read_text(encoding="utf-8", errors="replace")[:1_000_000]:
                        return True
                except OSError:
                    continue
    return False


def same_kernels(findings: list, rules: frozenset, root=None) -> list:
    if not rules:
        return findings
    groups: dict = {}
    for f in findings:
        if f.rule in rules and not f.guarded and not f.suppressed:
            k = _kernels(f.message)
            if k:
                groups.setdefault((str(PurePosixPath(f.path).parent), f.rule, k), []).append(f)
    folded: dict = {}
    gone: set = set()
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda f: f.path)
        kept = next((f for f in group if _named_by_build(f.path, root)), group[0])
        others = [f for f in group if f is not kept]
        folded[id(kept)] = others
        gone.update(id(f) for f in others)
    if not folded:
        return findings
    return refold(findings, folded, gone, _with_copies)


def _with_copies(f, copies: list):
    away = tuple(dict.fromkeys((*f.elsewhere, *((o.path, o.line, o.column, f.rule) for o in copies))))
    return replace(f, elsewhere=away, message=f"{f.message}; the same kernels are defined again in "
                                              + ", ".join(o.path for o in copies))
