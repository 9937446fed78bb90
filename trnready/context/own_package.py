"""own-package: the match names one of the scanned project's own top-level packages."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from .base import predicate
from ..astwalk import walk

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_KINDS = ("import", "reference", "call", "decorator")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")
# Directories that hold a project's tests, docs or tooling, never its importable package.
_NOT_PACKAGES = frozenset({"tests", "test", "docs", "doc", "examples", "scripts", "benchmarks", "tools", "build",
                           "dist", "setup", "conftest"})


@predicate("own-package", kinds=_KINDS)
def own_package(ctx, hit) -> bool:
    """A match on a module of the scanned project itself: torchao's `from torchao.float8 import ...`
    when scanning torchao, `import mamba_ssm` inside mamba. The rule's fix ("drop TorchAO") makes no
    sense for the project that is that library. The project's packages are read once per scan from
    pyproject.toml ([project].name, [tool.setuptools] packages), setup.cfg / setup.py (name,
    packages) and directories with an __init__.py at the root or under src/. It holds only for rules
    that report that package as a dependency (they import-match it), so diffusers' own
    `BitsAndBytesConfig(load_in_8bit=True)` is still reported as bitsandbytes."""
    own = ctx.project.own_packages
    if not own:
        return False
    name = hit.qualname or hit.name
    top = name.split(".", 1)[0] if name else ""
    if top not in own:
        return False
    # Only rules about that package as a dependency (they import-match it): diffusers' own
    # `BitsAndBytesConfig(load_in_8bit=True)` is still a use of bitsandbytes.
    return any(m.kind == "import" and any(n.split(".", 1)[0] == top for n in m.names) for m in hit.rule.matchers)


def own_packages(root: Path) -> frozenset:
    """Top-level import names the project at `root` defines (empty when it defines none)."""
    found: set[str] = set()
    root = Path(root)
    if _is_file(root):
        root = root.parent
    for base in (root, root / "src"):
        try:
            entries = list(base.iterdir())
        except OSError:
            continue
        for d in entries:
            if d.name not in _NOT_PACKAGES and _IDENT.match(d.name) and _is_file(d / "__init__.py"):
                found.add(d.name)
    for dists, packages in _manifests(root):
        found |= dists | packages
    return frozenset(n for n in found if _IDENT.match(n) and n not in _NOT_PACKAGES)


def distribution_names(root: Path) -> frozenset:
    """The distribution names the root packaging declares ([project] name, setup.cfg's metadata name, setup.py's
    `setup(name=...)`), in import form (`pyannote-audio` -> `pyannote_audio`)."""
    return frozenset(n for dists, _packages in _manifests(Path(root)) for n in dists)


def _manifests(root: Path) -> list:
    """(distribution names, package names) read from each packaging file at `root`."""
    return [_from_pyproject(root / "pyproject.toml"), _from_setup_cfg(root / "setup.cfg"),
            _from_setup_py(root / "setup.py")]


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:  # an unreadable directory (permission denied) is not a package we can see
        return False


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except OSError:
        return False


def _dist_to_import(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(".", "_")


def _top(pkgs) -> set[str]:
    return {p.split(".", 1)[0] for p in pkgs if isinstance(p, str)}


def _from_pyproject(path: Path) -> tuple[set[str], set[str]]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set(), set()
    dists: set[str] = set()
    out: set[str] = set()
    name = data.get("project", {}).get("name") if isinstance(data.get("project"), dict) else None
    if isinstance(name, str):
        dists.add(_dist_to_import(name))
    st = data.get("tool", {}).get("setuptools", {}) if isinstance(data.get("tool"), dict) else {}
    pk = st.get("packages") if isinstance(st, dict) else None
    if isinstance(pk, list):
        out |= _top(pk)
    # hatchling names the package folders it ships (`packages = ["src/pyannote"]`): a namespace package (no
    # `__init__.py` at its top) whose import name differs from the distribution's (`pyannote-audio`)
    hatch = data.get("tool", {}).get("hatch", {}) if isinstance(data.get("tool"), dict) else {}
    build = hatch.get("build", {}) if isinstance(hatch, dict) else {}
    wheel = build.get("targets", {}).get("wheel", {}) if isinstance(build, dict) \
        and isinstance(build.get("targets"), dict) else {}
    for table in (build, wheel):
        folders = table.get("packages") if isinstance(table, dict) else None
        if isinstance(folders, list):
            out |= {f.rstrip("/").rsplit("/", 1)[-1] for f in folders if isinstance(f, str)}
    return dists, out


def _from_setup_cfg(path: Path) -> tuple[set[str], set[str]]:
    import configparser
    cp = configparser.ConfigParser()
    try:
        cp.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return set(), set()
    dists: set[str] = set()
    out: set[str] = set()
    if cp.has_option("metadata", "name"):
        dists.add(_dist_to_import(cp.get("metadata", "name")))
    if cp.has_option("options", "packages"):
        out |= _top(x.strip() for x in re.split(r"[\s,]+", cp.get("options", "packages")) if x.strip()
                    and not x.startswith("find"))
    return dists, out


def _built_name(node: ast.Call) -> str | None:
    """The module an extension class call builds (`CUDAExtension(name="amp_C", ...)`, `CppExtension("apex_C",
    [...])`): the `name` keyword or the first positional string."""
    named = [k.value for k in node.keywords if k.arg == "name"] or node.args[:1]
    if named and type(named[0]) is ast.Constant and isinstance(named[0].value, str):
        return named[0].value
    return None


def _from_setup_py(path: Path) -> tuple[set[str], set[str]]:
    """name="..." and packages=[...] literals of the setup() call (the file is parsed, never run), and the
    top-level names of the extension modules it builds (`CUDAExtension(name="amp_C", ...)`): `import amp_C` in
    apex imports apex's own compiled code, not a third-party library."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return set(), set()
    dists: set[str] = set()
    out: set[str] = set()
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if callee and callee.endswith("Extension") and callee != "BuildExtension":
            built = _built_name(node)
            if built:
                out.add(built.split(".", 1)[0])
        if callee == "setup":
            for kw in node.keywords:
                if kw.arg == "name" and type(kw.value) is ast.Constant and isinstance(kw.value.value, str):
                    dists.add(_dist_to_import(kw.value.value))
                elif kw.arg == "packages" and type(kw.value) in (ast.List, ast.Tuple):
                    out |= _top(e.value for e in kw.value.elts if type(e) is ast.Constant)
    return dists, out


_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg")


def project_facts(root: Path):
    """ProjectFacts for a scan rooted at `root`: own packages of the root itself and of the project it sits
    in (the nearest ancestor with a pyproject.toml / setup.py / setup.cfg, not above a .git directory)."""
    from .base import ProjectFacts
    root = Path(root).absolute()
    if _is_file(root):
        root = root.parent
    own = set(own_packages(root))
    d = root
    while not any(_is_file(d / m) for m in _MANIFESTS):
        if _exists(d / ".git") or d.parent == d:
            break
        d = d.parent
    if d != root and any(_is_file(d / m) for m in _MANIFESTS):
        own |= own_packages(d)
    return ProjectFacts(own_packages=frozenset(own))
