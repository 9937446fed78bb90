"""The parts of an installed nested copy the repository never imports (rules `unused-nested-package`,
`unused-nested-module`, `unused-nested-script`, `nested-copy-manifest`).

RFdiffusion keeps NVIDIA's SE3Transformer in `env/SE3Transformer/` (its own setup.py and MIT licence under
RFdiffusion's BSD one), installs it with `pip install env/SE3Transformer` and imports `se3_transformer.model`.
The copy's QM9 training harness (`se3_transformer/runtime/`, `se3_transformer/data_loading/`) and its benchmark
launchers (`scripts/*.sh`) come with it but nothing in RFdiffusion reaches them: a port changes what the repository
runs, and these never run. So, for a copy that

1. lies below a repository root, at the top level too (MapTR keeps mmdetection3d in `mmdetection3d/`, with its own
   setup.py and Apache licence under MapTR's MIT one, and imports `mmdet3d`); the root project is never one;
2. is installable (its own setup.py, pyproject.toml or setup.cfg) and declares no entry points or scripts (a console
   script such as DGL-KE's `dglke_train` runs modules nothing imports);
3. carries a licence whose text is not the scan root's (another project's code; a sub-project of the same repository
   carries the root's licence, and with no licence at the root nothing is judged);
4. is imported by files outside it (the first name of an absolute import is one of its top-level modules, unless the
   importing file's folder holds a module of that name; a relative import into it keeps the whole copy),

the modules the repository reaches are those files outside it import or spell as a dotted name (any file kind:
`_target_: se3_transformer.model.X` in a config), the scripts a file outside names by path (also after `cd`
into the copy on the same line: `cd env/SE3Transformer && bash scripts/train.sh`), and, repeatedly, what those import
(nested_live.py's reach, which gives up when a reached module imports by a computed name). Then

- a package of the copy none of whose modules is reached: its findings are guarded (`unused-nested-package`);
- a module of a reached package that nothing reached imports (`se3_transformer/runtime/training.py` beside the
  `runtime/utils.py` the model imports): guarded (`unused-nested-module`). The reach follows every import of every
  reached module, a package's `__init__.py` included, so a module outside it is never loaded;
- a Python, shell or notebook file outside the copy's packages that nothing names (`scripts/benchmark.sh`,
  `tests/test_x.py`): guarded (`unused-nested-script`);
- its requirements, conda and Pipfile manifests and its own Dockerfiles that nothing outside names: guarded
  (`nested-copy-manifest`); installing the folder reads its setup.py and pyproject.toml, never these.

Native sources (`.cu`, `.cpp`, Makefiles, CMake files) and the packaging files are never guarded: installing the copy
builds its extensions whatever the repository imports."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from .nested_live import _container_file, _live_modules, _named_outside, _unreached_package, is_manifest, module_path

_INSTALLABLE = ("setup.py", "pyproject.toml", "setup.cfg")
_NEVER = frozenset({"cuda", "cpp", "makefile", "cmake"})
_SCRIPTS = frozenset({"python", "shell", "notebook"})
# Packaging that installs commands: their modules run without an import anyone could see.
_ENTRY_POINTS = re.compile(r"entry_points|console_scripts|gui_scripts|\bscripts\s*=|\[project\.scripts\]|"
                           r"\[tool\.poetry\.scripts\]")
_TOKEN = re.compile(r"[\w.\-/]+")


def unreached_installed(layout, namers, unused: set, paths) -> dict:
    """path -> reason, for the paths of `paths` in the parts of an installed copy the repository never reaches."""
    from .copy_folders import _licence_text

    deep = [d for d in layout.projects if not layout.is_root(d) and layout.depth(d) >= 1
            and layout.children.get(d, set()).intersection(_INSTALLABLE)
            and not any(d == u or layout.under(d, u) for u in unused)]
    if not deep:
        return {}
    root_licence = _licence_text(layout, "")
    if root_licence is None:
        return {}
    by_rel = {sf.rel: sf for sf in layout.files}
    out: dict = {}
    for d in sorted(deep, key=len):
        mine = [p for p in paths if layout.under(p, d) and p not in out
                and not any(layout.under(p, e) for e in deep if len(e) > len(d) and layout.under(e, d))]
        if not mine or _declares_commands(namers, by_rel, d):
            continue
        licence = _licence_text(layout, d)
        if licence is None or licence == root_licence:
            continue
        reached = _reached_from_outside(layout, namers, d)
        if reached is None:
            continue
        seeds, named = reached
        live = _live_modules(layout, namers, d, seeds)
        if live is None:
            continue
        for p in mine:
            sf = by_rel.get(p)
            name = PurePosixPath(p).name
            inner = p[len(d) + 1:]
            if sf is None or sf.kind in _NEVER or name in _INSTALLABLE or \
                    any(inner == n or inner.startswith(n + "/") for n in named):
                continue
            if _unreached_package(layout, d, p, live):
                out[p] = "unused-nested-package"
            elif _in_package(layout, d, p):
                if sf.kind == "python" and module_path(inner) not in live:
                    out[p] = "unused-nested-module"
            elif is_manifest(name) or _container_file(name):
                if not _named_outside(layout, namers, d, p):
                    out[p] = "nested-copy-manifest"
            elif sf.kind in _SCRIPTS and not (sf.kind == "python" and module_path(inner) in live):
                out[p] = "unused-nested-script"
    return out


def _declares_commands(namers, by_rel: dict, d: str) -> bool:
    return any(f"{d}/{n}" in by_rel and _ENTRY_POINTS.search(namers.text(by_rel[f"{d}/{n}"]))
               for n in _INSTALLABLE)


def _in_package(layout, d: str, p: str) -> bool:
    parts = p[len(d) + 1:].split("/")[:-1]
    return any(f"{d}/{'/'.join(parts[:i])}" in layout.packages for i in range(1, len(parts) + 1))


def _reached_from_outside(layout, namers, d: str):
    """(module paths inside `d` that files outside it import or spell, paths inside `d` they name), or None when
    nothing outside imports the copy, a relative import reaches into it, or an importing file does not parse."""
    modules = layout.code_modules(d)
    base = d.rsplit("/", 1)[-1]
    if not modules:
        return None
    inside = [sf.rel[len(d) + 1:] for sf in layout.files if layout.under(sf.rel, d)]
    folders = {str(a) for r in inside for a in PurePosixPath(r).parents if str(a) != "."}
    spelled = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, sorted(modules))) + r")((?:\.\w+)+)")
    segment = re.compile(rf"(?<![\w.-]){re.escape(base)}(?![\w-])")
    seeds: set = set()
    named: set = set()
    imported = False
    for sf in layout.files:
        if layout.under(sf.rel, d):
            continue
        text = namers.text(sf)
        if sf.kind == "python" and any(m in text for m in modules):
            facts = namers.imports(sf)
            if facts is None:
                return None
            for level, name in facts[0]:
                if level:
                    if namers._imports_into(sf, level, name, d, modules):
                        return None
                    continue
                first = name.split(".")[0]
                if first in modules and not namers.local(sf, first):
                    imported = True
                    seeds.add(name.replace(".", "/"))
        if any(m in text for m in modules):
            seeds.update((m.group(1) + m.group(2)).replace(".", "/") for m in spelled.finditer(text))
        if base in text:
            for m in segment.finditer(text):
                end = text.find("\n", m.end())
                for tok in _TOKEN.findall(text[m.end():end if end >= 0 else len(text)]):
                    tok = tok.strip("/")
                    while tok.startswith("./"):
                        tok = tok[2:]
                    if tok and (tok in folders or tok in inside):
                        named.add(tok)
    if not imported:
        return None
    for rel in named:
        if rel.endswith(".py"):
            seeds.add(rel[:-3])
    seeds |= {f"src/{s}" for s in seeds}
    return seeds, named
