"""Copies of other projects nested in the tree that this repository never runs (report step, after the link step).

A repository often carries a whole other project: Vim keeps detectron2 in `det/`, and detectron2 brings its own
sub-projects (`det/projects/DensePose/`, with its own setup.py, train_net.py and CUDA kernels), its Dockerfile and
release scripts; mamba's copy keeps its wheel-publishing workflow in `mamba-1p1p1/.github/workflows/`. The port
changes what the repository runs, not these. The rules, each a named reason of the guarded findings:

- `nested-ci`: a file under a `.github/` or `.circleci/` folder (or a `.gitlab-ci.yml` / `.travis.yml`) below the
  scan root. GitHub, CircleCI, GitLab and Travis read these only at the root of a repository, so they are the
  copied project's CI, not this one's. A folder holding a `.git` directory is a repository root of its own (a scan
  of several clones), and a path some file outside the folder names (`uses: ./sub/.github/actions/x`) is kept.
- `unused-nested-project`: a folder at least two levels below a repository root, inside a nested project that is
  installable (`det/`, with its own setup.py: a copy of detectron2) or inside a package's tree (an installable copy
  such as DeepFaceLab's `faceswap/insightface/detection/scrfd/`), that is a project of its own (its own
  setup.py, pyproject.toml, setup.cfg, requirements*.txt, environment.yml, conda.yaml or hubconf.py), or a folder
  without packaging that holds an entry script (`if __name__ == "__main__":`) and a package of its own
  (detectron2's `projects/TridentNet/`: train_net.py beside `tridentnet/`), or a folder inside a package whose name
  no import can spell that holds an entry script (deep-person-reid's `torchreid/utils/GPU-Re-Ranking/`, another
  paper's demo and CUDA extensions), when no scanned file outside it imports
  any of its modules or packages and none names its path (`projects/DensePose`, a string naming the folder,
  `python -m densepose.x`, a setup.py mapping it into a distribution). A folder of the root project itself is
  never such a project (`examples/dreambooth/` with its requirements.txt is the repository's own example), nor is a
  top-level folder (Vim's `vim/`, `seg/` and `det/` are the repository's parts). Files inside folders already
  found unused do not count as users, so two unused sibling projects naming each other stay unused.
- `unused-copy-folder` (`copy_folders.py`): the upstream folders (docker, docs, notebooks, tests, `examples/<x>`)
  of a nested repository copy (packaging, a licence, a CONTRIBUTING.md or the like) nothing outside them names.
- `unused-nested-package` and `nested-copy-manifest` (`nested_live.py`): inside a used nested copy served through
  torch.hub that the rest of the repository reaches only by its path, never by importing it (Depth-Anything loads
  its DINOv2 copy with `torch.hub.load("torchhub/facebookresearch_dinov2_main", ..., source="local")`), the
  packages no module it runs imports, and its own dependency manifests.
- `unused-nested-package`, `unused-nested-module`, `unused-nested-script` and `nested-copy-manifest`
  (`nested_installed.py`): inside an installed copy under another project's licence that the repository imports
  (RFdiffusion's `env/SE3Transformer/`, from which it imports `se3_transformer.model`), the packages and modules no
  import of the repository reaches, the copy's scripts nothing names and its requirements files and Dockerfiles.
- `copied-tools` (`copied_tools.py`): a tool folder copied from the framework the project builds on (another
  holder's copyright header, no import of the project) beside the project's own versions of its scripts.
- `nested-copy-manifest` also (`copy_folders.copy_manifests`): the dependency manifests and native build files
  (requirements*.txt, conda files, CMakeLists.txt, *.cmake, Makefile) of a folder carrying another project's
  licence (a licence text other than the scan root's, beside a CONTRIBUTING.md or the like), unless a file outside
  it names the manifest by path (or, for a build file, a build file or script outside names the folder). Its Python
  code stays reported: what the repository imports runs.

Documentation (Markdown, reStructuredText) is not scanned and names nothing: a README listing the sub-projects
does not make them run. The root project's own folders and packages are never guarded here."""
from __future__ import annotations

