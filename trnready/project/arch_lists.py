"""Report step arch-lists: a CUDA architecture list where nothing CUDA is compiled is no custom kernel.

`TORCH_CUDA_ARCH_LIST` (an `ARG` / `ENV` of a Dockerfile, an `export` of a script, a Make variable: TRN302's line
matchers) tells `torch.utils.cpp_extension` which GPUs to compile a CUDA extension for. Where the project builds one
(a `CUDAExtension`, a JIT `load`, `.cu` sources: any other custom-cuda-kernel finding of the report), the list is
part of that build. Where it builds none and the file holding the list compiles nothing from source either (no
`--cuda_ext`, no `pip install git+...`, no `setup.py install`: `[context.values] arch-list-source-builds`), the
list only sits in an image whose CUDA libraries come as packages (axolotl's `ARG TORCH_CUDA_ARCH_LIST` above
`pip install -e .[flash-attn]`; those libraries are cuda-library findings of their own): there is no kernel of the
project to port, and the finding is dropped. Python assignments (`os.environ["TORCH_CUDA_ARCH_LIST"] = ...`) are
left alone: they sit next to the build they steer. `FORCE_CUDA=1` (the setup.py switch of mmcv, detectron2 and the
PyG extensions to build their CUDA ops) is judged the same way: an image that installs prebuilt wheels and the
project's own pure-Python package with it set compiles nothing. Whatever the project builds, a Dockerfile's
`RUN export FORCE_CUDA=1` alone in its RUN instruction sets the variable for no later layer and is dropped.
"""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from ..filekinds import kind_of
from ..read import read_bytes

_CATEGORY = "custom-cuda-kernel"
_DEAD = frozenset({"uncalled-build-helper", "never-referenced"})
MAX_BYTES = 1024 * 1024


def _arch_list(f, names: tuple) -> bool:
    return f.category == _CATEGORY and any(f"`{n}`" in f.message for n in names) and \
        kind_of(PurePosixPath(f.path).name) not in ("python", "notebook")


_LONE_EXPORT = re.compile(r"^\s*RUN\s+export\s+[A-Za-z_]\w*=(?:\"[^\"]*\"|'[^']*'|[^\s;&|\\]*)\s*$", re.I)


def _lone_exports(findings: list, names: tuple) -> list:
    """`RUN export FORCE_CUDA=1` alone in its RUN instruction: the variable lives as long as that instruction's
    shell, which runs nothing else, so no later layer builds with it (an `ENV` would set it for them)."""
    return [f for f in findings if not (
        _arch_list(f, names) and not f.suppressed and kind_of(PurePosixPath(f.path).name) == "dockerfile"
        and _LONE_EXPORT.match(f.snippet or "") is not None)]


def arch_lists(findings: list, engine, root=None) -> list:
    if root is None:
        return findings
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    names = tuple(values.get("arch-list-names", ()))
    findings = _lone_exports(findings, names)
    lists = [i for i, f in enumerate(findings) if _arch_list(f, names) and not f.suppressed]
    if not lists:
        return findings
    chosen = set(lists)
    # an extension built only in code that never runs (a setup.py helper nothing calls) builds nothing either
    if any(f.category == _CATEGORY and not (f.guarded and f.guarded_by in _DEAD)
           for i, f in enumerate(findings) if i not in chosen):
        return findings  # the project builds CUDA code of its own: the list is part of that build
    words = tuple(values.get("arch-list-source-builds", ()))
    drop: set = set()
    texts: dict = {}
    for i in lists:
        path = findings[i].path
        if path not in texts:
            data, _ = read_bytes(Path(root) / path, path, MAX_BYTES)
            texts[path] = data.decode("utf-8", "replace") if data is not None else None
        text = texts[path]
        if text is None or any(w in text for w in words):
            continue  # unreadable (unknown), or the file compiles something from source with the list
        drop.add(i)
    return [f for i, f in enumerate(findings) if i not in drop] if drop else findings
