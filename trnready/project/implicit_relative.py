"""Report step implicit-relative-imports: a package module importing its sibling as if it were top-level.

Python 2 looked an `import resnet` up beside the importing module first, so a package could name its own modules
without a dot: rethinking-network-pruning's `models/__init__.py` holds `from resnet import *`, longcw's
faster_rcnn_pytorch writes `import network` in `faster_rcnn/faster_rcnn.py`. Python 3 searches `sys.path` only:
imported as part of its package, such a module raises ModuleNotFoundError, and TorchNeuron needs Python 3.12-3.14. The
per-file pass cannot see it (the import is valid syntax and names no catalogue API); this step knows the project's
files.

A module is judged when it sits in a package (its folder holds `__init__.py`) and is imported as part of it: it is
that `__init__.py`, or another file names it by a dotted path (`faster_rcnn.faster_rcnn`) or imports it relatively.
Its absolute import of X is implicit-relative when X is a sibling (`X.py` or `X/__init__.py` in the same folder, the
whole dotted path resolving there) that has what the import takes (a name it imports, an attribute the file reads:
`from peft import ...` beside diffusers' `loaders/peft.py` is the library), is no top-level module of the scan (a file
or folder at the root, or under `src/`) and no standard-library module, and no file of the project adds the folder to
`sys.path` (a line naming `sys.path` and the folder), and the module does not ask for absolute imports (`from
__future__ import absolute_import`: its imports mean top-level modules on Python 2 too). It is reported as TRN324
(a Python 2 module): a place of the module's finding when the file has one, else a finding of its own at the first
such import, the others its places.
"""
from __future__ import annotations

import ast
import re
import sys
from dataclasses import replace

