"""The upstream folders of a repository copy nested in the tree (rule `unused-copy-folder`, part of the nested step).

A repository often carries a whole other repository, forked to change a few files: LoRA keeps Hugging Face
transformers 4.4 in `examples/NLU/` (its own setup.py, LICENSE, CONTRIBUTING.md, Makefile) and adds launchers at
its root (`roberta_base_mnli.sh` runs `examples/text-classification/run_glue.py`); Vim keeps detectron2 in `det/`
(its own setup.py, LICENSE, `.circleci/`). The upstream project's Dockerfiles, notebooks, tests, research
projects and legacy examples came along with the copy; the port changes what the repository runs, not these.

- A **repository copy** is a folder below the scan root with installable packaging of its own (setup.py,
  pyproject.toml or setup.cfg) and the files of a repository root: a licence (LICENSE*, COPYING*) and one of
  `[context.values] copy-root-files` (CONTRIBUTING*, CODE_OF_CONDUCT*, MANIFEST.in, Makefile, `.github/`,
  `.circleci/`, ...). A folder holding `.git` is a clone of its own, not a copy inside another repository.
- Its **candidate folders** are its direct sub-folders named in `copy-infrastructure-dirs` (docker, docs,
  notebooks, tests, templates, utils, ...) and every folder directly inside its sub-folders named in
  `copy-collection-dirs` (`examples/legacy`, `examples/research_projects`, `projects/DensePose`). A package (a
  folder with `__init__.py`) is never a candidate: it is what the repository imports. `scripts/` and `tools/`
  are not listed: a repository keeps its own launchers there (VimDet's `det/scripts/`).
- A candidate is **unused** when no scanned file outside it names it (a path or folder name in a launcher,
  config or Python string; an import of one of its modules; a dotted module name), the test of
  `unused-nested-project` (nested.py `Namers`); files inside candidates found unused count as no user, so
  two unused folders naming each other stay unused. LoRA's launchers name `examples/text-classification`, which
  stays; nothing names `examples/research_projects`.

The root project's own folders are never candidates (the scan root is no copy), nor is anything in a copy that
lacks the repository-root files (a sub-project of the repository with only a setup.py is its own work)."""
from __future__ import annotations

import re

_INSTALLABLE = frozenset({"setup.py", "pyproject.toml", "setup.cfg"})
_LICENCES = ("license", "licence", "copying")


def repository_copies(layout, root_files, upstream_dirs=frozenset()) -> list:
    """Folders below the scan root that are copies of another repository (module docstring)."""
    marks = tuple(m.lower() for m in root_files)
    out = []
    for d in sorted(layout.projects):
        if layout.is_root(d) or not layout.children.get(d, set()) & _INSTALLABLE:
            continue
        names = [n.lower() for n in layout.listing(d)]
        if any(n.startswith(_LICENCES) for n in names) and (
                any(n == m or n.startswith(m) for n in names for m in marks)
                or len(upstream_dirs.intersection(n for n in names if f"{d}/{n}".lower() in _lower(layout))) >= 2):
            out.append(d)
    return out


def _lower(layout) -> set:
    got = getattr(layout, "_copy_dirs_lower", None)
    if got is None:
        got = {x.lower() for x in layout.dirs}
        layout._copy_dirs_lower = got
    return got


def candidate_folders(layout, copies, infrastructure, collections) -> set:
    out = set()
    for c in copies:
        for sub in _subfolders(layout, c):
            name = sub.rsplit("/", 1)[-1]
            if name in collections and layout.children.get(sub):
                # files directly in the collection (`tensorboardX/examples/demo_nvidia_smi.py`): the folder itself
                # is a candidate, named by its path or by any entry in it (`examples/text-classification`); its
                # `__init__.py` makes it no package the repository imports unless something names it
                out.add(sub)
            if sub in layout.packages:
                continue
            if name in infrastructure:
                out.add(sub)
            elif name in collections:
                out.update(s for s in _subfolders(layout, sub) if s not in layout.packages)
    return out


def _subfolders(layout, d: str) -> list:
    prefix = d + "/"
    return sorted(x for x in layout.dirs if x.startswith(prefix) and "/" not in x[len(prefix):])


