"""Load and validate a TOML catalogue (`blockers.toml` and team extensions).

Every mistake in a catalogue is reported as one `CatalogueError` naming the
file, the line where it can be found, the entry id and the key, so a team
editing its own rules never sees a traceback.
"""
from __future__ import annotations

import hashlib
import re
import sys
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, NoReturn

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

from .filekinds import KIND_NAMES
from .linear_re import LINEAR, PatternError, compile_pattern
from .model import CONFIDENCES, EFFORTS, PHASES, SEVERITIES, ArgPredicate, Example, Matcher, Rule, Source, format_sources
from .read import SETTINGS_MAX_BYTES, read_regular
from .rewrite import parse_rewrites

MATCH_KINDS = ("call", "method", "reference", "import", "decorator", "device", "keyword", "env", "line",
               "requirement", "python", "file", "setting", "meta", "subscript", "operator", "syntax")
# `subscript = [SHAPE]`: indexing whose result size depends on the data (trnready/masks.py).
SUBSCRIPT_SHAPES = ("boolean-mask", "mask-named", "mask-write", "mask-pair", "tensor-slice")
# `operator = [SHAPE]`: a binary operator whose operands need a property (trnready/shifts.py).
OPERATOR_SHAPES = ("int64-wide-shift",)
# `syntax = [FORM]`: source the Python reader had to rewrite to parse it at all (trnready/readers/python.py).
# `cuda-tensor-assert`: an `assert` that a tensor is on CUDA (`assert grad_output.is_cuda`), false on Neuron.
# `cuda-only-host-copy`: `if x.is_cuda: x = x.cpu()`, a copy to the host made only for CUDA tensors.
SYNTAX_FORMS = ("python2-statement", "cuda-tensor-assert", "cuda-only-host-copy")
# `meta = [CHECK]`: trnready's own checks (TRN9xx), produced by trnready/suppress.py, not by the matcher engine.
META_CHECKS = ("suppression-without-reason", "unused-suppression")
PREDICATE_OPS = ("equals", "not-equals", "in", "not-in", "is-none", "is-not-none", "present", "absent", "matches",
                 "at-least", "lacks")
# File kinds a non-Python example or a line matcher may name.
NON_CODE_KINDS = frozenset({"requirement", "python", "line", "file", "setting"})  # matchers of non-Python inputs
FILE_KINDS = KIND_NAMES  # the table is trnready/filekinds.py

_RULE_KEYS = {"id", "name", "category", "severity", "title", "why", "fix", "source", "docs",
              "match", "examples", "corrected", "suggestion", "rewrite", "phase", "effort"}
_REQUIRED = ("id", "name", "category", "severity", "title", "why", "fix", "source", "docs", "match", "examples")
# Matcher keys of earlier releases, each now a context predicate (trnready/context/). Still accepted in
# user catalogues, with a warning, until the release after 2026.11 (docs/predicates.md).
DEPRECATED_KEYS = {"unless-parameter": "own-parameter", "writes-only": "read-not-write",
                   "unless-guarded": "optional-import", "unless-cuda-checked": "cuda-checked",
                   "unless-value": "other-platform-value"}
_MATCH_KEYS = set(MATCH_KINDS) | {"args", "confidence", "message", "files", "version", "version-shape",
                                  "unless-mentioned", "mentioned-in", "unless-capped", "scope", "stores", "defaults", "compared", "asserted", "calls",
                                  "unless",
                                  "values", "value-words", "with-setting", "without-setting", "role", "present",
                                  "everywhere"} | set(DEPRECATED_KEYS)
_PRED_KEYS = {"name", "position", "default"} | set(PREDICATE_OPS)
_TOP_KEYS = {"catalogue", "aliases", "device", "methods", "categories", "context", "rule", "plan"}
_CONTEXT_KEYS = {"everywhere", "values"}
_ID_RANGE = re.compile(r"^TRN(\d{2})x$")


class CatalogueDeprecation(UserWarning):
    """A catalogue spelling that still works but will be removed; the CLI prints it as a warning."""
_ID = re.compile(r"^[A-Z]{2,6}[0-9]{3,4}$")


