"""Tool folders copied from another project beside the project's own versions of them (rule `copied-tools`, part of
the nested step).

A project built on a framework often copies the framework's whole `tools/` folder into its tree and then writes its
own entry scripts next to it: PoolFormer's `segmentation/` holds its own `train.py` and `test.py` (they import the
project's models) beside `segmentation/tools/`, MMSegmentation's tool scripts pasted verbatim (`train.py`, `test.py`,
`benchmark.py`, `onnx2tensorrt.py`, `torchserve/`), each opening with the framework's copyright line. The project
runs its own scripts; the copied ones cannot even build its models. A folder is such a copy when all of these hold:

- it is no package (no `__init__.py`), or a package only in name (an empty `__init__.py` no file outside imports:
  detectron2's `tools/` copied into CenterNet2, session 41); at the top level of the repository too (CenterNet2's
  `tools/` beside its own `train_net.py`), where the framework's own repository would import its package from it;
- at least MIN_FILES of the Python files below it, and at least two thirds of them, open with a copyright comment
  of one holder (`# Copyright (c) OpenMMLab. All rights reserved.`) whose name the scan root's licence does not
  carry (with no licence at the scan root nothing is judged): the files came from another project;
- none of those files imports the project: no absolute import's first name is a module, package or folder of the
  repository outside the folder (a project's own tools import its models, whatever header they carry);
- its parent folder holds a Python file of the same name as one directly in it (`segmentation/train.py` beside
  `segmentation/tools/train.py`): the project's own version of the copied tool;
- no scanned file outside it names it (the test of `unused-nested-project`: a launcher running
  `segmentation/tools/train.py`, a string naming the folder).

A project whose own code carries a third-party header is still scanned: its files import its own modules, or its
entry scripts are the ones in the folder."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

MIN_FILES = 3
_HEADER_LINES = 5
_COPYRIGHT = re.compile(r"^#\s*copyright\s*(?:\(c\)|©)?\s*(?:\d{4}(?:\s*-\s*\d{4})?,?\s*)?(?P<holder>[^\n]*)$",
                        re.I | re.M)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}")
_SKIP_WORDS = frozenset({"the", "and", "inc", "ltd", "llc", "corp", "all", "rights", "reserved", "its", "affiliates",
                         "authors", "contributors", "team", "copyright"})


def holder(text: str) -> str:
    """The holder named by a copyright comment in the first lines of a Python file (`OpenMMLab`), or ""."""
    head = "\n".join(text.splitlines()[:_HEADER_LINES])
    m = _COPYRIGHT.search(head)
    if not m:
        return ""
    name = re.split(r"\.\s+|\s+all rights reserved", m.group("holder"), maxsplit=1, flags=re.I)[0]
    return name.strip(" .,")


def _foreign(name: str, licence: str) -> bool:
    """Whether the holder's distinctive words are all absent from the root licence text."""
    words = [w for w in _WORD.findall(name) if w.lower() not in _SKIP_WORDS]
    return bool(words) and not any(w.lower() in licence for w in words)


def copied_tool_folders(layout, namers) -> set:
    """The folders of the repository that are copied tool folders (module docstring)."""
    from .copy_folders import _licence_text

    licence = _licence_text(layout, "")
    if licence is None:
        return set()
    licence = licence.lower()
    py = [sf for sf in layout.files if sf.kind == "python"]
    out = set()
    for d in sorted(layout.dirs):
        if not d:
            continue
        parent = d.rsplit("/", 1)[0] if "/" in d else ""
        beside = {n for n in layout.children.get(d, ()) if n.endswith(".py") and n not in ("__init__.py", "setup.py")}
        if not beside & layout.children.get(parent, set()):
            continue
        inside = [sf for sf in py if layout.under(sf.rel, d)]
        if len(inside) < MIN_FILES or any(layout.is_root(x) for x in _folders_between(d, inside)):
            continue
        holders: dict = {}
        for sf in inside:
            h = holder(namers.text(sf))
            if h:
                holders[h] = holders.get(h, 0) + 1
        if not holders:
            continue
        top, count = max(holders.items(), key=lambda kv: kv[1])
        if count < MIN_FILES or 3 * count < 2 * len(inside) or not _foreign(top, licence):
            continue
        if _imports_project(layout, namers, d, inside, py):
            continue
        if d in layout.packages and not _inert_package(layout, namers, d, py):
            continue  # (asked last: it reads every other file's imports)
        out.add(d)
    # named by a file outside it (a launcher running `tools/train.py` by its path): the project runs it
    return {d for d in out if not _named_outside(layout, namers, d, out)}


