"""Modules that cannot be imported: a top-level import of the project's own code names a module that is not there.

FunASR keeps `funasr/models/xvector/e2e_sv.py`, whose first lines import `funasr.models.base_model`, a module the
project deleted long ago. Importing the file raises, so none of its code runs anywhere (FunASR's package walk
catches the error and skips the module); its findings are guarded (`guarded_by` "broken-import").

An import counts only when it cannot fail softly: a statement in column 0 (not under `try`, `if` or a function),
`import a.b.c` or `from a.b.c import name` (or relative, `from .missing import name`), whose first part is a
top-level package of the scanned tree (a folder at the scan root, or under `src/`, holding an `__init__.py`; for a
relative import any such folder with a Python name: wanda's `dense_ft/trainer.py`, a copy of Hugging Face's Trainer
beside no `__init__.py`, imports `.integrations`, which cannot work as a namespace module or as a script).
The module is missing when none of `a/b/c.py`, `a/b/c/` (a package or a namespace folder), or a compiled or stub
form (`.pyx`, `.pyi`, `.so`, `.pyd`, `.c`, `.cpp`, `.cu`) exists on disk, and the name is not one a build writes
(`[context.values] generated-module-names`: `version`, `_C`, `*_pb2`, ...; and the last part of every name an
`Extension(...)` of a setup.py within two folders of the root builds, or a `create_extension(...)` of a build.py
within four (PWC-Net, session 40; with the `_name` library torch.utils.ffi writes beside it), session 37:
py-faster-rcnn's `utils.cython_bbox` from `utils/bbox.pyx`). `from a.b import c` is missing only
when `a/b` itself is missing (`c` may be a name defined in `a/b/__init__.py`).

A module also cannot be imported when a top-level `from a.b import name` of the project's own package names something
the module `a/b.py` (or the package `a/b/`) never mentions: no definition, assignment or import of that word in
its text, no submodule of that name, no `import *`, module `__getattr__`, `globals()`, `sys.modules` or computed
`__all__.append(name)` / `__all__.extend(names)` (inferno registers `Conv2D` and its kin from format strings) that could
supply it, and no part a build writes (`*_pb2`) (fish-speech's
`tools/llama/eval_in_context.py` imports `AutoAugTextDataset`, which `fish_speech/datasets/semantic.py` no longer
has). These imports are judged after a top-level call too (`pyrootutils.setup_root(...)` extends `sys.path`,
which does not change what an existing module defines), as long as no other folder between the file and the
root holds a package of that name.

Cheap: only the files holding findings are read again (their text, not a parse), and only their column-0 import
lines are looked at.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import replace
from pathlib import Path

REASON = "broken-import"
_FROM = re.compile(r"^from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]", re.M)
_IMPORT = re.compile(r"^import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)[ \t]*(?:#.*)?$", re.M)
_DOCSTRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
# A statement in column 0 that calls something (`install_dependencies()`, `sys.path.insert(0, ...)`): an import
# after it may depend on what the call did, so only the imports before the first one are judged.
_FIRST_CALL = re.compile(r"^(?!(?:from|import|def|class|async|return|assert|raise|if|elif|else|try|except|with|for|"
                         r"while)\b)[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?\s*(?:\(|\.(?:append|insert|extend)\b)",
                         re.M)
_FORMS = (".py", ".pyx", ".pyi", ".so", ".pyd", ".c", ".cpp", ".cu")
# What the import system sets on every module: `from elektronn3 import __file__ as arch_src` needs no line of the
# package to say so
_MODULE_ATTRIBUTES = frozenset({"__file__", "__name__", "__path__", "__doc__", "__spec__", "__loader__", "__package__",
                                "__dict__", "__builtins__", "__cached__"})
_FROM_NAMES = re.compile(r"^from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)", re.M)


def guard_broken_imports(findings: list, root, values: dict, read_text) -> list:
    """Mark guarded (`broken-import`) the findings of a module whose top-level import of the project's own code
    names a module that does not exist (see the docstring). `read_text(rel)` returns a scanned file's text."""
    todo = sorted({f.path for f in findings if not f.guarded and not f.suppressed and f.path.endswith(".py")})
    if not todo:
        return findings
    root = Path(root)
    from .unreferenced import _partial_scan

    if _partial_scan(root):
        return findings  # part of a project: what it imports may sit outside the scanned folder
    own = _own_packages(root)
    folders = _own_packages(root, namespace=True)
    if not folders:
        return findings
    generated = tuple(str(g) for g in values.get("generated-module-names", ())) + _built_extensions(root)
    packaging = _packaging_text(root)
    broken = {rel for rel in todo
              if _missing_import(rel, read_text(rel) or "", root, own, generated, packaging, folders)}
    if not broken:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON)
            if f.path in broken and not f.guarded and not f.suppressed else f for f in findings]


