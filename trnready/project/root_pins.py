"""What the project's top-level manifests pin a package to (`unless-capped` of repo-scoped rules).

A repository-level advisory about a library behaviour that only some releases have (Transformers' threaded
weight loading, which HF_DEACTIVATE_ASYNC_LOAD turns off, exists from the 5.x releases on) says nothing to a
project whose own install declarations keep the library below those releases: `transformers==4.19.2` in the
root `requirements.txt` or conda `environment.yaml`. Only manifests at the scan root count (the project's
install: requirements and constraints files, pyproject.toml, setup.py, setup.cfg, conda environment files, Pipfile,
pixi.toml, read by the kind the scan gives each name): a pin in
an example's or a test suite's own requirements says what that example was tried with, not what the project
installs. The package is capped when at least one of them gives it a ceiling, every ceiling given lies in the
range, and no declaration asks for a version above it (`>=5`). Anything unreadable keeps the finding.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

from ..filekinds import kind_of
from ..requirements import TEXT_PARSERS, TOML_PARSERS, _ceiling, ceiling_in, norm, parse_requirements, \
    parse_setup_py

_MAX_BYTES = 512 * 1024


def _deps_of(path: Path) -> list:
    """The declarations of a manifest, by the kind the scan gives its name (a setup.py is read as Python)."""
    name = path.name
    kind = "setup-py" if name == "setup.py" else kind_of(name)
    if kind not in ("requirements", "setup-py") and kind not in TOML_PARSERS and kind not in TEXT_PARSERS:
        return []
    try:
        if path.stat().st_size > _MAX_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    try:
        if kind == "requirements":
            return parse_requirements(text)[0]
        if kind == "setup-py":
            return parse_setup_py(ast.parse(text), text.splitlines()).deps
        if kind in TOML_PARSERS:
            return TOML_PARSERS[kind](tomllib.loads(text), text).deps
        return TEXT_PARSERS[kind](text).deps
    except (SyntaxError, ValueError, RecursionError, tomllib.TOMLDecodeError):
        return []


def root_deps(root, package: str) -> list:
    """The declarations of `package` in the manifests directly under `root`."""
    if root is None:
        return []
    base = Path(root)
    if not base.is_dir():
        return []
    want = norm(package)
    out: list = []
    try:
        entries = sorted(p for p in base.iterdir() if p.is_file())
    except OSError:
        return []
    for p in entries:
        out.extend(d for d in _deps_of(p) if d.name == want)
    return out


def _floor_outside(spec: SpecifierSet, target: SpecifierSet) -> bool:
    """A lower bound or exact pin the target range does not hold (`>=5.0` against `<5`)."""
    for sp in spec:
        if sp.operator not in (">=", ">", "==", "===", "~=") or sp.version.endswith(".*"):
            continue
        try:
            v = Version(sp.version)
        except InvalidVersion:
            continue
        if not target.contains(v, prereleases=True):
            return True
    return False


def capped(root, requirement: str) -> bool:
    """`requirement` ("transformers<5"): the root manifests keep the package inside that range."""
    m = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.+)$", requirement)
    if m is None:
        return False
    try:
        target = SpecifierSet(m.group(2))
    except InvalidSpecifier:
        return False
    deps = root_deps(root, m.group(1))
    some = False
    for d in deps:
        for spec in d.alternatives or [SpecifierSet()]:
            if _floor_outside(spec, target):
                return False
            if _ceiling(spec) is None:
                continue
            if not ceiling_in(spec, target):
                return False
            some = True
    return some