_RULE = "TRN324"
_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+(?P<a>[A-Za-z_]\w*)(?=[ \t]*(?:$|[,#;]|as\b))|from[ \t]+"
                     r"(?P<b>[A-Za-z_][\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#;]+))", re.M)
_STDLIB = frozenset(sys.stdlib_module_names)
# `from __future__ import absolute_import`: the module asks for Python 3's import semantics on Python 2 too, so its
# `from adamp import AdamP` names the top-level package on purpose (pytorch-tools' optim/__init__.py, fresh75)
_ABSOLUTE = re.compile(r"^from[ \t]+__future__[ \t]+import[ \t]+[^\n#]*\babsolute_import\b", re.M)


def implicit_relative_imports(findings: list, files, engine, read_python, summaries=None) -> tuple:
    """(findings with the places added to the files' TRN324 findings, new TRN324 findings). `summaries`: the
    per-file summaries aligned with `files`; their imports say which modules can have a candidate, so only those
    are read again (a regex over every package module's text was a quarter of a warm re-scan of diffusers/src)."""
    rules = {r.id: r for r in engine.rules}
    rule = rules.get(_RULE)
    if rule is None:
        return findings, []
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    heads = dict(zip((sf.rel for sf in files), summaries)) if summaries is not None else {}
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
        if not _may_name_sibling(rel, folder, heads.get(rel), py, top):
            continue
        text = read_python(sf)
        if not text or "import" not in text or ("absolute_import" in text and _ABSOLUTE.search(text)):
            continue
        stem = rel.rsplit("/", 1)[-1].removesuffix(".py")
        found = []
        for m in _IMPORT.finditer(text):
            module = m.group("a") or m.group("b")
            name = module.split(".", 1)[0]
            if name == stem or name in top or name in _STDLIB or name == "__future__":
                continue
            sibling = _sibling(folder, module, py)
            sibling_text = (read_python(py[sibling]) or "") if sibling is not None else ""
            if sibling is None or _wraps_library(name, sibling_text) \
                    or not (m.group("a") and rel.endswith("__init__.py") or _names_sibling(m, text, sibling_text)):
                continue  # a library of the same name (`from peft import ...` beside loaders/peft.py)
            line = text.count("\n", 0, m.start()) + 1
            col = m.start("a" if m.group("a") else "b") - (text.rfind("\n", 0, m.start()) + 1) + 1
            found.append((line, col, name))
        if found and "try" in text:
            soft = _soft_import_lines(text, [x[0] for x in found])
            found = [x for x in found if x[0] not in soft]
        if found and "__main__" in text:
            found = _outside_main_block(text, found)
        if found:
            candidates[rel] = found
            texts[rel] = text
    if not candidates:
        return findings, []
    evidence = _package_use(candidates, py, read_python)
    places: dict = {}
    for rel, found in candidates.items():
        folder, base = rel.rsplit("/", 1)
        last = folder.rsplit("/", 1)[-1]
        if last in evidence["paths"]:
            continue  # a script puts the folder on sys.path: the sibling is found there
        if base != "__init__.py" and rel not in evidence["used"]:
            continue  # perhaps run as a script from its folder, where Python 3 finds the sibling too
        if "sys.path" in texts[rel] and _own_folder_on_path(texts[rel]):
            continue  # `sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))`: the sibling is found
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


def _outside_main_block(text: str, found: list) -> list:
    """Those of `found` [(line, column, name)] outside the module's `if __name__ == "__main__":` block. That block
    runs only when the file is executed as a script, and then its own folder is `sys.path[0]`, so Python 3 finds
    the sibling there too (transformer_pytorch's `model/PositionalEncoding.py` ends with a plotting demo that
    imports `from utils.get_torch_device import ...`, the folder's own `utils/`; fresh80)."""
    from .self_tests import _main_block

    block = _main_block(text)
    if block is None:
        return found
    first, last = block[0], block[1]
    return [x for x in found if not first <= x[0] <= last]


def _soft_import_lines(text: str, lines: list) -> set:
    """Those of `lines` whose import sits in the body of a `try:` whose handler catches a failed import and binds a
    fallback (kernel_calls.falls_back, optional-gpu-import's reading): YOLOv5's `try: import wandb` / `except
    (ImportError, AssertionError): wandb = None` beside its own `loggers/wandb/` folder (Luhuanz/pytorch_project,
    fresh77). On Python 3 the import means the installed package, and where that fails the fallback is bound: no
    Python 2 reading is needed for the module to work."""
    from .kernel_calls import falls_back

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    return {ln for ln in lines if falls_back(tree, ln)}


def _may_name_sibling(rel: str, folder: str, summary, py: dict, top: set) -> bool:
    """The file's summary imports (or star-imports) an absolute module whose first part names a sibling of the
    file that is no top-level or standard-library module; True when there is no summary to tell."""
    if summary is None:
        return True
    from .summary import unpack_head

    try:
        head = unpack_head(rel, summary, check=False) if isinstance(summary, (bytes, bytearray)) else summary
        modules = [m for m, level, _n in head.get("imports", {}).values() if not level]
        modules += [m for m, level in head.get("stars", ()) if not level]
    except Exception:  # a summary of another shape: read the file
        return True
    for module in modules:
        name = module.split(".", 1)[0]
        if name and name not in top and name not in _STDLIB and (
                f"{folder}/{name}.py" in py or f"{folder}/{name}/__init__.py" in py):
            return True
    return False


def _sibling(folder: str, module: str, py: dict) -> str | None:
    """The file the dotted module would be beside the importer (`resnet`, `utils.blob`), or None."""
    stem = f"{folder}/" + module.replace(".", "/")
    for rel in (stem + ".py", stem + "/__init__.py"):
        if rel in py:
            return rel
    return None


def _wraps_library(name: str, sibling: str) -> bool:
    """The sibling imports its own name absolutely (`import gym` in ReAgent's `reagent/gym/envs/gym.py`, a wrapper
    of the OpenAI gym package): on Python 2 that line would import the file itself, so the module was written for
    the library of that name, and so was its neighbours' `import gym`."""
    return re.search(rf"^[ \t]*(?:import[ \t]+{re.escape(name)}\b(?!\.)|from[ \t]+{re.escape(name)}[ \t.]+import\b)",
                     sibling, re.M) is not None


def _names_sibling(m, text: str, sibling: str) -> bool:
    """The import takes something the sibling has: a name it imports (`from blob import im_list_to_blob`) written in
    the sibling's text, any name of a star import, or for `import network` an attribute the file reads
    (`network.np_to_variable`) written there (a package `__init__.py` importing a sibling plainly, `import blob`,
    hands the module on and counts whatever it reads). A library of the same name supplies names the sibling
    lacks."""
    if m.group("b"):
        names = [n.strip().split(" as ")[0].strip() for n in m.group("names").strip("() \t\n").split(",")]
        names = [n for n in names if n]
        if names == ["*"]:
            return True
        return any(re.search(rf"(?<![\w.]){re.escape(n)}\b", sibling) for n in names if n.isidentifier())
    attrs = set(re.findall(rf"(?<![\w.]){re.escape(m.group('a'))}\.(\w+)", text))
    return any(re.search(rf"(?<![\w.]){re.escape(a)}\b", sibling) for a in attrs)


# the module's own folder: `os.path.dirname(os.path.abspath(__file__))`, `os.path.dirname(__file__)`,
# `Path(__file__).parent`, `Path(__file__).resolve().parent`
_OWN_DIR = (r"(?:os\.path\.dirname\((?:os\.path\.(?:abspath|realpath)\()?__file__\)?\)"
            r"|(?:pathlib\.)?Path\(__file__\)(?:\.(?:resolve|absolute)\(\))?\.parent)")
_OWN_DIR_NAME = re.compile(rf"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*{_OWN_DIR}[ \t]*(?:#.*)?$", re.M)


def _own_folder_on_path(text: str) -> bool:
    """The module puts its own folder on `sys.path` (`filedir = os.path.dirname(os.path.abspath(__file__))`, then
    `sys.path.insert(0, filedir)`, pytorch_workspace's yolov3/model/build_model.py, fresh76): its bare imports of
    siblings resolve on Python 3 too."""
    names = {m.group(1) for m in _OWN_DIR_NAME.finditer(text)}
    arg = rf"(?:{_OWN_DIR}|{'|'.join(map(re.escape, sorted(names)))})" if names else _OWN_DIR
    return re.search(rf"sys\.path\.(?:insert\([ \t]*\d+[ \t]*,|append\()[ \t]*(?:str\()?{arg}\)?[ \t]*\)",
                     text) is not None


def _package_use(candidates: dict, py: dict, read_python) -> dict:
    """One pass over the project's Python texts: {"used": the candidate modules another file names by a dotted
    path through their folder (`from faster_rcnn.faster_rcnn import`, `import models.resnet_2x`) or a file of their
    folder imports relatively (`from .resnet import`), "paths": the folder names some `sys.path` line names}."""
    wanted: dict = {}  # (folder name, stem) -> candidate rels
    for rel in candidates:
        folder, base = rel.rsplit("/", 1)
        if base != "__init__.py":
            wanted.setdefault((folder.rsplit("/", 1)[-1], base.removesuffix(".py")), []).append(rel)
    lasts = {rel.rsplit("/", 1)[0].rsplit("/", 1)[-1] for rel in candidates}
    dotted = re.compile(r"(?<![\w.])(\w+)\.(\w+)\b")
    relative = re.compile(r"from[ \t]+\.(\w+)|from[ \t]+\.[ \t]+import[ \t]+\(?([\w, \t]+)")
    used: set = set()
    paths: set = set()
    stems = {s for _l, s in wanted}
    for rel, sf in py.items():
        text = read_python(sf)
        if not text:
            continue
        if "sys.path" in text:
            for ln in text.splitlines():
                if "sys.path" in ln:
                    paths.update(x for x in lasts if x in ln)
        if not wanted or not any(s in text for s in stems):
            continue
        for m in dotted.finditer(text):
            for r in wanted.get((m.group(1), m.group(2)), ()):
                if r != rel:
                    used.add(r)
        if "from" in text:
            folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
            for m in relative.finditer(text):
                names = [m.group(1)] if m.group(1) else [n.strip() for n in m.group(2).split(",")]
                for n in names:
                    for r in wanted.get((folder.rsplit("/", 1)[-1], n), ()):
                        if r != rel and r.rsplit("/", 1)[0] == folder:
                            used.add(r)
    return {"used": used, "paths": paths}
