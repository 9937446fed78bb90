"""Scan settings: one frozen Config built from CLI flags (and, later, config files)."""
from __future__ import annotations

from dataclasses import dataclass

from .model import Rule
from .read import DEFAULT_MAX_BYTES

FAIL_ON = ("blocker", "change", "advisory", "never")


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    fail_on: str = "blocker"
    max_file_size: int = DEFAULT_MAX_BYTES
    use_gitignore: bool = True
    catalogue: str | None = None
    extend_catalogue: tuple[str, ...] = ()
    jobs: int = 0  # 0: one worker per CPU
    cache: bool = True
    cache_dir: str | None = None
    prefilter: bool = True


def selector_matches(sel: str, rule: Rule) -> bool:
    """A selector is a rule id, an id prefix (TRN1, TRN), a category, or ALL."""
    sel = sel.strip()
    if not sel:
        return False
    if sel.upper() == "ALL":
        return True
    if sel == rule.category:
        return True
    return rule.id.startswith(sel.upper())


def select_rules(rules: list[Rule], select: tuple[str, ...], ignore: tuple[str, ...]) -> list[Rule]:
    out = []
    for r in rules:
        if select and not any(selector_matches(s, r) for s in select):
            continue
        if any(selector_matches(s, r) for s in ignore):
            continue
        out.append(r)
    return out
