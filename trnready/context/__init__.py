"""Context predicates: named, tested conditions on where a match sits.

Each predicate lives in its own module of this package and registers itself with
`@predicate(name, kinds, effect)`; importing the package imports every module, so
adding a predicate is adding one file (and its test). Reference: docs/predicates.md.
"""
from __future__ import annotations

import importlib
import pkgutil

from .base import EFFECTS, REGISTRY, FileContext, Predicate, ProjectFacts, predicate

__all__ = ["EFFECTS", "REGISTRY", "FileContext", "Predicate", "ProjectFacts", "predicate", "get", "names"]

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _mod != "base" and not _mod.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod}")


def get(name: str) -> Predicate | None:
    return REGISTRY.get(name)


def names() -> tuple[str, ...]:
    return tuple(sorted(REGISTRY))
