"""The parts of a nested copy that its users never reach (rules `unused-nested-package`, `nested-copy-manifest`).

Depth-Anything keeps DINOv2 in `torchhub/facebookresearch_dinov2_main/` (its own setup.py, requirements.txt,
conda.yaml) and loads it with `torch.hub.load("torchhub/facebookresearch_dinov2_main", ..., source="local")`: the
hub runs `hubconf.py`, which imports `vision_transformer.py`, which imports `dinov2.layers`. DINOv2's training,
evaluation, distributed and FSDP packages (`dinov2/train/`, `dinov2/eval/`, ...) are never imported, and its
requirements and conda files are never installed. So, for a used nested project (two levels or more below a
repository root, with packaging of its own) served through torch.hub (its own `hubconf.py`, and a package of its
own) that the rest of the repository reaches only by its path:

1. no file outside it imports any of its modules (an absolute import whose first name is one of its top-level
   modules or packages, unless the importing file's own folder holds a module of that name; a relative import
   resolving into it); otherwise the copy is a library the repository imports and every package of it stays;
2. only Python code outside it names its path (a string: the torch.hub.load call). A launcher, CI job, Dockerfile
   or config naming it may install it or run any of its scripts, and a packaging file naming it (`package_dir`)
   installs its packages as API: then nothing is guarded;
3. the modules it runs are its scripts (every Python file outside its packages: `hubconf.py`, `train.py`, ...) and,
   repeatedly, what they import (absolute imports resolved against the copy's folder and its `src/`, and the
   importing file's own folder; relative imports; `from pkg import sub` also as the module `pkg.sub`; a package's
   `__init__.py` runs with any module of it), plus any module of the copy a string in them spells as a dotted
   name (`"dinov2.models.vision_transformer"`: registries). A call of `importlib.import_module`, `__import__`,
   `pkgutil`'s walkers or `runpy` whose argument is not a literal makes every module reachable (nothing guarded);
4. a package of the copy (a folder with `__init__.py`, or any folder inside one) none of whose modules is reached:
   its findings are guarded (`unused-nested-package`), whatever their file kind (its YAML configs too);
5. the copy's dependency manifests (requirements*.txt, conda/environment files, pyproject.toml, setup.cfg,
   Pipfile; never setup.py) and its own Dockerfiles that no file outside it names by path (`pip install -r
   .../requirements.txt`): the copy runs from source, so what it declares is never installed or built
   (`nested-copy-manifest`).

Its package may be a namespace package: a folder without `__init__.py` that `hubconf.py` imports from (MiDaS's
`from midas.dpt_depth import DPTDepthModel`, kept under x-flux's ZoeDepth as `midas_repo/`).

The root project's own packages are never guarded this way: a library's modules are its public API."""
from __future__ import annotations

from pathlib import PurePosixPath

_PACKAGING = frozenset({"setup.py", "pyproject.toml", "setup.cfg"})
_MANIFESTS = frozenset({"pyproject.toml", "setup.cfg", "Pipfile", "conda.yaml", "conda.yml", "environment.yml",
                        "environment.yaml"})


def is_manifest(name: str) -> bool:
    return name in _MANIFESTS or (name.startswith("requirements") and name.endswith(".txt"))


def _container_file(name: str) -> bool:
    """The copy's own image recipe (`Dockerfile`, `Dockerfile.gpu`, `gpu.Dockerfile`): it builds the copy's
    environment, which the repository serving the copy from source never builds unless it names the file."""
    return name == "Dockerfile" or name.startswith("Dockerfile.") or name.endswith(".Dockerfile")


def unreached(layout, namers, unused: set, paths) -> dict:
    """path -> reason, for the paths of `paths` in an unreached package or manifest of a used nested copy."""
    copies = sorted((d for d in layout.projects if not layout.is_root(d) and layout.depth(d) >= 2
                     and not any(d == u or layout.under(d, u) for u in unused)), key=len)
    out: dict = {}
    for d in copies:
        mine = [p for p in paths if layout.under(p, d) and p not in out
                and not any(layout.under(p, e) for e in copies if len(e) > len(d) and layout.under(e, d))]
        # Only a copy the repository reaches by its path (a launcher, a torch.hub.load string), never by importing
        # it: a folder nothing names is the repository's own work or example (examples/dreambooth/ with its own
        # requirements.txt), left as it is.
        if not mine or not _library(layout, namers, d) or _imported_from_outside(layout, namers, d) or \
                not _path_named(layout, namers, d):
            continue
        live = _live_modules(layout, namers, d)
        if live is None:
            continue
        for p in mine:
            pkg = _unreached_package(layout, d, p, live)
            if pkg:
                out[p] = "unused-nested-package"
            elif (is_manifest(PurePosixPath(p).name) or _container_file(PurePosixPath(p).name)) and \
                    not _named_outside(layout, namers, d, p):
                out[p] = "nested-copy-manifest"
    return out


def _library(layout, namers, d: str) -> bool:
    """A copy served through torch.hub (its own `hubconf.py`) with a package of its own. A nested library without
    one (torchrec's `contrib/dynamic_embedding/`, built by its CI) is installed: all its packages are its API."""
    names = layout.children.get(d, set())
    if "hubconf.py" not in names:
        return False
    if any(p.startswith(d + "/") and p.count("/") - d.count("/") in (1, 2) for p in layout.packages):
        return True
    # a namespace package: a folder of modules without __init__.py that hubconf.py imports from (MiDaS's
    # `from midas.dpt_depth import DPTDepthModel`)
    hub = next((sf for sf in layout.files if sf.rel == f"{d}/hubconf.py"), None)
    facts = namers.imports(hub) if hub is not None else None
    return facts is not None and any(not level and "." in name and name.split(".")[0] not in names
                                     and f"{d}/{name.split('.')[0]}" in layout.children for level, name in facts[0])


