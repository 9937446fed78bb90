"""Catalogue keys of the non-Python matchers (`python`, `file`, `requirement`, `line`): validation and parsing.

Called by catalogue.py while it loads rules; depends only on the model and the file-kind table.
"""
from __future__ import annotations

import re
from typing import Callable, NoReturn

from .filekinds import KIND_NAMES
from .linear_re import PatternError, compile_pattern


def check_kind_names(kind: str, names) -> str | None:
    if kind == "python":
        for n in names:
            if not re.fullmatch(r"\d+\.\d+", n):
                return f"bad Python version {n!r}: expected MAJOR.MINOR such as \"3.12\""
    if kind == "setting":
        for n in names:
            if not re.fullmatch(r"[\w*?-]+(?:\.[\w*?-]+)*", n):
                return (f"bad setting {n!r}: expected a key path such as \"device\" or \"compile.mode\""
                        " (`*` globs a key)")
    if kind == "file":
        for n in names:
            if n not in KIND_NAMES or n == "python":
                return f"file matchers name non-Python file kinds ({', '.join(KIND_NAMES[1:])}), got {n!r}"
    return None


def parse_surface_keys(kind: str, m: dict, err: Callable[[str, str], NoReturn]) -> dict:
    """version / version-shape / unless-mentioned / scope -> Matcher fields (validated)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    out: dict = {}
    if "version" in m or "version-shape" in m:
        if kind != "requirement":
            err("version and version-shape apply to requirement matchers only", "match.version")
    if "version" in m:
        try:
            out["version"] = SpecifierSet(m["version"])
        except (InvalidSpecifier, TypeError) as e:
            err(f"bad version specifier: {e}", "match.version")
    if "version-shape" in m:
        try:
            out["version_shape"] = compile_pattern(m["version-shape"])
        except PatternError as e:
            err(f"bad regular expression: {e}", "match.version-shape")
    scope = m.get("scope", "file")
    if scope not in ("file", "repo"):
        err("scope must be \"file\" or \"repo\"", "match.scope")
    out["scope"] = scope
    um = m.get("unless-mentioned", [])
    if isinstance(um, str):
        um = [um]
    if not isinstance(um, list) or not all(isinstance(x, str) and x for x in um):
        err("must be a list of non-empty strings", "match.unless-mentioned")
    if um and scope == "file" and kind not in ("requirement", "line", "file", "python"):
        err("unless-mentioned on a Python matcher needs scope = \"repo\"", "match.unless-mentioned")
    if scope == "repo" and not um:
        err("a repo-scoped matcher needs unless-mentioned", "match.scope")
    if kind == "line" and "python" in m.get("files", []):
        err("line matchers read non-Python files (\"notebook\" reads a notebook's JSON text, its metadata; its "
            "shell escapes count as \"shell\")", "match.files")
    out["unless_mentioned"] = tuple(um)
    where = m.get("mentioned-in", "repo" if scope == "repo" else "file")
    if where not in ("file", "repo") or (scope == "repo" and where != "repo"):
        err("mentioned-in must be \"file\" or \"repo\" (repo-scoped matchers look in the whole repo)",
            "match.mentioned-in")
    if "mentioned-in" in m and not um:
        err("mentioned-in needs unless-mentioned", "match.mentioned-in")
    out["mentioned_in"] = where
    capped = m.get("unless-capped", [])
    if isinstance(capped, str):
        capped = [capped]
    if not isinstance(capped, list) or not all(isinstance(x, str) and x for x in capped):
        err("must be a list of requirement strings such as \"transformers<5\"", "match.unless-capped")
    if capped and scope != "repo":
        err("unless-capped applies to repo-scoped matchers only", "match.unless-capped")
    for req in capped:
        try:
            name, spec = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.+)$", req).groups()  # type: ignore[union-attr]
            SpecifierSet(spec)
        except (AttributeError, InvalidSpecifier):
            err(f"bad requirement {req!r}: a package name and a version range (\"transformers<5\")",
                "match.unless-capped")
    out["unless_capped"] = tuple(capped)
    if kind == "python":
        # A declared requirement (packaging, environment files, images) or the versions a CI test job runs on.
        role = m.get("role", "requirement")
        if role not in ("requirement", "ci"):
            err("role of a python matcher must be \"requirement\" (declared requirements, the default) or \"ci\" "
                "(the versions CI test jobs run on)", "match.role")
        out["role"] = role
    for key in ("values", "value-words", "with-setting", "without-setting", "present") + (
            ("role",) if kind != "python" else ()):
        if key in m and kind != "setting":
            err(f"{key} applies to setting matchers only", f"match.{key}")
    if kind == "setting":
        words = m.get("value-words", "")
        if not isinstance(words, str) or not re.fullmatch(r"[\w-]*", words):
            err("must name a [context.values] list (its words are compared with the value's words)",
                "match.value-words")
        out["value_words"] = words
        present = m.get("present", False)
        if not isinstance(present, bool):
            err("must be true or false", "match.present")
        out["present"] = present
        # other settings of the file may still decide whether the key's presence counts (an mmcv `fp16` section
        # holds a `loss_scale`, a DeepSpeed one an `enabled`)
        if present and ("values" in m or words):
            err("a `present` matcher reports the key whatever it holds: it takes no values", "match.present")
        vals = m.get("values", [] if words or present else None)
        if not isinstance(vals, list) or not (vals or words or present) or not all(
                isinstance(v, str) and v for v in vals):
            err("a setting matcher needs values = [globs of the values that are findings]", "match.values")
        out["values"] = tuple(v.lower() for v in vals)
        ws = m.get("with-setting", {})
        if not isinstance(ws, dict) or not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v)
                                               for v in ws.values()):
            err("must be a table of key path = [value globs]", "match.with-setting")
        out["with_setting"] = tuple((k, tuple(x.lower() for x in v)) for k, v in ws.items())
        wo = m.get("without-setting", {})
        if not isinstance(wo, dict) or not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v)
                                               for v in wo.values()):
            err("must be a table of key path = [value globs]", "match.without-setting")
        out["without_setting"] = tuple((k, tuple(x.lower() for x in v)) for k, v in wo.items())
        role = m.get("role", "config")
        if role not in ("config", "ci", "container", "deepspeed"):
            err("role must be \"config\" (training configs), \"ci\" (CI workflows), \"container\" (container "
                "build definitions such as cog.yaml) or \"deepspeed\" (DeepSpeed engine configs)", "match.role")
        out["role"] = role
    return out
