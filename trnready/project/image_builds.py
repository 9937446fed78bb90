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
  the project to port. Only when that build is the file's one source build: an image that also builds another
  library from git keeps its arch list and `--cuda_ext` as the custom-kernel finding of those builds.

Findings of another standing (guarded, suppressed) are left as they are. Runs after arch-lists, which drops the
lists of files that compile nothing.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath

from ..filekinds import kind_of
from ..read import read_bytes

_CATEGORY = "custom-cuda-kernel"
_IMAGE_KINDS = ("dockerfile",)
_SCRIPT_KINDS = ("dockerfile", "shell")
_OWN_KINDS = ("python", "cuda", "cpp")
MAX_BYTES = 1024 * 1024


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


def _only_source_build(root, path: str, line: int, words: tuple) -> bool:
    """The library's build (from its finding's line to the first line after it that compiles from source: the
    clone, then `setup.py install --cuda_ext`) is the only source build of the file; another one (`pip install
    git+...` of a second library) is steered by the same arch list, which then stays a finding of its own."""
    if root is None:
        return False
    data, _ = read_bytes(Path(root) / path, path, MAX_BYTES)
    if data is None:
        return False
    builds = [n for n, text in enumerate(data.decode("utf-8", "replace").splitlines(), 1)
              if not text.lstrip().startswith("#") and any(w in text for w in words)]
    after = [n for n in builds if n > line]
    end = after[0] if after and not any(n == line for n in builds) else line
    return all(line <= n <= end for n in builds)


def image_builds(findings: list, engine, root=None) -> list:
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    library_rules = frozenset(values.get("source-library-rules", ()))
    words = tuple(values.get("arch-list-source-builds", ()))
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
        if libraries and not own and _only_source_build(root, path, findings[libraries[0]].line, words):
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
