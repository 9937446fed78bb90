"""Report step implicit-relative-imports: a package module importing its sibling as if it were top-level.

Python 2 looked an `import resnet` up beside the importing module first, so a package could name its own modules
without a dot: rethinking-network-pruning's `models/__init__.py` holds `from resnet import *`, longcw's
faster_rcnn_pytorch writes `import network` in `faster_rcnn/faster_rcnn.py`. Python 3 searches `sys.path` only:
imported as part of its package, such a module raises ModuleNotFoundError, and TorchNeuron needs Python 3.12-3.14.
The per-file pass cannot see it (the import is valid syntax and names no catalogue API); this step knows the
project's files.

A module is judged when it sits in a package (its folder holds `__init__.py`) and is imported as part of it: it
is that `__init__.py`, or another file names it by a dotted path (`faster_rcnn.faster_rcnn`) or imports it
relatively. Its absolute import of X is implicit-relative when X is a sibling (`X.py` or `X/__init__.py` in the same
folder), is no top-level module of the scan (a file or folder at the root, or under `src/`) and no standard-library
module, and no file of the project adds the folder to `sys.path` (a line naming `sys.path` and the folder). It is
reported as TRN324 (a Python 2 module): a place of the module's finding when the file has one, else a finding of
its own at the first such import, the others its places.
"""
from __future__ import annotations

import re
import sys
from dataclasses import replace

_RULE = "TRN324"
_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+(?P<a>[A-Za-z_]\w*)(?=[ \t]*(?:$|[,#;]|as\b|\.))|from[ \t]+"
                     r"(?P<b>[A-Za-z_]\w*)(?:\.[\w.]+)?[ \t]+import\b)", re.M)
_STDLIB = frozenset(sys.stdlib_module_names)


def implicit_relative_imports(findings: list, files, engine, read_python, read_lines) -> tuple:
    """(findings with the places added to the files' TRN324 findings, new TRN324 findings)."""
    rules = {r.id: r for r in engine.rules}
    rule = rules.get(_RULE)
    if rule is None:
        return findings, []
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    packages = {rel.rsplit("/", 1)[0] for rel in py if rel.endswith("/__init__.py")}
    if not packages:
        return findings, []
    top = {rel.split("/", 1)[0].removesuffix(".py") for rel in py}
    top |= {rel.split("/", 2)[1].removesuffix(".py") for rel in py if rel.startswith("src/") and rel.count("/") >= 1}
    candidates: dict = {}  # rel -> [(line, column, name)]
    texts: dict = {}
    for rel, sf in py.items():
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        if folder not in packages:
            continue
        text = read_python(sf)
        if not text or "import" not in text:
            continue
        stem = rel.rsplit("/", 1)[-1].removesuffix(".py")
        found = []
        for m in _IMPORT.finditer(text):
            name = m.group("a") or m.group("b")
            if name == stem or name in top or name in _STDLIB or name == "__future__":
                continue
            if f"{folder}/{name}.py" in py or f"{folder}/{name}/__init__.py" in py:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start("a" if m.group("a") else "b") - (text.rfind("\n", 0, m.start()) + 1) + 1
                found.append((line, col, name))
        if found:
            candidates[rel] = found
            texts[rel] = text
    if not candidates:
        return findings, []
    others = {rel: read_python(sf) or "" for rel, sf in py.items()}
    path_lines = [ln for t in others.values() if "sys.path" in t for ln in t.splitlines() if "sys.path" in ln]
    places: dict = {}
    for rel, found in candidates.items():
        folder, base = rel.rsplit("/", 1)
        last = folder.rsplit("/", 1)[-1]
        stem = base.removesuffix(".py")
        if any(last in ln for ln in path_lines):
            continue  # a script puts the folder on sys.path: the sibling is found there
        if base != "__init__.py" and not _imported_as_package_module(rel, folder, last, stem, others):
            continue  # perhaps run as a script from its folder, where Python 3 finds the sibling too
        places[rel] = found
    if not places:
        return findings, []
    from ..model import Occurrences, make_finding
    from .report import _context, _suppressed

    out = list(findings)
    by_file = {f.path: i for i, f in enumerate(out) if f.rule == _RULE and f.cell is None and not f.suppressed}
    new: list = []
    occurrences = Occurrences()
    lines_of: dict = {}
    for rel, found in sorted(places.items()):
        if rel in by_file:
            i = by_file[rel]
            f = out[i]
            more = tuple((line, col, _RULE) for line, col, _n in found)
            out[i] = replace(f, occurrences=tuple(dict.fromkeys((*f.occurrences, *more))))
            continue
        lines = texts[rel].splitlines()
        line, col, name = found[0]
        message = (f"Python 2 module (an implicit relative import: Python 3 looks `{name}` up on sys.path, not "
                   f"beside the module): `{name}`")
        f = make_finding(rule, occurrences, confidence="high", path=rel, line=line, column=col, end_line=line,
                         end_column=col + len(name), snippet=lines[line - 1], message=message,
                         code=lines[line - 1].strip(), context=_context(lines, line))
        if len(found) > 1:
            f = replace(f, occurrences=tuple((ln, c, _RULE) for ln, c, _n in found[1:]))
        new.append(f)
        lines_of[rel] = lines
    return out, (_suppressed(new, lines_of, engine) if new else [])


def _imported_as_package_module(rel: str, folder: str, last: str, stem: str, texts: dict) -> bool:
    """Another file names the module by a dotted path through its folder (`from faster_rcnn.faster_rcnn import`,
    `import models.resnet_2x`), or a file of the folder imports it relatively (`from .resnet import`)."""
    dotted = re.compile(rf"(?<![\w.]){re.escape(last)}\.{re.escape(stem)}\b")
    relative = re.compile(rf"from[ \t]+\.{re.escape(stem)}\b|from[ \t]+\.[ \t]+import[^\n]*\b{re.escape(stem)}\b")
    for other, text in texts.items():
        if other == rel or stem not in text:
            continue
        if dotted.search(text):
            return True
        if other.rsplit("/", 1)[0] == folder and relative.search(text):
            return True
    return False