def unused_copy_folders(layout, namers, values) -> set:
    """The candidate folders of every repository copy that no file outside them names."""
    infrastructure = frozenset(values.get("copy-infrastructure-dirs", ()))
    collections = frozenset(values.get("copy-collection-dirs", ()))
    copies = repository_copies(layout, values.get("copy-root-files", ()), infrastructure | collections)
    if not copies:
        return set()
    candidates = candidate_folders(layout, copies, infrastructure, collections)
    if not candidates:
        return set()
    patterns = {d: _path_pattern(d, _entries(layout, d) if d.rsplit("/", 1)[-1] in collections else ())
                for d in candidates}
    # the copy's own CI at its root (`.travis.yml` running `python examples/demo.py`): upstream's, never run here
    marks = tuple(m.lower() for m in values.get("copy-root-files", ()))
    upstream_ci = {sf.rel for sf in layout.files for c in copies if layout.under(sf.rel, c)
                   and sf.rel[len(c) + 1:].lower().startswith(marks)}
    unused = set(candidates)
    changed = True
    while changed:  # a file inside a folder found unused is no user: the largest set that holds
        changed = False
        for d in sorted(unused):
            name = d.rsplit("/", 1)[-1]
            for sf in layout.files:
                if layout.under(sf.rel, d) or sf.rel in upstream_ci or \
                        any(layout.under(sf.rel, u) for u in unused if u != d):
                    continue
                text = namers.text(sf)
                if name in text and patterns[d].search(text):
                    unused.discard(d)
                    changed = True
                    break
    return {d for d in unused if not any(layout.under(d, u) for u in unused if u != d)}


def _entries(layout, d: str) -> list:
    """The folders directly in folder `d`: a collection folder is named by any of them after its own name
    (`examples/text-classification` in a launcher inside the copy). Its files' names are not enough: the
    upstream package's docstrings cite them (`See examples/demo_custom_scalars.py`)."""
    return [s.rsplit("/", 1)[-1] for s in _subfolders(layout, d)]


def _path_pattern(d: str, entries=()):
    """The folder named with its parent at least (`examples/legacy`, `research_projects/rag`,
    `examples.research_projects.rag`), as whole path segments. Unlike a nested project's, a copy's folder is not
    taken as named by its bare name or by the names of its modules: an upstream repository's examples share
    script names (`run_glue.py` is in `text-classification/` and in `legacy/pytorch-lightning/`) and its
    folders are ordinary words (`docs`, `utils`, `rag` is also a model the library's own package names)."""
    parts = d.split("/")
    tails = ["/".join(parts[i:]) for i in range(len(parts) - 1)]
    dotted = [".".join(parts[i:]) for i in range(len(parts) - 1)
              if all(p.isidentifier() for p in parts[i:])]
    last = parts[-1]
    inside = [f"{last}{sep}{e}" for e in entries for sep in ("/", ".") if sep == "/" or e.isidentifier()]
    alts = "|".join(re.escape(t) for t in sorted(set(tails + dotted + inside), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])")


# Build files of a native library: a copy's CMake project is built by that copy's own build, never by the repository
# unless one of the repository's build files names the copy's folder (`add_subdirectory(ggml)`).
_BUILD_FILES = frozenset({"cmakelists.txt", "makefile"})


def licensed_copies(layout, root_files, forks: bool = False) -> list:
    """Folders below the scan root that carry another project's licence: a licence file (LICENSE*, COPYING*) whose
    text is not the scan root's licence, beside one of the repository-root files of `copy-root-files`
    (CONTRIBUTING.md, CODE_OF_CONDUCT.md, a Makefile, ...). Video-LLaMA keeps ImageBind in
    `video_llama/models/ImageBind/` (CC BY-NC, CONTRIBUTING.md) under its own BSD licence; seamless_communication
    keeps ggml (MIT, a Makefile) in `ggml/`. A sub-project of the same repository carries the root's licence text
    (a monorepo's packages), and a folder holding `.git` is a clone of its own; neither is a copy here, nor is an
    installable fork (its own setup.py, pyproject.toml or setup.cfg: LoRA's transformers fork in `examples/NLU/`,
    set up with its own environment.yml) unless `forks` asks for those too. With no licence at the scan root nothing
    is judged."""
    root_licence = _licence_text(layout, "")
    if root_licence is None:
        return []
    marks = tuple(m.lower() for m in root_files)
    out = []
    for d in sorted(x for x in layout.dirs if x and not layout.is_root(x)):
        names = [n.lower() for n in layout.listing(d)]
        if not any(n.startswith(_LICENCES) for n in names) or \
                not any(n == m or n.startswith(m) for n in names for m in marks):
            continue
        if _INSTALLABLE.intersection(names) and not forks:
            continue  # an installable fork (LoRA's transformers in examples/NLU/): its environment sets it up
        text = _licence_text(layout, d)
        if text is not None and text != root_licence:
            out.append(d)
    return [d for d in out if not any(layout.under(d, e) for e in out)]


