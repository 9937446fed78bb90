"""Report step: an extension import (TRN305) is no finding when the repository defines or builds the module.

TRN305 reports `import focal_cpp` (a module named like a compiled extension, called into) on the file alone. The
project may still have the module: a Python file or package of that name (`focal_cpp.py`, `focal_cpp/`), the
extension's own source beside it (`focal_cpp.cpp`), or a build or loader naming it (`CUDAExtension("focal_cpp",
...)` in a setup.py, `load(name="focal_cpp", ...)`, a Makefile target). Then the build is the item, reported by
its own rules with the import as a place, and the import finding is dropped. A partial scan that does not see the
build keeps the finding, at the medium confidence its rule gives it.

Nor is a module an unbuilt extension when the project declares it as a dependency (`bioimage-cpp` in setup.py's
install_requires or an environment.yml, `import bioimage_cpp`): it is a published package an installer fetches, not
a build of this repository whose sources went missing (torch-em's CPU image-processing library, fresh74). Whether
that package holds CUDA is the business of the catalogue's library rules, which name the ones that do.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

RULE = "TRN305"
_NAMED = re.compile(r"`([\w.]+)`")
# Files that declare what the project installs (by kind, and setup.py by name)
_MANIFEST_KINDS = frozenset({"requirements", "pyproject", "setup-cfg", "pipfile", "pixi", "conda"})


def _declared(names: set, files, text_of) -> set:
    """The names among `names` that a manifest of the project lists as a requirement (`-` and `_` alike, as pip
    normalises them): `bioimage-cpp` in `install_requires=[...]` declares `import bioimage_cpp`."""
    if not names:
        return set()
    patterns = {n: re.compile(r"(?<![\w.-])" + "[-_.]".join(map(re.escape, re.split(r"[-_.]", n)))
                              + r"(?![\w-])", re.I) for n in names}
    found = set()
    for sf in files:
        if sf.kind not in _MANIFEST_KINDS and PurePosixPath(sf.rel).name != "setup.py":
            continue
        text = text_of(sf.rel)
        if not text:
            continue
        low = text.lower()
        for n, pat in patterns.items():
            if n not in found and n.split("_")[0].lower() in low and pat.search(text):
                found.add(n)
    return found


def drop_built_extensions(findings: list, files, text_of) -> list:
    """`text_of(rel)`: the text of any scanned file, or None."""
    mine = [f for f in findings if f.rule == RULE]
    if not mine:
        return findings
    modules = {}
    for f in mine:
        m = _NAMED.search(f.message)
        if m:
            modules[id(f)] = m.group(1).rsplit(".", 1)[-1]
    wanted = set(modules.values())
    stems = {PurePosixPath(sf.rel).stem for sf in files} | {PurePosixPath(sf.rel).parent.name for sf in files}
    present = wanted & stems
    quoted = {m: re.compile(rf"[\"']{re.escape(m)}[\"'.]") for m in wanted - present}
    if quoted:
        for sf in files:
            if not quoted:
                break
            text = text_of(sf.rel)
            if not text:
                continue
            for name in [n for n in quoted if n in text and quoted[n].search(text)]:
                present.add(name)
                del quoted[name]
    present |= _declared(wanted - present, files, text_of)
    if not present:
        return findings
    return [f for f in findings if not (f.rule == RULE and modules.get(id(f)) in present)]
