"""The CUDA files a build of the project names, and the files that only instantiate kernels of another one.

`build_sources` reads a build call (`load(name, sources=[...])`, `CUDAExtension(...)`, a project wrapper such as
StyleGAN's `custom_ops.get_plugin(sources=['bias_act.cpp', 'bias_act.cu'])`) for the literal names ending in `.cu`
/ `.cuh` it passes, or, without any, those of the module-level function holding it (`sources = [...]` bound first),
and resolves them against the scanned CUDA files: beside the build's file, else the one scanned path ending in it.

`instantiation_places`: a CUDA file a build compiles that only includes a kernel file and instantiates its
templates (eg3d's `filtered_lrelu_ns.cu`: `#include "filtered_lrelu.cu"` and `template ...;` lines) has no finding
of its own (the CUDA reader gives it none); it is listed as a place (`elsewhere`, at its line 1) of the finding of
the kernel file it includes, so that the checklist shows every file the port replaces.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import PurePosixPath
from ..astwalk import walk

_SOURCE = re.compile(r"\.cuh?$")
_CATEGORY = "custom-cuda-kernel"
MAX_NAMED = 5  # instantiation files named in the kernel finding's message


def _source_names(node) -> list:
    return [n.value for n in walk(node) if type(n) is ast.Constant and isinstance(n.value, str)
            and _SOURCE.search(n.value)]


def build_sources(f, finding, cuda_paths: set) -> set | None:
    """The scanned CUDA files a build call names (literal sources and headers ending in .cu / .cuh; without any in
    the call, those of the module-level function holding it), or None when it names none (unknown)."""
    if f is None:
        return None
    calls = [n for n in f.calls if n.lineno == finding.line]
    if not calls:
        return None
    call = max(calls, key=lambda n: ((n.end_lineno or n.lineno) - n.lineno, -(n.col_offset)))
    names = _source_names(call)
    if not names:  # `sources = ['bias_act.cpp', 'bias_act.cu']` bound before the call, in the function building
        top = f.top_at(finding.line)
        names = _source_names(next(st for st in f.tree.body if getattr(st, "name", None) == top)) if top else []
    if not names or any(ch in name for name in names for ch in "*?["):
        return None  # none named, or a pattern globbed at build time (`glob.glob("ops/*.cu")`): unknown
    from ..postprocess_cuda import joined_path

    folder = PurePosixPath(finding.path).parent
    out: set = set()
    for name in names:
        direct = joined_path(folder, name)
        if direct in cuda_paths:
            out.add(direct)
            continue
        tail = name.lstrip("./")
        found = [p for p in cuda_paths if p == tail or p.endswith("/" + tail)]
        if len(found) == 1:
            out.add(found[0])
    return out


def included(paths: set, texts: dict, cuda_paths: set) -> set:
    """The CUDA files and everything they include among the scanned ones."""
    from ..postprocess_extensions import _resolve
    from ..readers.cuda import local_includes

    seen, todo = set(paths), list(paths)
    while todo:
        cur = todo.pop()
        for target in local_includes(texts.get(cur) or ""):
            hit = _resolve(target, cur, cuda_paths)
            if hit is not None and hit not in seen:
                seen.add(hit)
                todo.append(hit)
    return seen


def instantiation_places(findings: list, builds: list, judge, texts: dict, cuda_paths: set) -> list:
    """Each CUDA file named by one of the builds (indices into findings) that has no finding of its own and only
    instantiates the kernels of a file it includes: a place of that file's finding."""
    from ..readers.cuda import instantiation_only

    with_finding = {f.path for f in findings if f.category == _CATEGORY and f.path in cuda_paths}
    named: set = set()
    for i in builds:
        found = build_sources(judge.file(findings[i].path), findings[i], cuda_paths)
        named |= (found or set()) - with_finding
    out = list(findings)
    carried: dict = {}  # index of a kernel finding -> the instantiation files placed in it
    for rel in sorted(named):
        text = texts.get(rel)
        if text is None or not instantiation_only(text):
            continue
        owner = _kernel_finding(out, rel, texts, cuda_paths)
        if owner is not None:
            f = out[owner]
            out[owner] = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, (rel, 1, 1, f.rule)))))
            carried.setdefault(owner, []).append(rel)
    for k, rels in carried.items():  # the text report shows no `elsewhere`: the message names them
        shown = ", ".join(rels[:MAX_NAMED]) + (f" and {len(rels) - MAX_NAMED} more" if len(rels) > MAX_NAMED else "")
        out[k] = replace(out[k], message=f"{out[k].message}; compiled through the files instantiating its "
                                         f"templates: {shown}")
    return out


def _kernel_finding(findings: list, rel: str, texts: dict, cuda_paths: set) -> int | None:
    """The finding of the nearest file rel includes (breadth-first) that has an active custom-kernel finding."""
    from ..postprocess_extensions import nearest_included

    return nearest_included(rel, texts, cuda_paths, lambda hit: next(
        (k for k, f in enumerate(findings) if f.path == hit and f.category == _CATEGORY
         and not f.guarded and not f.suppressed), None))