class CatalogueError(Exception):
    def __init__(self, path: str, message: str, line: int | None = None, key: str | None = None,
                 entry: str | None = None):
        self.path, self.line, self.key, self.entry = path, line, key, entry
        where = path + (f":{line}" if line else "")
        bits = [f"{where}: "]
        if entry:
            bits.append(f"entry {entry}: ")
        if key:
            bits.append(f"key '{key}': ")
        bits.append(message)
        super().__init__("".join(bits))


@dataclass
class Catalogue:
    rules: list[Rule]
    version: str
    sha256: str
    aliases: dict[str, str] = field(default_factory=dict)
    device_keywords: tuple[str, ...] = ()
    device_positions: dict[str, int] = field(default_factory=dict)
    # the name of the parameter at a device position, where it is none of the device keywords (`torch.device(type=)`)
    device_parameters: dict[str, str] = field(default_factory=dict)
    method_not_on: tuple[str, ...] = ()  # libraries whose values' methods are never torch methods
    paths: tuple[str, ...] = ()
    plan_text: dict = field(default_factory=dict)  # [plan]: {"phases": {id: {title, advice}}, "efforts": {...}}
    everywhere: tuple[str, ...] = ()  # [context] everywhere: predicates applied to every rule's matchers
    categories: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> id blocks ("TRN10x", ...)
    context_values: dict[str, tuple] = field(default_factory=dict)  # [context.values]: data lists predicates read

    def by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.rules}

    @cached_property
    def manifest_rules(self) -> frozenset:
        """Ids of the rules none of whose matchers reads Python code (requirements, Python versions, lines,
        settings): in a Python file (setup.py) their findings are manifest entries, one per line."""
        return frozenset(r.id for r in self.rules if r.matchers and all(m.kind in NON_CODE_KINDS for m in r.matchers))


def default_catalogue_path() -> Path:
    """The catalogue shipped in the wheel, or the repository's own in a checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "blockers.toml"
    if packaged.is_file():
        return packaged
    return here.parent / "blockers.toml"


class _Locator:
    """Finds the line of an entry's key in the TOML text, for error messages."""

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def line_of(self, entry: str | None, key: str | None) -> int | None:
        start = 0
        if entry:
            pat = re.compile(r'^\s*id\s*=\s*["\']%s["\']' % re.escape(entry))
            for i, ln in enumerate(self.lines):
                if pat.match(ln):
                    start = i
                    break
            else:
                return None
        if not key:
            return start + 1
        leaf = key.split(".")[-1].split("[")[0]
        kpat = re.compile(r'^\s*(\[+[^\]]*\b%s\b[^\]]*\]+|"?%s"?\s*=)' % (re.escape(leaf), re.escape(leaf)))
        for i in range(start, len(self.lines)):
            if i > start and entry and re.match(r"^\s*\[\[rule\]\]", self.lines[i]):
                break
            if kpat.match(self.lines[i]) or (leaf in self.lines[i] and i > start):
                return i + 1
        return start + 1


def _is_builtin(p: Path) -> bool:
    try:
        return p.resolve() == default_catalogue_path().resolve()
    except OSError:
        return False


