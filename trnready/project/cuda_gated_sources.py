"""Link step: CUDA files that only the CUDA arm of a build script compiles, beside a C++ build that runs otherwise.

iRPE's `rpe_ops/setup.py` builds one extension whichever machine it runs on:

    ext_t = cpp_extension.CppExtension
    ext_fnames = ['rpe_index.cpp']
    if torch.cuda.is_available():
        ext_t = cpp_extension.CUDAExtension
        ext_fnames.append('rpe_index_cuda.cu')

The CUDA arm never runs on a Neuron machine (its build finding is guarded by neuron-guarded), so the `.cu` file is
not compiled there: the project builds and runs its C++ (or pure-PyTorch) path. The kernels in that file are then a
performance item, not a blocker: their whole-file finding is lowered to an advisory with a note naming the build.

A CUDA file is lowered when every string naming it (its file name, with or without folders) in the build scripts
holding such a guarded build lies in the arm of the guarded `if`, and no other build of the project reported as
active names it, or could (a build whose sources are not literal, in its folder or above).
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import PurePosixPath

from ..filekinds import kind_of
from ..astwalk import walk

_CATEGORY = "custom-cuda-kernel"
_SOURCE = re.compile(r"\.cuh?$")
LOWERED = ("; compiled only in the CUDA arm of {build}, which builds without it otherwise: never built on Neuron, "
           "where the project runs its other path, so porting these kernels to NKI is a performance item")


def _resolve(name: str, folder: PurePosixPath, cuda_paths: set) -> str | None:
    from ..postprocess_cuda import joined_path

    direct = joined_path(folder, name)
    if direct in cuda_paths:
        return direct
    tail = name.lstrip("./")
    found = [p for p in cuda_paths if p == tail or p.endswith("/" + tail)]
    return found[0] if len(found) == 1 else None


def _strings(node) -> list:
    return [n for n in walk(node) if type(n) is ast.Constant and isinstance(n.value, str) and _SOURCE.search(n.value)]


def _arm_of(tree, line: int):
    """The innermost `if` arm (its statements) holding the line."""
    best = None
    for n in walk(tree):
        if type(n) is not ast.If:
            continue
        for arm in (n.body, n.orelse):
            if arm and arm[0].lineno <= line <= (arm[-1].end_lineno or arm[-1].lineno):
                if best is None or arm[0].lineno >= best[0].lineno:
                    best = arm
    return best


def lower_gated_sources(findings: list, files, engine, read_text) -> list:
    values = getattr(getattr(engine, "catalogue", None), "context_values", None) or {}
    build_rules = set(values.get("extension-build-rules", ()))
    gated = [f for f in findings if f.rule in build_rules and f.guarded and f.guarded_by == "neuron-guarded"
             and f.path.endswith(".py")]
    if not gated:
        return findings
    cuda_paths = {sf.rel for sf in files if kind_of(PurePosixPath(sf.rel).name) == "cuda"}
    if not cuda_paths:
        return findings
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    inside: dict = {}  # CUDA path -> the gated build naming it
    outside: set = set()
    for rel in sorted({f.path for f in gated}):
        sf = py.get(rel)
        text = read_text(sf) if sf is not None else None
        if not text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            continue
        arms = []
        for f in gated:
            if f.path == rel:
                arm = _arm_of(tree, f.line)
                if arm is not None:
                    arms.append((arm, f))
        spans = [(arm[0].lineno, arm[-1].end_lineno or arm[-1].lineno, f) for arm, f in arms]
        folder = PurePosixPath(rel).parent
        for s in _strings(tree):
            target = _resolve(s.value, folder, cuda_paths)
            if target is None:
                continue
            holder = next((f for a, b, f in spans if a <= s.lineno <= b), None)
            if holder is None:
                outside.add(target)
            else:
                inside.setdefault(target, holder)
    low = {p: f for p, f in inside.items() if p not in outside}
    if not low:
        return findings
    for f in findings:  # an active build elsewhere that names the file, or may (sources not literal), keeps it
        if f.rule not in build_rules or f.guarded or f.suppressed or not f.path.endswith(".py"):
            continue
        where = str(PurePosixPath(f.path).parent)
        for p in list(low):
            if where in ("", ".") or p.startswith(where + "/"):
                del low[p]
    if not low:
        return findings
    out = []
    for f in findings:
        build = low.get(f.path)
        if build is None or f.category != _CATEGORY or f.guarded or f.suppressed or f.severity == "advisory":
            out.append(f)
            continue
        out.append(replace(f, severity="advisory", message=f.message + LOWERED.format(
            build=f"{build.path}:{build.line}")))
    return out
