"""Report step image-builds: one finding per CUDA build of a container image (one finding per thing, issue 13).

The custom-kernel line matchers of an image (TRN302: `ENV TORCH_CUDA_ARCH_LIST=...`, `ENV FORCE_CUDA="1"`,
`--cuda_ext`) are the settings and switches of the builds the image runs; they are not one item each:

- all of them in one Dockerfile are places of its first one: the image's CUDA build environment is rewritten once
  (an arch list and the FORCE_CUDA switch above the same `pip install -e .` are one edit, not two);
- in a Dockerfile or shell script that builds a third-party CUDA library from source (a finding of one of the
  `[context.values] source-library-rules`, Apex cloned and built with `--cuda_ext`), in a project that builds no
  CUDA code of its own (no custom-cuda-kernel finding in Python, C++ or CUDA files; a notebook's `!pip install`
  cell is an install line like a script's), they are places of that library's finding: the arch list and
  `--cuda_ext` steer that library's build, which the migration replaces as a whole, and there is no kernel of
  the project to port.

Findings of another standing (guarded, suppressed) are left as they are. Runs after arch-lists, which drops the
lists of files that compile nothing.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath

from ..filekinds import kind_of

_CATEGORY = "custom-cuda-kernel"
_IMAGE_KINDS = ("dockerfile",)
_SCRIPT_KINDS = ("dockerfile", "shell")
_OWN_KINDS = ("python", "cuda", "cpp")


def _kind(f) -> str | None:
    return kind_of(PurePosixPath(f.path).name)


def _active(f) -> bool:
    return not f.guarded and not f.suppressed


def _places(f) -> tuple:
    return ((f.line, f.column, f.rule), *f.occurrences)


def _fold_into(findings: list, target: int, moved: list) -> list:
    more = tuple(sorted({*findings[target].occurrences, *(p for i in moved for p in _places(findings[i]))}))
    gone = set(moved)
    out = []
    for i, f in enumerate(findings):
        if i == target:
            out.append(replace(f, occurrences=more))
        elif i not in gone:
            out.append(f)
    return out


def _builds_own_cuda(findings: list) -> bool:
    return any(f.category == _CATEGORY and _kind(f) in _OWN_KINDS for f in findings)


def image_builds(findings: list, engine) -> list:
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    library_rules = frozenset(values.get("source-library-rules", ()))
    own = _builds_own_cuda(findings)
    by_file: dict = {}
    for i, f in enumerate(findings):
        if _active(f) and _kind(f) in _SCRIPT_KINDS:
            by_file.setdefault(f.path, []).append(i)
    for path in sorted(by_file):
        idx = by_file.get(path, [])
        kernels = [i for i in idx if findings[i].category == _CATEGORY]
        if not kernels:
            continue
        libraries = [i for i in idx if findings[i].rule in library_rules]
        if libraries and not own:
            target, moved = libraries[0], kernels
        elif _kind(findings[kernels[0]]) in _IMAGE_KINDS and len(kernels) > 1:
            first = min(kernels, key=lambda i: (findings[i].line, findings[i].column))
            target, moved = first, [i for i in kernels if i != first]
        else:
            continue
        findings = _fold_into(findings, target, moved)
        # indices after a fold shift: recompute the files still to do
        by_file = {}
        for i, f in enumerate(findings):
            if _active(f) and _kind(f) in _SCRIPT_KINDS:
                by_file.setdefault(f.path, []).append(i)
    return findings