import ast
import os
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath
from ..astwalk import walk

CI_DIRS = frozenset({".github", ".circleci"})
CI_FILES = frozenset({".gitlab-ci.yml", ".travis.yml"})
_MARKERS = frozenset({"setup.py", "pyproject.toml", "setup.cfg", "environment.yml", "environment.yaml",
                      "conda.yaml", "conda.yml", "hubconf.py"})
_INSTALLABLE = frozenset({"setup.py", "pyproject.toml", "setup.cfg"})
# Top-level scripts whose name is no module anyone imports.
_NOT_MODULES = frozenset({"setup", "conftest", "__init__", "hubconf", "__main__"})
# Folders every project has, never imported from another project by these names.
_NOT_PACKAGES = frozenset({"tests", "test", "docs", "doc", "examples", "scripts", "configs", "tools", "dev"})
_DYNAMIC = frozenset({"import_module", "__import__", "walk_packages", "iter_modules", "run_module", "run_path"})
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")


def is_marker(name: str) -> bool:
    """A file whose presence makes its folder a project of its own."""
    return name in _MARKERS or (name.startswith("requirements") and name.endswith(".txt"))


class Layout:
    """The folders of the scanned files: packages, project markers, repository roots."""

    def __init__(self, files, root):
        self.files = [sf for sf in files]
        self.rels = [sf.rel for sf in self.files]
        self.dirs: set = set()
        self.children: dict = {}  # folder -> names of the files directly in it
        for rel in self.rels:
            p = PurePosixPath(rel)
            parent = str(p.parent) if str(p.parent) != "." else ""
            self.children.setdefault(parent, set()).add(p.name)
            for a in p.parents:
                self.dirs.add("" if str(a) == "." else str(a))
        self.packages = {d for d, names in self.children.items() if d and "__init__.py" in names}
        # A package's `setup.py` is one of its modules (`dinov2/eval/setup.py`), not packaging of its own.
        self.projects = {d for d, names in self.children.items()
                         if d and d not in self.packages and any(is_marker(n) for n in names)}
        self._root = Path(root) if root is not None else None
        self._roots: dict = {}

    def listing(self, d: str) -> list:
        """Every name in folder `d` on disk, scanned or not (LICENSE, CONTRIBUTING.md, `.github/`); [] when unknown."""
        if self._root is None:
            return []
        try:
            return os.listdir(self._root / d)
        except OSError:
            return []

    def is_root(self, d: str) -> bool:
        """The scan root, or a folder holding a `.git` directory (a clone of its own; a submodule's `.git` is a
        file, and GitHub runs no workflow of a submodule either)."""
        if not d:
            return True
        if d not in self._roots:
            self._roots[d] = self._root is not None and os.path.isdir(self._root / d / ".git")
        return self._roots[d]

    def depth(self, d: str) -> int:
        """Levels of `d` below the nearest repository root above it."""
        parts = d.split("/")
        for i in range(len(parts) - 1, 0, -1):
            if self.is_root("/".join(parts[:i])):
                return len(parts) - i
        return len(parts)

    def nested_in(self, d: str) -> bool:
        """Whether `d` lies inside an installable project nested below a repository root (`det/projects/DensePose`
        inside `det/`, which has its own setup.py: a copy of detectron2). A folder of the root project itself, or of
        a folder with only a requirements file (`examples/dreambooth/`), is the repository's own work."""
        return any(a in self.projects and self.children[a] & _INSTALLABLE for a in self._above(d))

    def inside_package(self, d: str) -> bool:
        """Whether a folder above `d`, below the nearest repository root, is a Python package: `d` sits in a
        package's tree (`faceswap/insightface/detection/scrfd/`, under the package `faceswap/insightface/`)."""
        return any(a in self.packages for a in self._above(d))

    def _above(self, d: str):
        """The folders above `d`, innermost first, up to (not including) the nearest repository root."""
        parts = d.split("/")
        for i in range(len(parts) - 1, 0, -1):
            a = "/".join(parts[:i])
            if self.is_root(a):
                return
            yield a

    def under(self, rel: str, d: str) -> bool:
        return rel.startswith(d + "/")

    def modules(self, d: str) -> set:
        """Names the folder's code is imported by: its top-level modules and packages (also under `src/`), and the
        folder's own name when it is an identifier (`from projects.PointRend import point_rend`)."""
        out = self.code_modules(d)
        name = d.rsplit("/", 1)[-1]
        if _IDENT.match(name):
            out.add(name)
        return out

    def code_modules(self, d: str) -> set:
        """The folder's top-level modules and packages (also under `src/`), without its own name: a clone keeps
        its package under the clone's name (`flow_grpo/flow_grpo/`), and that package is code all the same."""
        out = set()
        for base in (d, f"{d}/src"):
            for name in self.children.get(base, ()):
                if name.endswith(".py") and name[:-3] not in _NOT_MODULES and _IDENT.match(name[:-3]):
                    out.add(name[:-3])
            prefix = base + "/"
            for pkg in self.packages:
                if pkg.startswith(prefix) and "/" not in pkg[len(prefix):] and pkg[len(prefix):] not in _NOT_PACKAGES:
                    out.add(pkg[len(prefix):])
        return out


