"""Report step: a CUDA header with no device code that no source includes is nothing to port.

The whole-file CUDA rule reports every `.cu` / `.cuh` file. A header (`.cuh`) that defines no `__global__` kernel
and no `__device__` code holds host-side helpers only (OpenPCDet's `error.cuh`: a `CHECK_CALL` macro around
`cudaGetErrorString`); when no C, C++ or CUDA source near it includes it either, it is compiled into nothing and
its finding is guarded (`guarded_by` "unincluded-header"). A header some source includes is kept (cuda_helpers
folds it into a kernel file including it), and so is any header with device code, included or not.

"Near" is the header's folder and the one above it (`src/` and the op folder around it), walked for C/C++/CUDA
sources (at most MAX_FILES files; past that the header is kept: unknown), each read for a quoted `#include`
whose last path part is the header's file name.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .postprocess_cuda import open_cuda_files
from .read import read_bytes

GUARD = "unincluded-header"
MAX_FILES = 400
MAX_BYTES = 2 * 1024 * 1024
_SOURCES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DEVICE_CODE = re.compile(r"\b__(?:global|device)__\b")
_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+)[">]')


def _included_near(root: Path, rel: str) -> bool | None:
    """Whether a source in the header's folder or the one above includes it (None: too many files to tell)."""
    name = PurePosixPath(rel).name
    folder = PurePosixPath(rel).parent
    top = folder.parent if str(folder) not in ("", ".") else folder
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root / top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for fn in sorted(filenames):
            if not fn.endswith(_SOURCES) or fn == name and Path(dirpath) == root / folder:
                continue
            seen += 1
            if seen > MAX_FILES:
                return None
            path = Path(dirpath) / fn
            data, _ = read_bytes(path, fn, MAX_BYTES)
            if data is None or name.encode() not in data:
                continue
            text = data.decode("utf-8", "replace")
            if any(PurePosixPath(t.strip()).name == name for t in _INCLUDE.findall(_COMMENT.sub(" ", text))):
                return True
    return False


def unincluded_headers(findings: list, engine, root=None) -> list:
    cuda, texts = open_cuda_files(findings, engine, root, lambda f: f.path.endswith((".cuh", ".cu.h")))
    if not cuda:
        return findings
    out = list(findings)
    for i in cuda:
        f = findings[i]
        text = texts.get(f.path)
        if text is None or _DEVICE_CODE.search(_COMMENT.sub(" ", text)):
            continue
        if _included_near(Path(root), f.path) is False:
            out[i] = replace(f, guarded=True, guarded_by=GUARD,
                             message=f"{f.message}; no source includes it and it holds no device code")
    return out
