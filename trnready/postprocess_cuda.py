"""Report step: a CUDA helper file is part of the kernel that includes it.

A `.cu` / `.cuh` file that defines no `__global__` kernel (device helpers, a MinK class, a warp reduction) is
ported together with the kernels that use it, not as an item of its own. When a reported CUDA file that does
define kernels includes it (`#include "utils/warp_reduce.cuh"`, directly or through other helpers), the helper's
finding folds into the first such kernel file's finding, whose message then names the helpers it carries. A
helper no kernel file of the scan includes (a header whose users are not scanned) stays its own finding, and so
does a file that includes a kernel header and adds host code of its own (a launcher: rewritten with the port).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath

from .filekinds import kind_of
from .read import read_bytes
from .readers.cuda import cuda_kernels, local_includes

MAX_BYTES = 2 * 1024 * 1024  # CUDA sources are small; a larger file is generated and never a helper here
MAX_NAMED = 5  # helper paths named in the kernel finding's message


def _resolve(target: str, includer: str, paths: set) -> str | None:
    """The scanned path an include names: relative to the including file's folder, else the one scanned path
    ending in it (`#include "utils/mink.cuh"` resolved against an include directory such as csrc/)."""
    direct = joined_path(PurePosixPath(includer).parent, target)
    if direct is None:
        return None
    if direct in paths:
        return direct
    tail = target.lstrip("./")
    found = [p for p in paths if p == tail or p.endswith("/" + tail)]
    return found[0] if len(found) == 1 else None


def whole_file_cuda(findings: list, engine, root) -> list:
    """Indices of the findings of the catalogue's whole-file CUDA rules (`file = ["cuda"]`) on CUDA files; []
    without a scan root (nothing to read) or without such rules."""
    rules = {rule.id for rule, m in getattr(engine, "surface", {}).get("file", ()) if "cuda" in m.names}
    if root is None or not rules:
        return []
    return [i for i, f in enumerate(findings) if f.rule in rules and kind_of(PurePosixPath(f.path).name) == "cuda"]


def open_cuda_files(findings: list, engine, root, wanted) -> tuple:
    """([index], {path: text}) of the unguarded, unsuppressed whole-file CUDA findings that `wanted(finding)`
    keeps, with their files' texts (comments left in): the input of a step that may guard some of them."""
    cuda = [i for i in whole_file_cuda(findings, engine, root) if wanted(findings[i])
            and not findings[i].guarded and not findings[i].suppressed]
    return cuda, (cuda_texts(root, {findings[i].path for i in cuda}) if cuda else {})


def cuda_texts(root, paths) -> dict:
    """path -> the file's text (None when it cannot be read), within the size limit of the CUDA reader."""
    texts: dict = {}
    for rel in paths:
        data, _ = read_bytes(Path(root) / rel, rel, MAX_BYTES)
        texts[rel] = data.decode("utf-8", "replace") if data is not None else None
    return texts


def cuda_helpers(findings: list, engine, root=None) -> list:
    """Fold the finding of each CUDA helper file (no `__global__` kernel) into the finding of the first
    reported kernel file that includes it, for the catalogue's whole-file CUDA rules (`file = ["cuda"]`)."""
    cuda = whole_file_cuda(findings, engine, root)
    if len(cuda) < 2:
        return findings
    paths = {findings[i].path for i in cuda}
    texts = cuda_texts(root, paths)
    kernel_files = {rel for rel, t in texts.items() if t is not None and cuda_kernels(t)}
    helpers = {rel for rel, t in texts.items() if t is not None and rel not in kernel_files}
    if not kernel_files or not helpers:
        return findings
    # Which helpers each kernel file reaches through its includes (helpers including helpers too).
    owner: dict = {}  # helper path -> first kernel path (report order) reaching it
    for kpath in sorted(kernel_files, key=lambda p: min(findings[i].sort_key() for i in cuda
                                                         if findings[i].path == p)):
        seen, todo = {kpath}, [kpath]
        while todo:
            cur = todo.pop()
            for target in local_includes(texts[cur] or ""):
                hit = _resolve(target, cur, paths)
                if hit is not None and hit not in seen and hit in helpers:
                    seen.add(hit)
                    owner.setdefault(hit, kpath)
                    todo.append(hit)
    if not owner:
        return findings
    # The kernel file's own finding of the same rule and standing keeps the helper's place.
    kept: dict = {}  # (path, rule, suppressed, guarded) -> index
    for i in cuda:
        f = findings[i]
        if f.path in kernel_files:
            kept.setdefault((f.path, f.rule, f.suppressed, f.guarded), i)
    carried: dict = {}  # index of kernel finding -> [helper paths]
    drop: set = set()
    for i in cuda:
        f = findings[i]
        k = kept.get((owner.get(f.path), f.rule, f.suppressed, f.guarded))
        if k is not None:
            drop.add(i)
            carried.setdefault(k, []).append(f.path)
    out = []
    for i, f in enumerate(findings):
        if i in drop:
            continue
        if i in carried:
            names = sorted(set(carried[i]))
            # the helpers are part of the kernels' port: their places go with the finding (`elsewhere`), so a
            # checklist or an editor reaches them as it reaches the kernel file
            places = tuple((g.path, g.line, g.column, g.rule) for g in (findings[k] for k in sorted(drop))
                           if g.path in carried[i])
            f = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *places))))
            shown = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED
                                                    else "")
            f = replace(f, message=f"{f.message}; with the helper file{'s' if len(names) != 1 else ''} "
                                   f"it includes, which define no kernel: {shown}")
        out.append(f)
    return out


def joined_path(folder: PurePosixPath, target: str) -> str | None:
    """`folder/target` with `.` and `..` worked out; None when `..` climbs above the scanned root."""
    parts: list = []
    for part in (folder / target).parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)
