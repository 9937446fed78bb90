"""Root packaging that installs an application, not a library (used by `never-referenced` and `never-imported`).

Both steps leave alone the public names and modules of a package the root packaging declares: a library's users
import them from outside the repository. A distribution whose runtime dependencies pin torch to one exact version
(`torch==2.3.0` in `[project] dependencies`, Poetry's `[tool.poetry.dependencies]` or setup.py's
`install_requires=[...]`) cannot be installed beside any other project using torch: it is an application packaged
for `pip install -e .` (VILA, LLaVA, nanochat), whose modules only the repository itself runs. Its packages are
judged like any other code. A pin in an optional extra (`[project.optional-dependencies]`, `extras_require`), a
range (`torch>=2.1`) or a pin of another package says nothing of the kind."""
from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

# the tables that make a pyproject.toml a distribution's metadata (one holding only `[tool.black]` installs nothing)
PYPROJECT_PACKAGING = re.compile(r"^\[(?:project|tool\.poetry|build-system)\]", re.M)
_BUILD_SYSTEM = re.compile(r"^\[build-system\]", re.M)
_UV_TABLE = re.compile(r"^\[tool\.uv(?:\.[\w-]+)*\]", re.M)
_UV_PACKAGE = re.compile(r"^\s*package\s*=\s*true\b", re.M)
_POETRY_NO_PACKAGE = re.compile(r"^\s*package-mode\s*=\s*false\b", re.M)
# build backends that install the package named after the distribution unless told otherwise (setuptools, by
# contrast, discovers every top-level package of a flat or src layout)
_NAMED_BACKENDS = re.compile(r"""^\s*build-backend\s*=\s*["'](?:poetry\.core\.masonry\.api|poetry\.masonry\.api|"""
                             r"""hatchling\.build|flit_core\.buildapi|pdm\.backend|pdm\.pep517\.api)["']""", re.M)
_EXPLICIT_PACKAGES = re.compile(r"^\s*packages\s*=|^\[tool\.(?:hatch\.build|flit\.module|pdm\.build|setuptools)",
                                re.M)
_NAME = re.compile(r"""^\s*name\s*=\s*["']([^"']+)["']""", re.M)


def declares_package(text: str, exists=None) -> bool:
    """A pyproject.toml that makes the project an installable distribution. Metadata tables are needed
    (`[project]`, `[tool.poetry]`, `[build-system]`); but uv builds and installs a project only when it names a
    build backend (`[build-system]`) or sets `tool.uv.package = true` (an application managed by uv has neither:
    tier4's Diffusion-Planner), and Poetry's `package-mode = false` installs dependencies only. `exists(name)`: the
    folder holding the pyproject.toml has a package of that name (or `src/<name>`); when given, a Poetry, Hatch,
    Flit or PDM build that lists no packages installs the package named after the distribution, and a project
    without one (VoltaML's `voltaml-fast-stable-diffusion` beside its `core/` and `api/`) installs nothing."""
    if not PYPROJECT_PACKAGING.search(text):
        return False
    if _BUILD_SYSTEM.search(text):
        if exists is not None and _NAMED_BACKENDS.search(text) and not _EXPLICIT_PACKAGES.search(text):
            names = {m.group(1).strip().lower().replace("-", "_").replace(".", "_") for m in _NAME.finditer(text)}
            return any(exists(n) for n in names)
        return True
    if _POETRY_NO_PACKAGE.search(text):
        return False
    if _UV_TABLE.search(text) and not _UV_PACKAGE.search(text):
        return False
    return True


_PIN = re.compile(r"""^\s*torch\s*(?:\[[^\]]*\])?\s*===?\s*[\w.+!*-]+\s*(?:;.*)?$""", re.I)
_POETRY_PIN = re.compile(r"^\s*(?:==)?\s*\d[\w.+!-]*\s*$")
_INSTALL_REQUIRES = re.compile(r"install_requires\s*=\s*\[(.*?)\]", re.S)
_STRING = re.compile(r"""["']([^"'\n]*)["']""")


def pins_torch(root: Path) -> bool:
    """The root packaging's runtime dependencies pin torch to one exact version."""
    return _pyproject_pins(root / "pyproject.toml") or _setup_py_pins(root / "setup.py")


def _text_naming_torch(path: Path) -> str:
    """The file's text when it exists and names torch at all, else ""."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    except OSError:
        return ""
    return text if "torch" in text else ""


def _pyproject_pins(path: Path) -> bool:
    text = _text_naming_torch(path)
    if not text:
        return False
    try:
        data = tomllib.loads(text)
    except (ValueError, TypeError):
        return False
    project = data.get("project")
    deps = project.get("dependencies") if isinstance(project, dict) else None
    if isinstance(deps, list) and any(isinstance(d, str) and _PIN.match(d) for d in deps):
        return True
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    pdeps = poetry.get("dependencies") if isinstance(poetry, dict) else None
    spec = pdeps.get("torch") if isinstance(pdeps, dict) else None
    if isinstance(spec, dict):
        spec = spec.get("version")
    return isinstance(spec, str) and _POETRY_PIN.match(spec) is not None


def _setup_py_pins(path: Path) -> bool:
    text = _text_naming_torch(path)
    if not text:
        return False
    m = _INSTALL_REQUIRES.search(text)
    return m is not None and any(_PIN.match(s) for s in _STRING.findall(m.group(1)))