_EXTENSION_NAME = re.compile(r"""\b(?:Extension|create_extension)\(\s*(?:name\s*=\s*)?["']([\w.]+)["']""")


def _built_extensions(root: Path) -> tuple:
    """The module names the extensions of a setup.py near the top of the tree build (`Extension("utils.cython_bbox",
    ["utils/bbox.pyx"])` in py-faster-rcnn's `lib/setup.py`, copied into many detection repositories): the build
    writes `utils/cython_bbox.*.so`, whose source has another name, so an import of it is not broken."""
    out: set = set()
    # (PWC-Net keeps its ffi packages four folders down: PyTorch/external_packages/<copy>/<package>/build.py)
    for pattern in ("setup.py", "*/setup.py", "*/*/setup.py", "build.py", "*/build.py", "*/*/build.py",
                    "*/*/*/build.py", "*/*/*/*/build.py"):
        for path in root.glob(pattern):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")[:1_000_000]
            except OSError:
                continue
            for m in _EXTENSION_NAME.findall(text):
                last = m.rsplit(".", 1)[-1]
                # torch.utils.ffi's `create_extension("_ext.nms", ...)` writes `_ext/nms/_nms.so`, which the
                # generated `_ext/nms/__init__.py` imports as `from ._nms import lib`
                out.update((last, "_" + last) if "create_extension" in text else (last,))
    return tuple(sorted(out))


def _packaging_text(root: Path) -> str:
    """The root packaging's text: a `package_dir` there maps dotted names to other folders
    (detectron2 installs `projects/` as `detectron2.projects`)."""
    out = []
    for name in ("setup.py", "setup.cfg", "pyproject.toml"):
        try:
            out.append((root / name).read_text(encoding="utf-8", errors="replace")[:1_000_000])
        except OSError:
            continue
    return "\n".join(out)


def _own_packages(root: Path, namespace: bool = False) -> dict:
    """name -> folder of the top-level packages of the tree (at the root or under `src/`); with `namespace`, any
    folder there with a Python name counts (a namespace package, `fish_speech/` without `__init__.py`)."""
    out: dict = {}
    for base in (root, root / "src"):
        try:
            entries = list(base.iterdir())
        except OSError:
            continue
        for e in entries:
            try:
                if e.is_dir() and e.name.isidentifier() and (namespace or (e / "__init__.py").is_file()):
                    out.setdefault(e.name, e)
            except OSError:  # an unreadable folder (permissions): not judged
                continue
    return out


def _exists(base: Path, parts: list) -> bool:
    """The module is on disk; an unreadable place (permissions) counts as present: nothing is guessed."""
    target = base.joinpath(*parts)
    try:
        if target.is_dir():
            return True
        return any(target.with_name(target.name + form).exists() for form in _FORMS) or any(
            p.name.startswith(target.name + ".") and p.suffix in (".so", ".pyd") for p in _siblings(target))
    except OSError:
        return True


def _siblings(target: Path) -> list:
    try:
        return [p for p in target.parent.iterdir() if p.is_file()]
    except OSError:
        return []


def _missing_import(rel: str, text: str, root: Path, own: dict, generated: tuple, packaging: str = "",
                    folders: dict | None = None) -> bool:
    if "import" not in text:
        return False
    text = _DOCSTRING.sub("", text)  # a usage example in a docstring is not an import
    if _missing_name(rel, text, root, own if folders is None else folders, generated):
        return True
    first_call = _FIRST_CALL.search(text)
    if first_call:
        text = text[:first_call.start()]
    for dots, mod in _FROM.findall(text):
        parts = [p for p in mod.split(".") if p]
        if dots:
            here = rel.split("/")[:-1]
            if len(dots) - 1 > len(here):
                continue
            base_parts = here[:len(here) - len(dots) + 1]
            if not parts:
                continue  # `from . import x`: x may be a name of the package
            top = base_parts[1:] if base_parts[:1] == ["src"] else base_parts
            # a folder without `__init__.py` counts: the relative import fails there too (a namespace package's
            # sibling that is not on disk, or no parent package at all when the file runs as a script)
            if not top or top[0] not in (own if folders is None else folders):
                continue  # climbs out of the project's packages: the scan may see part of the tree only
            if _gone(root, base_parts, parts, generated, packaging):
                return True
        elif parts and parts[0] in own and len(parts) > 1:
            if _gone_everywhere(rel, root, own, parts, generated, packaging):
                return True
    for m in _IMPORT.finditer(text):
        for name in m.group(1).split(","):
            parts = [p for p in name.strip().split(".") if p]
            if len(parts) > 1 and parts[0] in own and _gone_everywhere(rel, root, own, parts, generated, packaging):
                return True
    return False


