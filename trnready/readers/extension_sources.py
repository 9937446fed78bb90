"""The CUDA sources a build call compiles, as places of its finding (rules in `extension-build-rules`).

Removing a build means removing its CUDA sources from it: each literal naming a `.cu` / `.cuh` file that the build
compiles is a line of that work. They are read where the build takes them from: the call itself
(`CUDAExtension(name=..., sources=["ops.cpp", "ops_kernel.cu"])`), else the module-level function holding it
(`sources = dict(core=["scan.cpp", "scan_fwd.cu"])` bound before the call), and, when that function is a helper of
the file (`make_cuda_ext(name=..., sources=[...])` in a setup.py), the calls of it in the same file. Each line
becomes an occurrence of the build's finding; lines inside the call's own span are already covered by it. So does the
module-level lookup of the CUDA toolkit whose result the build reads (`CUDA = locate_cuda()`, a function of the file
naming `nvcc`): the build fails there first on a host without nvcc.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from ..astwalk import walk

_SOURCE = re.compile(r"\.cuh?$")
MAX_PLACES = 100  # as postprocess.MAX_OCCURRENCES


def _sources(node) -> list:
    return [n for n in walk(node) if type(n) is ast.Constant and isinstance(n.value, str)
            and _SOURCE.search(n.value)]


def _holder(tree: ast.Module, line: int):
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.lineno <= line <= (st.end_lineno or 0):
            return st
    return None


def _places(tree: ast.Module, calls: list, line: int, words: tuple = ()) -> list:
    here = [n for n in calls if n.lineno == line]
    if not here:
        return []
    call = max(here, key=lambda n: ((n.end_lineno or n.lineno) - n.lineno, -n.col_offset))
    found = _sources(call) + _toolkit_lookups(tree, call, words)
    func = _holder(tree, line)
    if func is None:
        return found
    if not found:
        found = _sources(func)
    # the helper's callers in this file pass the sources it builds
    for n in calls:
        if type(n.func) is ast.Name and n.func.id == func.name and not (
                func.lineno <= n.lineno <= (func.end_lineno or 0)):
            found += _sources(n)
    return found


def _toolkit_lookups(tree: ast.Module, call, words: tuple) -> list:
    """Module-level bindings the build call reads that come from a function of the file looking for the CUDA
    toolkit (a string of its body holds a word of `cuda-toolkit-words`, `nvcc`): py-faster-rcnn's `CUDA =
    locate_cuda()`, then `Extension("nms.gpu_nms", ..., library_dirs=[CUDA["lib64"]])`. The lookup raises where no
    nvcc is installed, so the build fails there first."""
    read = {n.id for n in walk(call) if type(n) is ast.Name and type(n.ctx) is ast.Load}
    if not read or not words:
        return []
    finders = {st.name for st in tree.body if isinstance(st, ast.FunctionDef)
               and any(type(n) is ast.Constant and isinstance(n.value, str) and any(w in n.value for w in words)
                       for n in walk(st))}
    if not finders:
        return []
    return [st.value for st in tree.body if type(st) is ast.Assign and type(st.value) is ast.Call
            and type(st.value.func) is ast.Name and st.value.func.id in finders
            and any(type(t) is ast.Name and t.id in read for t in st.targets)]


def with_source_places(tree: ast.Module, findings: list, rules, words: tuple = ()) -> list:
    """The findings, each build finding carrying the lines of the CUDA sources it compiles as occurrences."""
    rules = set(rules)
    if not rules or not any(f.rule in rules and f.cell is None for f in findings):
        return findings
    calls = [n for n in walk(tree) if type(n) is ast.Call]
    out = list(findings)
    for i, f in enumerate(findings):
        if f.rule not in rules or f.cell is not None:
            continue
        span = range(f.line, (f.end_line or f.line) + 1)
        lines = sorted({n.lineno for n in _places(tree, calls, f.line, words)} - set(span))
        if not lines:
            continue
        cols = {n.lineno: n.col_offset + 1 for n in walk(tree) if type(n) is ast.Constant
                and n.lineno in lines and isinstance(n.value, str) and _SOURCE.search(n.value)}
        cols.update({n.lineno: n.col_offset + 1 for n in _places(tree, calls, f.line, words)
                     if type(n) is ast.Call and n.lineno in lines and n.lineno not in cols})
        more = tuple((ln, cols.get(ln, 1), f.rule) for ln in lines[:MAX_PLACES])
        out[i] = replace(f, occurrences=tuple(dict.fromkeys((*f.occurrences, *more))))
    return out