class Namers:
    """Which scanned files name which folders: by importing one of its modules, or by a path or a dotted name."""

    def __init__(self, layout: Layout, read_text, read_python):
        self.layout, self._read_text, self._read_python = layout, read_text, read_python
        self._texts: dict = {}
        self._trees: dict = {}
        self.memo: dict = {}  # what nested_live.py reads of a file (its imports), parsed once

    def text(self, sf) -> str:
        if sf.rel not in self._texts:
            self._texts[sf.rel] = (self._read_python(sf) if sf.kind == "python" else self._read_text(sf)) or ""
        return self._texts[sf.rel]

    def imports(self, sf):
        """([(level, dotted module)], [string constants], dynamic) of a Python file, parsed once: each import, each
        `from m import x` also as `m.x`, and whether a call of `importlib.import_module`, `__import__`, pkgutil's
        walkers or runpy takes a computed argument. None when the file does not parse."""
        if sf.rel not in self._trees:
            try:
                tree = ast.parse(self.text(sf))
            except (SyntaxError, ValueError, RecursionError):
                self._trees[sf.rel] = None
                return None
            mods: list = []
            strings: list = []
            dynamic = False
            for node in walk(tree):
                if isinstance(node, ast.Import):
                    mods.extend((0, a.name) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    mods.append((node.level, base))
                    mods.extend((node.level, f"{base}.{a.name}" if base else a.name)
                                for a in node.names if a.name != "*")
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 300:
                    strings.append(node.value)
                elif isinstance(node, ast.Call):
                    f = node.func
                    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                    if name in _DYNAMIC and not (node.args and isinstance(node.args[0], ast.Constant)):
                        dynamic = True
            self._trees[sf.rel] = (mods, strings, dynamic)
        return self._trees[sf.rel]

    def local(self, sf, first: str) -> bool:
        """Whether the file's own folder holds a module or package `first` (a script's folder heads its path)."""
        folder = str(PurePosixPath(sf.rel).parent)
        folder = "" if folder == "." else folder
        return f"{first}.py" in self.layout.children.get(folder, ()) or \
            f"{folder + '/' if folder else ''}{first}" in self.layout.packages

    def names(self, sf, d: str, modules: set) -> bool:
        """Whether file `sf` (outside `d`) names folder `d` or imports one of `modules`."""
        text = self.text(sf)
        base = d.rsplit("/", 1)[-1]
        tails = _tails(d)
        # A cheap test first: most files mention none of the words.
        if not any(t in text for t in tails) and base not in text and not any(m in text for m in modules):
            return False
        if any(t in text for t in tails if "/" in t):
            return True  # a path naming the folder (a launcher, a config, a torch.hub.load string)
        if sf.kind == "python":
            facts = self.imports(sf)
            if facts is None:
                return True  # unreadable: taken as a user
            if any(self._imports_into(sf, level, name, d, modules) for level, name in facts[0]):
                return True
            seg = _segment(base)
            dotted = [re.compile(rf"^{re.escape(m)}(\.\w+)+$") for m in modules]
            # Strings that can name the folder: a path holding its name, its name alone, a dotted module name.
            # Prose (docstrings, messages: "the official DeepLab implementation") does not.
            return any(s == base or s in modules or ("/" in s and seg.search(s)) or any(p.match(s) for p in dotted)
                       for s in facts[1])
        if _segment(base).search(text):
            return True
        # A dotted module name (`_target_: densepose.modeling.X`, `python -m densepose.x`), not a file name
        # (`tools/train_net.py`).
        return any(re.search(rf"(?<![\w.-/]){re.escape(m)}\.(?!py\b)[A-Za-z_]|(?:-m|import|from)\s+{re.escape(m)}\b",
                             text) for m in modules)

    def _imports_into(self, sf, level: int, name: str, d: str, modules: set) -> bool:
        """Whether one import of file `sf` reaches folder `d`: a relative import resolving inside it, or an absolute
        import naming one of its modules (anywhere in the dotted name: `detectron2.projects.point_rend`, which
        setup.py maps onto the folder) unless its first name is a module beside the importing file."""
        if level:
            folder = str(PurePosixPath(sf.rel).parent)
            parts = [] if folder == "." else folder.split("/")
            parts = parts[:len(parts) - (level - 1)] if level > 1 else parts
            target = "/".join(parts + name.split(".")) if name else "/".join(parts)
            return target == d or target.startswith(d + "/")
        comps = name.split(".")
        hit = set(comps) & modules
        base = d.rsplit("/", 1)[-1]
        if hit == {base}:
            # The folder's own name is another module's name too (`insightface.model_zoo.scrfd`, a module beside
            # the detector folder `detection/scrfd/`): it names the folder only first in the import or after the
            # folder's parent (`projects.PointRend`).
            parent = d.rsplit("/", 2)[-2] if d.count("/") else ""
            if not any(c == base and (i == 0 or comps[i - 1] == parent) for i, c in enumerate(comps)):
                return False
        return bool(hit) and not self.local(sf, comps[0])


def _tails(d: str) -> list:
    """The folder's path and its endings of two components or more (`det/projects/DensePose`, `projects/DensePose`),
    and its own name."""
    parts = d.split("/")
    return ["/".join(parts[i:]) for i in range(len(parts) - 1)] + [parts[-1]]


def _segment(name: str):
    """`name` as a whole path segment or word (`DensePose/train_net.py`, `"DensePose"`), not part of a longer name."""
    return re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")


def unused_projects(layout: Layout, namers: Namers) -> set:
    """The nested projects no file outside them uses (rule `unused-nested-project`)."""
    # An installable project inside a package's tree is another project's copy too: a package does not hold
    # the repository's own sub-projects (DeepFaceLab keeps insightface's SCRFD detector, setup.py and mmdet copy
    # included, in `faceswap/insightface/detection/scrfd/`, under the package `faceswap/insightface/`).
    # Such a copy holds Python code of its own beside its packaging: a folder holding only a setup.py and native
    # sources inside a package is the package's own extension build (ngp_pl's `models/csrc/`, built as `vren`).
    candidates = {d for d in layout.projects if not layout.is_root(d) and layout.depth(d) >= 2
                  and (layout.nested_in(d) or (layout.children[d] & _INSTALLABLE and layout.inside_package(d)
                                               and layout.code_modules(d)))}
    candidates |= _unpackaged(layout, namers)
    # no import reaches a folder whose name is no identifier: only a path naming it is a use (its `main` or
    # `utils` module names are everyone's words)
    unimportable = _unimportable(layout, namers) - candidates
    if not candidates and not unimportable:
        return set()
    modules = {d: layout.modules(d) | _extension_names(layout, namers, d) for d in candidates} | \
        {d: set() for d in unimportable}
    return largest_unused(layout, namers, candidates | unimportable, modules)


_EXTENSION = re.compile(r"\b(?:CUDA|Cpp)?Extension\(\s*(?:name\s*=\s*)?[\"']([\w.]+)[\"']")


def _extension_names(layout: Layout, namers: Namers, d: str) -> set:
    """The modules the folder's setup.py builds (`CUDAExtension(name='vren', ...)`: `import vren` elsewhere uses
    the folder)."""
    if "setup.py" not in layout.children.get(d, ()):
        return set()
    rel = f"{d}/setup.py"
    sf = next((f for f in layout.files if f.rel == rel), None)
    text = namers.text(sf) if sf is not None else ""
    return {m.rsplit(".", 1)[-1] for m in _EXTENSION.findall(text)}


def largest_unused(layout: Layout, namers: Namers, candidates: set, modules=None) -> set:
    """The candidate folders no file outside them names, files inside folders found unused counting as no user;
    those inside another unused one are left out (guarded with it). modules: folder -> the names its code is
    imported by (`Layout.modules` when not given)."""
    modules = modules if modules is not None else {d: layout.modules(d) for d in candidates}
    unused = set(candidates)
    changed = True
    while changed:  # a file inside a folder found unused is no user: the largest set that holds
        changed = False
        for d in sorted(unused):
            for sf in layout.files:
                if layout.under(sf.rel, d) or any(layout.under(sf.rel, u) for u in unused if u != d):
                    continue
                if namers.names(sf, d, modules[d]):
                    unused.discard(d)
                    changed = True
                    break
    # A project inside an unused one is guarded with it.
    return {d for d in unused if not any(layout.under(d, u) for u in unused if u != d)}


def _unpackaged(layout: Layout, namers: Namers) -> set:
    """Folders without packaging inside a nested project that hold an entry script and a package of their own
    (`det/projects/PointSup/`: train_net.py and point_sup/). Only inside a project that is itself nested: at the
    root, `projects/<name>/` is the repository's own work."""
    from ..scope import classify

    out = set()
    for d in layout.dirs:
        if not d or d in layout.packages or d in layout.projects or layout.depth(d) < 2:
            continue
        parent = d.rsplit("/", 1)[0] if "/" in d else ""
        if parent in layout.packages:
            continue
        if not layout.nested_in(d) or \
                not any(p.startswith(d + "/") and "/" not in p[len(d) + 1:] for p in layout.packages):
            continue
        scripts = [sf for sf in layout.files if sf.kind == "python" and sf.rel.startswith(d + "/")
                   and "/" not in sf.rel[len(d) + 1:] and classify(sf.rel) == "source"]
        if any(re.search(r"__name__\s*==\s*['\"]__main__['\"]", namers.text(sf)) for sf in scripts):
            out.add(d)
    return out


def _unimportable(layout: Layout, namers: Namers) -> set:
    """Folders inside a package whose name no import can spell (`torchreid/utils/GPU-Re-Ranking/`) that hold an entry
    script: another project's program and code dropped into the package tree, which the package cannot import."""
    out = set()
    for d in layout.dirs:
        if not d or "/" not in d or layout.depth(d) < 2 or d.rsplit("/", 1)[1].isidentifier():
            continue
        if d.rsplit("/", 1)[0] not in layout.packages:
            continue
        scripts = [sf for sf in layout.files if sf.kind == "python" and sf.rel.startswith(d + "/")
                   and "/" not in sf.rel[len(d) + 1:]]
        if any(re.search(r"__name__\s*==\s*['\"]__main__['\"]", namers.text(sf)) for sf in scripts):
            out.add(d)
    return out


def nested_ci(layout: Layout, namers: Namers, paths) -> dict:
    """path -> the CI folder (or file) below the root it lies in, for the paths of `paths` in one."""
    out = {}
    for rel in paths:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            if parts[i] in CI_DIRS and i < len(parts) - 1 or (i == len(parts) - 1 and parts[i] in CI_FILES):
                if not layout.is_root("/".join(parts[:i])):
                    out[rel] = "/".join(parts[:i + 1])
                break
    used = set()
    for ci in set(out.values()):
        for sf in layout.files:
            if sf.rel != ci and not layout.under(sf.rel, ci) and ci in namers.text(sf):
                used.add(ci)
                break
    return {rel: ci for rel, ci in out.items() if ci not in used}


def _mark(reasons: dict, layout: Layout, rels, folders, reason: str) -> None:
    """Give `reason` to each path of `rels` under one of `folders`."""
    for rel in rels:
        if any(layout.under(rel, d) for d in folders):
            reasons[rel] = reason


def guard_nested(findings: list, files, root, max_bytes: int, values=None) -> list:
    """Mark guarded the findings in nested CI, in unused nested projects, in the unused upstream folders of a
    repository copy (copy_folders.py) and in the unused packages of a nested copy reached by its path (module
    docstring)."""
    paths = {f.path for f in findings if not f.guarded and f.path.count("/") >= 1}
    if not paths:
        return findings
    layout = Layout(files, root)
    namers = Namers(layout, _text_reader(max_bytes), _python_reader(max_bytes))
    reasons: dict = {}  # path -> reason
    for rel in nested_ci(layout, namers, paths):
        reasons[rel] = "nested-ci"
    copied = [p for p in paths if p not in reasons and p.count("/") >= 2]
    if copied and values:
        from .copy_folders import unused_copy_folders

        folders = unused_copy_folders(layout, namers, values)
        _mark(reasons, layout, copied, folders, "unused-copy-folder")
    # (a copied tool folder may sit at the top level: detectron2's `tools/` in CenterNet2, session 41)
    copied = [p for p in paths if p not in reasons and p.count("/") >= 1]
    if copied:
        from .copied_tools import copied_tool_folders

        folders = copied_tool_folders(layout, namers)
        _mark(reasons, layout, copied, folders, "copied-tools")
    deep = [p for p in paths if p not in reasons and p.count("/") >= 2]
    if deep:
        unused = unused_projects(layout, namers)
        _mark(reasons, layout, deep, unused, "unused-nested-project")
        from .nested_live import unreached

        rest = [p for p in deep if p not in reasons]
        if rest:
            reasons.update(unreached(layout, namers, unused, rest))
        rest = [p for p in deep if p not in reasons]
        if rest:
            from .nested_installed import unreached_installed

            reasons.update(unreached_installed(layout, namers, unused, rest))
        rest = [p for p in deep if p not in reasons]
        if rest:
            from .copied_packages import copied_package_programs

            reasons.update(copied_package_programs(layout, namers, rest))
    rest = [p for p in paths if p not in reasons]
    if rest and values:
        from .copy_folders import copy_manifests

        for rel in copy_manifests(layout, namers, values, rest):
            reasons[rel] = "nested-copy-manifest"
    if not reasons:
        return findings
    return [replace(f, guarded=True, guarded_by=reasons[f.path]) if not f.guarded and f.path in reasons else f
            for f in findings]


def _python_reader(max_bytes: int):
    from ..read import decode_python, read_bytes

    def read(sf):
        data, _ = read_bytes(sf.path, sf.rel, max_bytes)
        return decode_python(data, sf.rel)[0] if data is not None else None
    return read


def _text_reader(max_bytes: int):
    from ..read import read_bytes

    def read(sf):
        data, _ = read_bytes(sf.path, sf.rel, max_bytes)
        return data.decode("utf-8", "replace") if data is not None else None
    return read