def _missing_name(rel: str, text: str, root: Path, own: dict, generated: tuple = ()) -> bool:
    """A column-0 `from pkg.mod import name` of an own package whose module exists but never mentions `name`."""
    for mod, names in _FROM_NAMES.findall(text):
        parts = mod.split(".")
        if parts[0] not in own or _elsewhere(rel, root, own, parts[0]) or any(
                fnmatch.fnmatchcase(p, g) for p in parts for g in generated):
            continue
        target = own[parts[0]].parent.joinpath(*parts)
        try:
            if target.is_dir():
                source, folder = target / "__init__.py", target
            else:
                source, folder = target.with_name(target.name + ".py"), None
            if not source.is_file():
                continue  # a compiled module, a namespace folder, or missing (judged with the module imports)
            body = source.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if re.search(r"\bimport[ \t]*\*|\bdef[ \t]+__getattr__\b|\bglobals\(\)|\bsys\.modules\b"
                     r"|\b__all__[ \t]*\.[ \t]*(?:append|extend)\([ \t]*[A-Za-z_]", body):
            # names made at run time (`globals()` of generated protobuf modules, a module __getattr__, a name built
            # and listed in __all__ by a registering helper: inferno's `__all__.append(cls_name)` for `Conv2D`)
            continue
        listed = " ".join(line.split("#", 1)[0] for line in names.strip("()").splitlines())
        for item in listed.split(","):
            name = item.split()[0] if item.split() else ""
            if not name.isidentifier() or name in _MODULE_ATTRIBUTES or any(
                    fnmatch.fnmatchcase(name, g) for g in generated):
                continue
            if re.search(rf"\b{re.escape(name)}\b", body):
                continue
            if folder is not None and _exists(folder, [name]):
                continue  # a submodule
            return True
    return False


def _elsewhere(rel: str, root: Path, own: dict, top: str) -> bool:
    """Another folder between the file and the root holds a `top` package: which one is imported depends on how
    the script is run."""
    here = rel.split("/")[:-1]
    home = own[top].parent
    while here:
        base = root.joinpath(*here)
        try:
            if base != home and (base / top).is_dir():
                return True
        except OSError:
            return True
        here = here[:-1]
    return False


def _gone_everywhere(rel: str, root: Path, own: dict, parts: list, generated: tuple, packaging: str) -> bool:
    """Missing under the project's package and under every folder from the file's own up to the root: a script
    run from its sub-project's folder imports that folder's `llama/` first (LLaMA-Adapter's sub-projects each
    keep a `llama` package beside their scripts, and the root has another)."""
    if not _gone(own[parts[0]].parent, [], parts, generated, packaging):
        return False
    here = rel.split("/")[:-1]
    while here:
        base = root.joinpath(*here)
        if _exists(base, parts[:1]) and not _gone(base, [], parts, generated, packaging):
            return False
        here = here[:-1]
    return True


def _gone(base: Path, prefix: list, parts: list, generated: tuple, packaging: str = "") -> bool:
    """The module `prefix + parts` does not exist below `base` (a missing module under a missing package counts
    at its first missing part), no part is a name a build writes, and the root packaging does not name the first
    missing dotted path (a `package_dir` alias)."""
    if any(fnmatch.fnmatchcase(p, g) for p in parts for g in generated):
        return False
    where = base.joinpath(*prefix) if prefix else base
    for i in range(1, len(parts) + 1):
        if not _exists(where, parts[:i]):
            return bool(prefix) or not _mapped(parts[:i], packaging)
    return False


def _mapped(parts: list, packaging: str) -> bool:
    """The root packaging names the dotted path, or quotes a package above it (`package_dir={"yolox.tools":
    "tools"}` makes `yolox.tools.train` the file `tools/train.py`)."""
    if ".".join(parts) in packaging:
        return True
    return any(f'"{p}"' in packaging or f"'{p}'" in packaging
               for p in (".".join(parts[:j]) for j in range(2, len(parts))))