def _named_outside(layout, namers, d: str, found: set) -> bool:
    """Whether a scanned file outside the copied folders names folder `d` by a path: with its parent
    (`seg/tools`), or as the head of a path to one of its entries (`tools/train.py`, `$(dirname $0)/tools/serve`).
    Its bare name is no evidence (`tools` is every project's word), nor is a path through another folder of that
    name (`gen/tools/train.py` names `gen/tools`)."""
    parent, base = d.rsplit("/", 1) if "/" in d else ("", d)
    entries = sorted({rel[len(d) + 1:].split("/", 1)[0] for rel in layout.rels if layout.under(rel, d)})
    alts = "|".join(re.escape(e) for e in entries)
    if parent:
        up = re.escape(parent.rsplit('/', 1)[-1])
        head = rf"(?:^|[\s'\"=(`:,\[]|\./|\)/|\}}/|(?<![\w.-]){up}/)"
        pattern = re.compile(rf"(?<![\w.-]){up}/{re.escape(base)}(?![\w-])"
                             rf"|{head}{re.escape(base)}/(?:{alts})(?![\w-])", re.M)
    else:  # a top-level folder: named by a path to one of its entries (`python tools/train_net.py`)
        head = r"(?:^|[\s'\"=(`:,\[]|\./|\)/|\}/)"
        pattern = re.compile(rf"{head}{re.escape(base)}/(?:{alts})(?![\w-])", re.M)
    for sf in layout.files:
        if any(layout.under(sf.rel, x) for x in found):
            continue
        text = namers.text(sf)
        if base in text and pattern.search(text):
            return True
    return False


def _inert_package(layout, namers, d: str, py) -> bool:
    """The folder's `__init__.py` is empty and no Python file outside it imports it (`import tools.x`, `from tools
    import x`): a package only in name, as detectron2's `tools/` copied into CenterNet2 beside its own
    `train_net.py`."""
    init = next((sf for sf in layout.files if sf.rel == f"{d}/__init__.py"), None)
    if init is None or (namers.text(init) or "").strip():
        return False
    dotted = d.replace("/", ".")
    for sf in py:
        if layout.under(sf.rel, d):
            continue
        facts = namers.imports(sf)
        if facts is None:
            return False
        # (`from tools import x` is recorded as the module `tools` too)
        if any(name == dotted or name.startswith(dotted + ".") for level, name in facts[0] if not level):
            return False
    return True


def _folders_between(d: str, inside) -> set:
    return {str(PurePosixPath(sf.rel).parent) for sf in inside}


def _imports_project(layout, namers, d: str, inside, py) -> bool:
    """Whether a file below `d` imports a module, package or folder of the repository outside `d` by its first
    name (`import models` after a sys.path insert, `from mmseg_custom import x`). Unreadable files count as
    importing it."""
    names: set = set()
    for sf in py:
        if layout.under(sf.rel, d):
            continue
        p = PurePosixPath(sf.rel)
        names.add(p.stem)
        names.update(p.parent.parts)
    for sf in inside:
        facts = namers.imports(sf)
        if facts is None:
            return True
        # a script's own folder comes first on sys.path: `from train_net import build_evaluator` in detectron2's
        # tools/lightning_train_net.py is its sibling tools/train_net.py, whatever the project's root holds
        here = str(PurePosixPath(sf.rel).parent)
        own = {PurePosixPath(n).stem for n in layout.children.get("" if here == "." else here, ())} | \
            {PurePosixPath(x).name for x in layout.dirs if x and str(PurePosixPath(x).parent) == here}
        if any(not level and name.split(".")[0] in names - own for level, name in facts[0]):
            return True
    return False