def load_catalogue(path: Path | str | None = None, extra: list[Path | str] | None = None) -> Catalogue:
    paths = [Path(path) if path else default_catalogue_path()] + [Path(p) for p in (extra or [])]
    rules: list[Rule] = []
    aliases: dict[str, str] = {}
    device_keywords: list[str] = []
    device_positions: dict[str, int] = {}
    device_parameters: dict[str, str] = {}
    method_not_on: list[str] = []
    categories: dict[str, tuple[str, ...]] = {}
    everywhere: list[str] = []
    context_values: dict[str, tuple] = {}
    version = ""
    plan_text: dict = {}
    digest = hashlib.sha256()
    seen: dict[str, str] = {}
    for i, p in enumerate(paths):
        try:
            raw = read_regular(p, SETTINGS_MAX_BYTES)
        except OSError as e:
            raise CatalogueError(str(p), f"cannot read catalogue: {e.strerror or e}") from None
        digest.update(raw)
        try:
            text = raw.decode("utf-8")
            data = tomllib.loads(text)
        except UnicodeDecodeError:
            raise CatalogueError(str(p), "catalogue is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as e:
            m = re.search(r"line (\d+)", str(e))
            raise CatalogueError(str(p), f"invalid TOML: {e}", line=int(m.group(1)) if m else None) from None
        loc = _Locator(text)
        if i == 0 and "categories" not in data:
            # A full catalogue of an earlier release, without [categories]: the built-in vocabulary applies.
            categories.update(_builtin()["categories"])
        if i == 0 and "context" not in data:
            # ... and the built-in context predicates and data, which earlier releases applied in the engine.
            everywhere.extend(_builtin()["everywhere"])
            context_values.update(_builtin()["values"])
        token = LINEAR.set(not (i == 0 and _is_builtin(p)))
        try:
            parsed = _parse(data, str(p), loc, primary=(i == 0), categories=categories)
        finally:
            LINEAR.reset(token)
        if i == 0:
            version = parsed["version"]
            plan_text = parsed["plan"]
        for k in parsed["everywhere"]:
            if k not in everywhere:
                everywhere.append(k)
        context_values.update(parsed["context_values"])
        for k, v in parsed["aliases"].items():
            aliases[k] = v
        for k in parsed["device_keywords"]:
            if k not in device_keywords:
                device_keywords.append(k)
        device_positions.update(parsed["device_positions"])
        device_parameters.update(parsed["device_parameters"])
        for k in parsed["method_not_on"]:
            if k not in method_not_on:
                method_not_on.append(k)
        for r in parsed["rules"]:
            if r.id in seen:
                raise CatalogueError(str(p), f"duplicate id (already defined in {seen[r.id]})",
                                     line=loc.line_of(r.id, "id"), key="id", entry=r.id)
            seen[r.id] = str(p)
            rules.append(r)
    return Catalogue(rules=rules, version=version, sha256=digest.hexdigest(), aliases=aliases,
                     device_keywords=tuple(device_keywords), device_positions=device_positions,
                     device_parameters=device_parameters,
                     method_not_on=tuple(method_not_on), paths=tuple(str(p) for p in paths), plan_text=plan_text,
                     categories=categories, everywhere=tuple(everywhere), context_values=context_values)


_BUILTIN: dict = {}


def _builtin() -> dict:
    """The [categories] and [context] tables of the shipped catalogue."""
    if not _BUILTIN:
        data = tomllib.loads(default_catalogue_path().read_text(encoding="utf-8"))
        ctx = data.get("context", {})
        _BUILTIN.update(categories={k: tuple(v) for k, v in data.get("categories", {}).items()},
                        everywhere=list(ctx.get("everywhere", [])),
                        values={k: tuple(v) for k, v in ctx.get("values", {}).items()})
    return _BUILTIN


def _parse(data: dict, path: str, loc: _Locator, primary: bool, categories: dict) -> dict:
    def err(msg, entry=None, key=None) -> NoReturn:
        raise CatalogueError(path, msg, line=loc.line_of(entry, key), key=key, entry=entry)

    def warn(msg, entry=None, key=None):
        warnings.warn(str(CatalogueError(path, msg, line=loc.line_of(entry, key), key=key, entry=entry)),
                      CatalogueDeprecation, stacklevel=2)
    err.warn = warn  # type: ignore[attr-defined]  # the same location format for deprecations, which do not stop loading

    for k in data:
        if k not in _TOP_KEYS:
            err(f"unknown top-level key (expected one of {', '.join(sorted(_TOP_KEYS))})", key=k)
    meta = data.get("catalogue", {})
    if not isinstance(meta, dict):
        err("must be a table", key="catalogue")
    for k in meta:
        if k not in ("version", "target", "name"):
            err("unknown key (expected version, target, name)", key=f"catalogue.{k}")
    version = meta.get("version", "")
    if primary and not isinstance(version, str) or (primary and not version):
        err("the catalogue needs a version string", key="catalogue.version")
    aliases = data.get("aliases", {})
    if not isinstance(aliases, dict) or not all(isinstance(v, str) for v in aliases.values()):
        err("must map dotted names to dotted names", key="aliases")
    device = data.get("device", {})
    if not isinstance(device, dict):
        err("must be a table", key="device")
    for k in device:
        if k not in ("keywords", "positions", "parameters"):
            err("unknown key (expected keywords, positions, parameters)", key=f"device.{k}")
    dk = device.get("keywords", [])
    dp = device.get("positions", {})
    if not isinstance(dk, list) or not all(isinstance(x, str) for x in dk):
        err("must be a list of keyword names", key="device.keywords")
    if not isinstance(dp, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dp.values()):
        err("must map callee names (or .method) to argument positions", key="device.positions")
    for k in dp if isinstance(dp, dict) else ():
        # a glob is `*` then the end of a callee's last name (`"*_device" = 0`); anything else would never match
        if "*" in k and not re.fullmatch(r"\*[A-Za-z0-9_]+", k):
            err(f"glob {k!r}: write `*` followed by the end of a callee name, such as \"*_device\"",
                key="device.positions")
    dn = device.get("parameters", {})
    if not isinstance(dn, dict) or not all(isinstance(v, str) and v.isidentifier() for v in dn.values()):
        err("must map callee names to the name of the parameter at their device position", key="device.parameters")
    methods = data.get("methods", {})
    if not isinstance(methods, dict):
        err("must be a table", key="methods")
    for k in methods:
        if k != "not-on":
            err("unknown key (expected not-on)", key=f"methods.{k}")
    not_on = methods.get("not-on", [])
    if not isinstance(not_on, list) or not all(isinstance(x, str) and x for x in not_on):
        err("must be a list of module names", key="methods.not-on")
    cats = data.get("categories", {})
    if not isinstance(cats, dict):
        err("must be a table mapping category names to id blocks", key="categories")
    for name, blocks in cats.items():
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
            err("a category name is lower-case words joined by '-'", key=f"categories.{name}")
        if not isinstance(blocks, list) or not all(isinstance(b, str) and _ID_RANGE.match(b) for b in blocks):
            err('must be a list of id blocks such as "TRN10x"', key=f"categories.{name}")
        categories[name] = tuple(blocks)
    everywhere, context_values = _parse_context(data.get("context", {}), err)
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        err("must be an array of tables ([[rule]])", key="rule")
    rules = [_parse_rule(r, n, err, categories) for n, r in enumerate(raw_rules)]
    return {"version": version, "aliases": aliases, "device_keywords": dk, "device_positions": dp, "device_parameters": dn,
            "method_not_on": not_on, "rules": rules, "everywhere": everywhere, "context_values": context_values,
            "plan": _parse_plan(data.get("plan", {}), err)}


def _parse_plan(plan, err) -> dict:
    """[plan.phases.ID] / [plan.efforts.ID] tables of title and advice; ids are the fixed vocabulary."""
    if not isinstance(plan, dict):
        err("must be a table", key="plan")
    out: dict = {"phases": {}, "efforts": {}}
    for group, known in (("phases", PHASES), ("efforts", EFFORTS)):
        table = plan.get(group, {})
        if not isinstance(table, dict):
            err("must be a table", key=f"plan.{group}")
        for pid, body in table.items():
            if pid not in known:
                err(f"unknown id (expected one of {', '.join(known)})", key=f"plan.{group}.{pid}")
            if not isinstance(body, dict) or set(body) - {"title", "advice"} or \
                    not all(isinstance(body.get(k), str) and body.get(k) for k in ("title", "advice")):
                err("needs exactly a non-empty title and advice", key=f"plan.{group}.{pid}")
            out[group][pid] = {"title": body["title"], "advice": " ".join(body["advice"].split())}
    for k in plan:
        if k not in ("phases", "efforts"):
            err("unknown key (expected phases, efforts)", key=f"plan.{k}")
    return out


def _parse_context(ctx, err) -> tuple[list, dict]:
    from . import context
    if not isinstance(ctx, dict):
        err("must be a table", key="context")
    for k in ctx:
        if k not in _CONTEXT_KEYS:
            err(f"unknown key (expected one of {', '.join(sorted(_CONTEXT_KEYS))})", key=f"context.{k}")
    everywhere = ctx.get("everywhere", [])
    if not isinstance(everywhere, list) or not all(isinstance(x, str) for x in everywhere):
        err("must be a list of context predicate names", key="context.everywhere")
    for x in everywhere:
        if context.get(x) is None:
            err(f"unknown context predicate {x!r} (known: {', '.join(context.names())})", key="context.everywhere")
    values = ctx.get("values", {})
    if not isinstance(values, dict):
        err("must be a table of lists", key="context.values")
    for k, v in values.items():
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            err("must be a list of strings", key=f"context.values.{k}")
        if k in _COUNT_VALUES and (len(v) != 1 or not v[0].isdigit() or int(v[0]) < 1):
            err("must be one positive whole number, as a string", key=f"context.values.{k}")
    return everywhere, {k: tuple(v) for k, v in values.items()}


# [context.values] keys holding one count (`same-setting-min-files = ["3"]`)
_COUNT_VALUES = frozenset({"same-setting-min-files", "step-reach-depth", "step-reach-names", "step-reach-holders",
                           "step-reach-files"})


def _parse_rule(r: dict, n: int, err: Callable[..., NoReturn], categories: dict) -> Rule:
    rid = r.get("id") if isinstance(r.get("id"), str) else None
    if not rid:
        err("every rule needs a string id", entry=None, key=f"rule[{n}].id")
    if not _ID.match(rid):
        err("id must look like TRN123 (letters then digits)", entry=rid, key="id")
    for k in r:
        if k not in _RULE_KEYS:
            err(f"unknown key (expected one of {', '.join(sorted(_RULE_KEYS))})", entry=rid, key=k)
    if "category" in r and r["category"] not in categories:
        err(f"unknown category {r['category']!r} (expected one of the [categories] table)", entry=rid,
            key="category")
    if "category" in r and re.fullmatch(r"TRN(1\d\d|2\d\d|3[0-4]\d)", rid) and rid[:5] + "x" not in categories[r["category"]]:
        # Python API rules take their id from their category's block, so an id says what it is about.
        err(f"id {rid} lies outside the blocks of category {r['category']} "
            f"({', '.join(categories[r['category']]) or 'none'})", entry=rid, key="id")
    if "severity" in r and r["severity"] not in SEVERITIES:
        err(f"unknown severity {r['severity']!r} (expected blocker, change or advisory)", entry=rid, key="severity")
    for k in _REQUIRED:
        if k not in r:
            err("missing required key", entry=rid, key=k)
    for k in ("name", "title", "why", "fix", "docs"):
        if not isinstance(r[k], str) or not r[k].strip():
            err("must be a non-empty string", entry=rid, key=k)
    sources = _parse_sources(r["source"], rid, err)
    if "corrected" in r and not isinstance(r["corrected"], str):
        err("must be a string", entry=rid, key="corrected")
    if "suggestion" in r and not isinstance(r["suggestion"], bool):
        err("must be true or false", entry=rid, key="suggestion")
    matches = r["match"]
    if isinstance(matches, dict):
        matches = [matches]
    if not isinstance(matches, list) or not matches:
        err("needs at least one [[rule.match]] table", entry=rid, key="match")
    matchers = tuple(_parse_match(m, rid, err) for m in matches)
    ex = r["examples"]
    if not isinstance(ex, dict):
        err("must be a table with hit and clean lists", entry=rid, key="examples")
    for k in ex:
        if k not in ("hit", "clean"):
            err("unknown key (expected hit, clean)", entry=rid, key=f"examples.{k}")
    hits = _parse_examples(ex.get("hit"), rid, "examples.hit", err)
    cleans = _parse_examples(ex.get("clean"), rid, "examples.clean", err)
    rewrites = parse_rewrites(r["rewrite"], rid, r["severity"], err) if "rewrite" in r else ()
    phase, effort = _plan_keys(r, rid, bool(rewrites), err)
    return Rule(id=rid, name=r["name"], category=r["category"], severity=r["severity"], title=r["title"].strip(),
                why=_paragraph(r["why"]), fix=_paragraph(r["fix"]), source=format_sources(sources), docs=r["docs"].strip(),
                matchers=matchers, hits=hits, cleans=cleans, corrected=r.get("corrected"),
                fix_is_suggestion=r.get("suggestion", False), rewrites=rewrites, sources=sources, phase=phase,
                effort=effort)


def _paragraph(text: str) -> str:
    """why/fix are read as one paragraph: line breaks written to wrap the TOML source are not part of
    the text (GitHub annotations would show them as %0A, SARIF viewers as hard breaks)."""
    return " ".join(text.split())


_URL = re.compile(r"https?://[^\s<>\"]+")


def _parse_sources(items, rid, err) -> tuple[Source, ...]:
    """`source = [{ title = "...", url = "https://..." }, ...]`: public documents a reader can open."""
    shape = 'must be a list of { title = "...", url = "https://..." } tables naming public documents'
    if isinstance(items, str) and "seeds/" in items:
        err(f"cites an internal seeds/ file; {shape}", entry=rid, key="source")
    if not isinstance(items, list) or not items:
        err(shape, entry=rid, key="source")
    out = []
    for it in items:
        if not isinstance(it, dict) or set(it) != {"title", "url"}:
            err(shape, entry=rid, key="source")
        title, url = it["title"], it["url"]
        if not isinstance(title, str) or not title.strip() or not isinstance(url, str):
            err(shape, entry=rid, key="source")
        if "seeds/" in title or "seeds/" in url:
            err("cites an internal seeds/ file: cite the public document (title and URL) that states the fact",
                entry=rid, key="source")
        if not _URL.fullmatch(url.strip()):
            err(f"url {url!r} is not a public http(s) URL", entry=rid, key="source")
        out.append(Source(title=" ".join(title.split()), url=url.strip()))
    return tuple(out)


def _plan_keys(r: dict, rid: str, has_rewrite: bool, err) -> tuple[str, str]:
    """phase/effort are optional for team catalogues: eager-port, and automatic only when a rewrite exists."""
    phase = r.get("phase", "eager-port")
    if phase not in PHASES:
        err(f"unknown phase {phase!r} (expected one of {', '.join(PHASES)})", entry=rid, key="phase")
    effort = r.get("effort", "automatic" if has_rewrite else "local-edit")
    if effort not in EFFORTS:
        err(f"unknown effort {effort!r} (expected one of {', '.join(EFFORTS)})", entry=rid, key="effort")
    if effort == "automatic" and not has_rewrite:
        err("effort 'automatic' needs a [[rule.rewrite]] that trnready fix applies", entry=rid, key="effort")
    return phase, effort


def _parse_examples(items, rid, key, err) -> tuple[Example, ...]:
    if not isinstance(items, list) or not items:
        err("needs at least one example", entry=rid, key=key)
    out = []
    for it in items:
        if isinstance(it, str):
            out.append(Example(code=it))
        elif isinstance(it, dict):
            if set(it) - {"code", "file"} or not isinstance(it.get("code"), str):
                err("an example is a string or a table {file = \"...\", code = \"...\"}", entry=rid, key=key)
            out.append(Example(code=it["code"], file=str(it.get("file", "example.py"))))
        else:
            err("an example is a string or a table {file, code}", entry=rid, key=key)
    return tuple(out)


def _parse_match(m, rid, err) -> Matcher:
    if not isinstance(m, dict):
        err("each match must be a table", entry=rid, key="match")
    for k in m:
        if k not in _MATCH_KEYS:
            err(f"unknown matcher key (expected one of {', '.join(sorted(_MATCH_KEYS))})", entry=rid, key=f"match.{k}")
    kinds = [k for k in MATCH_KINDS if k in m]
    if len(kinds) != 1:
        err(f"a match names exactly one kind of {', '.join(MATCH_KINDS)}", entry=rid, key="match")
    kind = kinds[0]
    names = m[kind]
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names or not all(isinstance(x, str) and x for x in names):
        err("must be a non-empty list of strings", entry=rid, key=f"match.{kind}")
    regex = None
    if kind == "line":
        try:
            regex = compile_pattern("|".join(f"(?:{x})" for x in names))
        except PatternError as e:
            err(f"bad regular expression: {e}", entry=rid, key="match.line")
    elif kind == "subscript":
        for x in names:
            if x not in SUBSCRIPT_SHAPES:
                err(f"unknown subscript shape {x!r} (expected one of {', '.join(SUBSCRIPT_SHAPES)})", entry=rid,
                    key="match.subscript")
    elif kind == "operator":
        for x in names:
            if x not in OPERATOR_SHAPES:
                err(f"unknown operator shape {x!r} (expected one of {', '.join(OPERATOR_SHAPES)})", entry=rid,
                    key="match.operator")
    elif kind == "syntax":
        for x in names:
            if x not in SYNTAX_FORMS:
                err(f"unknown syntax form {x!r} (expected one of {', '.join(SYNTAX_FORMS)})", entry=rid, key="match.syntax")
    elif kind == "meta":
        for x in names:
            if x not in META_CHECKS:
                err(f"unknown meta check {x!r} (expected one of {', '.join(META_CHECKS)})", entry=rid, key="match.meta")
    elif kind == "env":
        for x in names:
            # a variable's name, or a family of them by prefix ending in `_*` (`NCCL_*`)
            if not re.fullmatch(r"[A-Za-z_]\w*|[A-Za-z][A-Za-z0-9]*_\*", x):
                err(f"bad pattern {x!r}: expected an environment variable name, or a prefix ending in `_*`",
                    entry=rid, key="match.env")
    elif kind in ("call", "method", "reference", "import", "decorator", "keyword"):
        for x in names:
            # call names may glob: "transformers.*.from_pretrained", "transformers.*ForCausalLM.from_pretrained"
            ok = r"[A-Za-z_][\w]*(\.[\w*]+)*" if kind == "call" else r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*"
            if kind == "import" and re.fullmatch(r"\*_?[A-Za-z0-9]\w*", x):
                continue  # a module-name suffix (`*_cuda`): any module whose last part ends so (match.import_globs)
            if not re.fullmatch(ok, x) or "*" in x.rsplit(".", 1)[-1]:
                err(f"bad pattern {x!r}: expected a dotted Python name (a `*` glob only before the last part)",
                    entry=rid, key=f"match.{kind}")
    elif kind in ("python", "file", "setting"):
        from .matcher_keys import check_kind_names
        problem = check_kind_names(kind, names)
        if problem:
            err(problem, entry=rid, key=f"match.{kind}")
    confidence = m.get("confidence", "medium" if kind == "method" else "high")
    if confidence not in CONFIDENCES:
        err("confidence must be high or medium", entry=rid, key="match.confidence")
    files = m.get("files", [])
    if not isinstance(files, list) or any(f not in FILE_KINDS for f in files):
        err(f"files must list file kinds from {', '.join(FILE_KINDS)}", entry=rid, key="match.files")
    args = m.get("args", [])
    if not isinstance(args, list):
        err("must be a list of inline tables", entry=rid, key="match.args")
    if args and kind not in ("call", "method", "decorator", "keyword"):
        err("argument predicates apply to call, method, decorator and keyword matchers only", entry=rid,
            key="match.args")
    preds = tuple(_parse_pred(a, rid, err) for a in args)
    message = m.get("message", "")
    if not isinstance(message, str):
        err("must be a string", entry=rid, key="match.message")
    unless = _parse_unless(m, kind, rid, err)
    unless_value = m.get("unless-value", [])
    if not isinstance(unless_value, list) or not all(isinstance(v, str) for v in unless_value):
        err("must be a list of strings", entry=rid, key="match.unless-value")
    stores = m.get("stores", False)
    if not isinstance(stores, bool):
        err("must be true or false", entry=rid, key="match.stores")
    if stores and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.stores")
    defaults = m.get("defaults", False)
    if not isinstance(defaults, bool):
        err("must be true or false", entry=rid, key="match.defaults")
    if defaults and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.defaults")
    compared = m.get("compared", False)
    if not isinstance(compared, bool):
        err("must be true or false", entry=rid, key="match.compared")
    if compared and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.compared")
    asserted = m.get("asserted", False)
    if not isinstance(asserted, bool):
        err("must be true or false", entry=rid, key="match.asserted")
    if asserted and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.asserted")
    if asserted and (stores or defaults or compared):
        err("matches asserts only: not with stores, defaults or compared", entry=rid, key="match.asserted")
    calls = m.get("calls", True)
    if not isinstance(calls, bool):
        err("must be true or false", entry=rid, key="match.calls")
    if not calls and (kind != "keyword" or not (stores or defaults)):
        err("calls = false applies to keyword matchers with stores or defaults", entry=rid, key="match.calls")
    from .matcher_keys import parse_surface_keys
    extra = parse_surface_keys(kind, m, lambda msg, key: err(msg, entry=rid, key=key))
    if asserted:
        extra["asserted"] = True
    if not calls:
        extra["calls"] = False
    if "everywhere" in m:
        if not isinstance(m["everywhere"], bool):
            err("must be true or false", entry=rid, key="match.everywhere")
        extra["everywhere"] = m["everywhere"]
    return Matcher(kind=kind, names=tuple(names), args=preds, confidence=confidence, files=tuple(files),
                   regex=regex, message=message, unless=unless, unless_value=tuple(unless_value),
                   stores=stores, defaults=defaults, compared=compared, **extra)


def _parse_unless(m: dict, kind: str, rid: str, err: Callable[..., NoReturn]) -> tuple[str, ...]:
    """`unless = ["cuda-checked", ...]` plus the deprecated one-predicate keys, as predicate names."""
    from . import context
    names = m.get("unless", [])
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        err("must be a list of context predicate names", entry=rid, key="match.unless")
    names = list(names)
    for old, new in DEPRECATED_KEYS.items():
        if old not in m:
            continue
        v = m[old]
        if old == "unless-value":
            on = bool(v)
        elif not isinstance(v, bool):
            err("must be true or false", entry=rid, key=f"match.{old}")
        else:
            on = v
        err.warn(f"deprecated matcher key; write unless = [\"{new}\"] (docs/predicates.md)", entry=rid,  # type: ignore[attr-defined]
                 key=f"match.{old}")
        if on and new not in names:
            names.append(new)
    for x in names:
        p = context.get(x)
        if p is None:
            err(f"unknown context predicate {x!r} (known: {', '.join(context.names())})", entry=rid,
                key="match.unless")
        if kind not in p.kinds:
            err(f"context predicate {x!r} applies to {', '.join(p.kinds)} matchers only", entry=rid,
                key="match.unless")
    return tuple(names)


def _parse_pred(a, rid, err) -> ArgPredicate:
    if not isinstance(a, dict):
        err("each argument predicate is an inline table", entry=rid, key="match.args")
    for k in a:
        if k not in _PRED_KEYS:
            err(f"unknown predicate key (expected name, position, default or one of {', '.join(PREDICATE_OPS)})",
                entry=rid, key=f"match.args.{k}")
    name, pos = a.get("name"), a.get("position")
    if name is None and pos is None:
        err("a predicate needs an argument name or position", entry=rid, key="match.args")
    if name is not None and not isinstance(name, str):
        err("must be a string", entry=rid, key="match.args.name")
    if pos is not None and (not isinstance(pos, int) or isinstance(pos, bool) or pos < 0):
        err("must be a non-negative integer", entry=rid, key="match.args.position")
    ops = [k for k in PREDICATE_OPS if k in a]
    if len(ops) != 1:
        err(f"a predicate has exactly one operator of {', '.join(PREDICATE_OPS)}", entry=rid, key="match.args")
    op = ops[0]
    val = a[op]
    if op in ("is-none", "is-not-none", "present", "absent"):
        if val is not True:
            err("must be true", entry=rid, key=f"match.args.{op}")
        values: tuple = ()
    elif op in ("in", "not-in", "lacks"):
        if not isinstance(val, list) or not val:
            err("must be a non-empty list", entry=rid, key=f"match.args.{op}")
        values = tuple(val)
    elif op == "at-least":
        if not isinstance(val, int) or isinstance(val, bool):
            err("must be an integer", entry=rid, key="match.args.at-least")
        values = (val,)
    elif op == "matches":
        try:
            values = (compile_pattern(val),)
        except PatternError as e:
            err(f"bad regular expression: {e}", entry=rid, key="match.args.matches")
    else:
        values = (val,)
    has_default = "default" in a
    return ArgPredicate(name=name, position=pos, op=op, values=values, default=a.get("default"),
                        has_default=has_default)
