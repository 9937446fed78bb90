"""Programs of another project's tree kept as a package of the repository (rules `unused-nested-script`,
`nested-copy-manifest`).

few-shot-vid2vid imports FlowNet2 from `models/networks/flownet2_pytorch/`, NVIDIA's flownet2-pytorch copied in as a
package (it has an `__init__.py`) with the copy's own Dockerfile, Docker launchers (`launch_docker.sh`,
`run-caffe2pytorch.sh`) and training program (`main.py`). A package of the repository's own code carries no Dockerfile
of its own; a package folder that does is another project's tree, and its programs run only when someone runs them by
hand: the repository imports the model and never builds that image (fresh51: 8 of the copy's findings read wrong).

So, in a package folder at least two levels below a repository root that holds a Dockerfile, these are guarded:
its Dockerfiles and shell scripts no file outside the folder names by path, and its Python programs (a top-level
`if __name__ == "__main__":`) whose module no other scanned file names as a word (an import, `python -m`, a path).
The modules the repository imports stay reported, and so does anything a file outside the folder names.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from .nested_live import _container_file, _named_outside
from .self_tests import _main_block

_PROGRAM_KINDS = frozenset({"shell"})


def copied_package_programs(layout, namers, paths) -> dict:
    """path -> reason for the paths of `paths` that are programs of a copied project's package (module docstring)."""
    dirs = sorted({str(PurePosixPath(p).parent) for p in paths})
    copies = [d for d in dirs if d in layout.packages and layout.depth(d) >= 2
              and any(_container_file(n) for n in layout.children.get(d, ()))]
    if not copies:
        return {}
    by_rel = {sf.rel: sf for sf in layout.files}
    out: dict = {}
    for d in copies:
        for p in paths:
            if str(PurePosixPath(p).parent) != d or p in out:
                continue
            sf = by_rel.get(p)
            if sf is None:
                continue
            name = PurePosixPath(p).name
            if _container_file(name) or sf.kind in _PROGRAM_KINDS:
                if not _named_outside(layout, namers, d, p):
                    out[p] = "nested-copy-manifest" if _container_file(name) else "unused-nested-script"
            elif sf.kind == "python" and _main_block(namers.text(sf)) and not _named(layout, namers, sf):
                out[p] = "unused-nested-script"
    return out


def _named(layout, namers, sf) -> bool:
    """Another scanned file imports the module (`from .main import x`, `from . import main`, `import pkg.main`), runs
    it (`python -m pkg.main`) or names its file (`main.py`)."""
    s = re.escape(PurePosixPath(sf.rel).stem)
    named = re.compile(rf"(?m)^\s*from\s+\.*(?:[\w.]*\.)?{s}\s+import\b|^\s*(?:from\s+[\w.]+\s+)?import\s+[^\n#]*"
                       rf"(?<![\w]){s}(?![\w])|-m\s+[\w.]*(?<![\w]){s}(?![\w.])|(?<![\w-]){s}\.py\b")
    return any(other.rel != sf.rel and named.search(namers.text(other)) for other in layout.files)