def _licence_text(layout, d: str):
    """The whitespace-normalised text of the first licence file in folder `d` (by name), or None."""
    import os

    for name in sorted(layout.listing(d)):
        if name.lower().startswith(_LICENCES):
            try:
                with open(os.path.join(layout._root, d, name), encoding="utf-8", errors="replace") as fh:
                    return " ".join(fh.read(200_000).split())
            except OSError:
                continue
    return None


def copy_manifests(layout, namers, values, paths) -> set:
    """The paths of `paths` that are dependency manifests (requirements*.txt, conda/environment files,
    pyproject.toml, setup.cfg, Pipfile) or native build files (CMakeLists.txt, *.cmake, Makefile) of a licensed
    copy (`licensed_copies`), when no file outside the copy names the manifest by its path (`pip install -r
    ImageBind/requirements.txt`), and for a build file, when no build file or shell script outside the copy names
    the copy's folder, and no setup document above the copy enters its folder (`_setup_docs_enter`). They declare how
    the copied project is installed or built on its own; the repository installs with its own manifests. The copy's
    Python code stays as it is: what the repository imports runs."""
    from pathlib import PurePosixPath

    from .nested_live import _named_outside, is_manifest

    def kind(p: str):
        name = PurePosixPath(p).name
        low = name.lower()
        if is_manifest(name):
            return "manifest"
        if low in _BUILD_FILES or low.endswith(".cmake"):
            return "build"
        return None

    todo = {p: k for p in paths if (k := kind(p)) is not None}
    if not todo:
        return set()
    copies = licensed_copies(layout, values.get("copy-root-files", ()))
    out = set()
    for d in copies:
        mine = [p for p in todo if layout.under(p, d)]
        if not mine:
            continue
        base = d.rsplit("/", 1)[-1]
        pattern = re.compile(rf"(?<![\w-]){re.escape(base)}(?![\w-])")
        built_outside = any(not layout.under(sf.rel, d) and sf.kind != "python" and kind(sf.rel) != "manifest"
                            and base in namers.text(sf) and pattern.search(namers.text(sf))
                            for sf in layout.files)
        if _setup_docs_enter(layout, d):
            continue
        for p in mine:
            if _named_outside(layout, namers, d, p) or (todo[p] == "build" and built_outside):
                continue
            out.add(p)
    return out


def _setup_docs_enter(layout, d: str) -> bool:
    """A Markdown or reStructuredText file in a folder above the copy (its parent up to the scan root) tells users
    to enter the copy's folder in a shell (`cd ImageBind` before `pip install -r requirements.txt`, LLaMA-Adapter's
    imagebind_LLM README) or names a file in it by path (`ImageBind/requirements.txt`): the project's setup installs
    or builds the copy with its own files."""
    import os

    base = d.rsplit("/", 1)[-1]
    name = re.escape(base)
    enter = re.compile(rf"(?:^|[\s;&(`])cd\s+(?:\S*/)?{name}/?(?=$|[\s;&)`])"
                       rf"|(?<![\w-]){name}/[\w.-]+\.(?:txt|ya?ml|toml|cfg)\b", re.M)
    parts = d.split("/")
    for i in range(len(parts) - 1, -1, -1):
        above = "/".join(parts[:i])
        for name in layout.listing(above):
            if not name.lower().endswith((".md", ".rst")):
                continue
            try:
                with open(os.path.join(layout._root, above, name), encoding="utf-8", errors="replace") as fh:
                    if enter.search(fh.read(1_000_000)):
                        return True
            except OSError:
                continue
    return False
