"""Sub-projects built on another stack: a folder whose Python never imports PyTorch and imports another one.

Multi-framework repositories keep each framework's version of a model in its own folder (insightface:
`recognition/arcface_paddle/` on PaddlePaddle, `server/` on ONNX Runtime, a TensorFlow StyleGAN2 under
`reconstruction/ostec/external/`). A TorchNeuron port does not touch them, yet their launch scripts
(`python -m paddle.distributed.launch --gpus=...`), CUDA sources, Python pins and CUDA environment variables read
like a PyTorch project's. The Python module itself is guarded by the `other-framework` predicate; this step extends
that to the folder: when at least MIN_PY of a folder's Python files (below it, at any depth) have summaries, none
imports a module of `[context.values] torch-stack-modules` and one imports a module of `other-frameworks` or
`foreign-stack-modules`, every finding below it is guarded `other-framework`, except in a non-Python file that
names torch (a launch script running `torchrun` belongs to the PyTorch side). The repository root is never such a
folder: a scan is asked for the project as a whole.
"""
from __future__ import annotations

import posixpath
from dataclasses import replace

MIN_PY = 2


def _roots(mods) -> set:
    return {m.split(".", 1)[0] for m in mods if m}


def foreign_folders(py_rels: list, imports_of, torch_roots: frozenset, foreign_roots: frozenset,
                    candidates: set) -> set:
    """The candidate folders that hold a sub-project on another stack. imports_of(rel) -> absolute module names
    a Python file imports (asked at most once per file)."""
    known: dict = {}

    def roots_of(rel: str) -> set:
        got = known.get(rel)
        if got is None:
            got = known[rel] = _roots(imports_of(rel))
        return got

    out: set = set()
    for d in sorted(candidates, key=lambda d: d.count("/")):  # outer folders first: an inner one is then covered
        if any(d.startswith(o + "/") for o in out):
            continue
        under = [r for r in py_rels if r.startswith(d + "/")]
        if len(under) < MIN_PY:
            continue
        foreign = False
        for r in under:
            roots = roots_of(r)
            if roots & torch_roots:
                break
            foreign = foreign or bool(roots & foreign_roots)
        else:
            if foreign:
                out.add(d)
    return out


def guard_foreign_subprojects(findings: list, files, summaries, values: dict, text_of) -> list:
    """Mark guarded (`other-framework`) the findings below a folder found by foreign_folders. text_of(rel): a
    non-Python file's text (or None), to keep the scripts that name torch."""
    from .report import _EMPTY, _packed
    from .summary import Compacted

    torch_roots = frozenset(values.get("torch-stack-modules", ()))
    foreign_roots = frozenset(values.get("other-frameworks", ())) | frozenset(values.get("foreign-stack-modules", ()))
    if not torch_roots or not foreign_roots:
        return findings
    # (a path outside the root is absolute, whose dirname chain would end at "/" for ever: left out)
    live = [f for f in findings if not f.guarded and "/" in f.path and not f.path.startswith("/")]
    if not live:
        return findings
    candidates = set()
    for f in live:
        d = posixpath.dirname(f.path)
        while d:
            candidates.add(d)
            d = posixpath.dirname(d)
    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}
    py_rels = sorted(py)
    table = None

    def imports_of(rel: str) -> list:
        nonlocal table
        if table is None:  # decoded one file at a time, and only for the folders asked about
            table = Compacted({r: _packed(s) for r, s in py.items()}, _EMPTY)
        got = table.head(rel).get("imports") or {}
        return [mod for mod, level, _ in got.values() if not level]

    folders = foreign_folders(py_rels, imports_of, torch_roots, foreign_roots, candidates)
    if not folders:
        return findings
    out: list = []
    names: dict = {}
    for f in findings:
        if not f.guarded and any(f.path.startswith(d + "/") for d in folders):
            if not f.path.endswith(".py"):
                mentions = names.get(f.path)
                if mentions is None:
                    text = text_of(f.path) or ""
                    mentions = names[f.path] = "torch" in text
                if mentions:
                    out.append(f)
                    continue
            f = replace(f, guarded=True, guarded_by="other-framework")
        out.append(f)
    return out