def _path_named(layout, namers, d: str) -> bool:
    """Some Python file outside `d` names it by its path (`torch.hub.load("torchhub/dinov2_main", ...,
    source="local")`), and nothing else does: a setup.py mapping the folder into its distribution installs its
    packages as API, and a launcher, CI job or Dockerfile may install the copy or run any of its scripts."""
    named = False
    for sf in layout.files:
        if layout.under(sf.rel, d) or not namers.names(sf, d, set()):
            continue
        if sf.kind != "python" or PurePosixPath(sf.rel).name in _PACKAGING:
            return False  # a launcher, CI job or Dockerfile may install it or run any of its scripts
        named = True
    return named


def module_path(inner: str) -> str:
    """The module path of a Python file given by its path inside a copy (`dinov2/layers/block.py` ->
    `dinov2/layers/block`, `dinov2/layers/__init__.py` -> `dinov2/layers`)."""
    rel = inner[:-3]
    return rel[:-len("/__init__")] if rel.endswith("/__init__") else rel


def _py_files(layout, d: str) -> dict:
    """module path inside `d` (`dinov2/layers/block`, `dinov2/layers` for its __init__.py) -> file."""
    return {module_path(sf.rel[len(d) + 1:]): sf for sf in layout.files
            if sf.kind == "python" and layout.under(sf.rel, d)}


def _imported_from_outside(layout, namers, d: str) -> bool:
    """Step 1: some Python file outside the copy imports one of its modules (the first name of an absolute import,
    unless the importing file's folder holds a module of that name)."""
    modules = layout.modules(d)
    for sf in layout.files:
        if sf.kind != "python" or layout.under(sf.rel, d) or not any(m in namers.text(sf) for m in modules):
            continue
        facts = namers.imports(sf)
        if facts is None:
            return True
        for level, name in facts[0]:
            first = name.split(".")[0]
            if (level and namers._imports_into(sf, level, name, d, modules)) or \
                    (not level and first in modules and not namers.local(sf, first)):
                return True
    return False


def _live_modules(layout, namers, d: str, seeds=None):
    """Module paths inside `d` its scripts reach (step 2), or None when a dynamic import could reach any. seeds:
    module paths the reach starts from instead of the copy's scripts (what the repository imports of an installed
    copy, nested_installed.py)."""
    files = _py_files(layout, d)
    packages = {p[len(d) + 1:] for p in layout.packages if layout.under(p, d)}
    live, todo = set(), []

    def add(mod: str) -> None:
        if mod in files and mod not in live:
            live.add(mod)
            todo.append(mod)
        parts = mod.split("/")
        for i in range(1, len(parts)):  # a module's packages run their __init__.py
            parent = "/".join(parts[:i])
            if parent in files and parent not in live:
                live.add(parent)
                todo.append(parent)

    for mod in files if seeds is None else ():
        parts = mod.split("/")
        if not any("/".join(parts[:i]) in packages for i in range(1, len(parts) + 1)):
            add(mod)  # a script: outside every package of the copy
    for mod in seeds or ():
        add(mod)
    tops = {m.split("/")[0] for m in files}
    while todo:
        mod = todo.pop()
        sf = files[mod]
        facts = namers.imports(sf)
        if facts is None or facts[2]:
            return None
        is_pkg = mod in packages
        here = mod if is_pkg else (mod.rsplit("/", 1)[0] if "/" in mod else "")
        for level, name in facts[0]:
            path = name.replace(".", "/")
            if level:
                base = here.split("/") if here else []
                base = base[:len(base) - (level - 1)] if level > 1 else base
                add("/".join(base + ([path] if path else [])))
            else:
                add(path)
                for prefix in ("src", here):
                    if prefix:
                        add(f"{prefix}/{path}")
        for s in facts[1]:
            if "." in s and s.split(".")[0] in tops and all(p.isidentifier() for p in s.split(".")):
                add(s.replace(".", "/"))
    return live


def _unreached_package(layout, d: str, p: str, live: set) -> str:
    """The outermost package of `d` holding `p` none of whose modules is live, or "". A folder in a package counts as
    one without an `__init__.py` of its own (`dinov2/eval/` is imported as the namespace `dinov2.eval`)."""
    inner = p[len(d) + 1:].split("/")[:-1]
    in_package = False
    for i in range(1, len(inner) + 1):
        pkg = "/".join(inner[:i])
        # A folder without __init__.py inside a package is one too (a namespace package: `dinov2.eval.knn`).
        in_package = in_package or f"{d}/{pkg}" in layout.packages
        if not in_package:
            continue
        if not any(m == pkg or m.startswith(pkg + "/") for m in live):
            return pkg
    return ""


def _named_outside(layout, namers, d: str, p: str) -> bool:
    """Whether a file outside `d` names the manifest by its path (the copy's folder name and the path in it)."""
    tail = f"{d.rsplit('/', 1)[-1]}/{p[len(d) + 1:]}"
    return any(not layout.under(sf.rel, d) and tail in namers.text(sf) for sf in layout.files)
