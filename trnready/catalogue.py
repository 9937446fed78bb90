"""Load and validate a TOML catalogue (`blockers.toml` and team extensions).

Every mistake in a catalogue is reported as one `CatalogueError` naming the
file, the line where it can be found, the entry id and the key, so a team
editing its own rules never sees a traceback.
"""
from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

from .filekinds import KIND_NAMES
from .model import CONFIDENCES, SEVERITIES, ArgPredicate, Example, Matcher, Rule
from .rewrite import parse_rewrites

# The finding vocabulary (../shared/reference/categories.md); reports use it verbatim.
CATEGORIES = (
    "dynamic-shapes", "compile-options", "float64", "int64", "sparse", "nested-tensor",
    "forward-ad", "attention-mask", "per-channel-quant", "upsampling", "fp8-torchao",
    "flex-attention", "legacy-neuron", "cuda-device", "cuda-amp", "cuda-backend-flags",
    "distributed-backend", "cuda-library", "custom-cuda-kernel", "environment",
)

MATCH_KINDS = ("call", "method", "reference", "import", "decorator", "device", "keyword", "env", "line",
               "requirement", "python", "file", "setting", "meta")
# `meta = [CHECK]`: trnready's own checks (TRN9xx), produced by trnready/suppress.py, not by the matcher engine.
META_CHECKS = ("suppression-without-reason", "unused-suppression")
PREDICATE_OPS = ("equals", "not-equals", "in", "not-in", "is-none", "is-not-none", "present", "absent", "matches")
# File kinds a non-Python example or a line matcher may name.
FILE_KINDS = KIND_NAMES  # the table is trnready/filekinds.py

_RULE_KEYS = {"id", "name", "category", "severity", "title", "why", "fix", "source", "docs",
              "match", "examples", "corrected", "suggestion", "rewrite"}
_REQUIRED = ("id", "name", "category", "severity", "title", "why", "fix", "source", "docs", "match", "examples")
_MATCH_KEYS = set(MATCH_KINDS) | {"args", "confidence", "message", "files", "version", "version-shape",
                                  "unless-mentioned", "mentioned-in", "scope", "unless-parameter",
                                  "unless-value", "writes-only", "stores",
                                  "unless-guarded", "unless-cuda-checked", "values", "with-setting", "role"}
_PRED_KEYS = {"name", "position", "default"} | set(PREDICATE_OPS)
_TOP_KEYS = {"catalogue", "aliases", "device", "methods", "rule"}
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
    method_not_on: tuple[str, ...] = ()  # libraries whose values' methods are never torch methods
    paths: tuple[str, ...] = ()

    def by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.rules}


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


def load_catalogue(path: Path | str | None = None, extra: list[Path | str] | None = None) -> Catalogue:
    paths = [Path(path) if path else default_catalogue_path()] + [Path(p) for p in (extra or [])]
    rules: list[Rule] = []
    aliases: dict[str, str] = {}
    device_keywords: list[str] = []
    device_positions: dict[str, int] = {}
    method_not_on: list[str] = []
    version = ""
    digest = hashlib.sha256()
    seen: dict[str, str] = {}
    for i, p in enumerate(paths):
        try:
            raw = p.read_bytes()
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
        parsed = _parse(data, str(p), loc, primary=(i == 0))
        if i == 0:
            version = parsed["version"]
        for k, v in parsed["aliases"].items():
            aliases[k] = v
        for k in parsed["device_keywords"]:
            if k not in device_keywords:
                device_keywords.append(k)
        device_positions.update(parsed["device_positions"])
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
                     method_not_on=tuple(method_not_on), paths=tuple(str(p) for p in paths))


def _parse(data: dict, path: str, loc: _Locator, primary: bool) -> dict:
    def err(msg, entry=None, key=None):
        raise CatalogueError(path, msg, line=loc.line_of(entry, key), key=key, entry=entry)

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
        if k not in ("keywords", "positions"):
            err("unknown key (expected keywords, positions)", key=f"device.{k}")
    dk = device.get("keywords", [])
    dp = device.get("positions", {})
    if not isinstance(dk, list) or not all(isinstance(x, str) for x in dk):
        err("must be a list of keyword names", key="device.keywords")
    if not isinstance(dp, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dp.values()):
        err("must map callee names (or .method) to argument positions", key="device.positions")
    methods = data.get("methods", {})
    if not isinstance(methods, dict):
        err("must be a table", key="methods")
    for k in methods:
        if k != "not-on":
            err("unknown key (expected not-on)", key=f"methods.{k}")
    not_on = methods.get("not-on", [])
    if not isinstance(not_on, list) or not all(isinstance(x, str) and x for x in not_on):
        err("must be a list of module names", key="methods.not-on")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        err("must be an array of tables ([[rule]])", key="rule")
    rules = [_parse_rule(r, n, err) for n, r in enumerate(raw_rules)]
    return {"version": version, "aliases": aliases, "device_keywords": dk, "device_positions": dp,
            "method_not_on": not_on, "rules": rules}


def _parse_rule(r: dict, n: int, err) -> Rule:
    rid = r.get("id") if isinstance(r.get("id"), str) else None
    entry = rid or f"rule #{n + 1}"
    if not rid:
        err("every rule needs a string id", entry=None, key=f"rule[{n}].id")
    if not _ID.match(rid):
        err("id must look like TRN123 (letters then digits)", entry=rid, key="id")
    for k in r:
        if k not in _RULE_KEYS:
            err(f"unknown key (expected one of {', '.join(sorted(_RULE_KEYS))})", entry=rid, key=k)
    if "category" in r and r["category"] not in CATEGORIES:
        err(f"unknown category {r['category']!r} (see categories.md)", entry=rid, key="category")
    if "severity" in r and r["severity"] not in SEVERITIES:
        err(f"unknown severity {r['severity']!r} (expected blocker, change or advisory)", entry=rid, key="severity")
    for k in _REQUIRED:
        if k not in r:
            err("missing required key", entry=rid, key=k)
    for k in ("name", "title", "why", "fix", "source", "docs"):
        if not isinstance(r[k], str) or not r[k].strip():
            err("must be a non-empty string", entry=rid, key=k)
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
    return Rule(id=rid, name=r["name"], category=r["category"], severity=r["severity"], title=r["title"].strip(),
                why=r["why"].strip(), fix=r["fix"].strip(), source=r["source"].strip(), docs=r["docs"].strip(),
                matchers=matchers, hits=hits, cleans=cleans, corrected=r.get("corrected"),
                fix_is_suggestion=r.get("suggestion", False), rewrites=rewrites)


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
            regex = re.compile("|".join(f"(?:{x})" for x in names))
        except re.error as e:
            err(f"bad regular expression: {e}", entry=rid, key="match.line")
    elif kind == "meta":
        for x in names:
            if x not in META_CHECKS:
                err(f"unknown meta check {x!r} (expected one of {', '.join(META_CHECKS)})", entry=rid, key="match.meta")
    elif kind in ("call", "method", "reference", "import", "decorator", "keyword", "env"):
        for x in names:
            # call names may glob: "transformers.*.from_pretrained", "transformers.*ForCausalLM.from_pretrained"
            ok = r"[A-Za-z_][\w]*(\.[\w*]+)*" if kind == "call" else r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*"
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
    unless_parameter = m.get("unless-parameter", False)
    if not isinstance(unless_parameter, bool):
        err("must be true or false", entry=rid, key="match.unless-parameter")
    if unless_parameter and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.unless-parameter")
    unless_value = m.get("unless-value", [])
    if not isinstance(unless_value, list) or not all(isinstance(v, str) for v in unless_value):
        err("must be a list of strings", entry=rid, key="match.unless-value")
    if unless_value and kind != "env":
        err("applies to env matchers only", entry=rid, key="match.unless-value")
    writes_only = m.get("writes-only", False)
    if not isinstance(writes_only, bool):
        err("must be true or false", entry=rid, key="match.writes-only")
    if writes_only and kind != "reference":
        err("applies to reference matchers only", entry=rid, key="match.writes-only")
    unless_guarded = m.get("unless-guarded", False)
    if not isinstance(unless_guarded, bool):
        err("must be true or false", entry=rid, key="match.unless-guarded")
    if unless_guarded and kind != "reference":
        err("applies to reference matchers only", entry=rid, key="match.unless-guarded")
    unless_cuda_checked = m.get("unless-cuda-checked", False)
    if not isinstance(unless_cuda_checked, bool):
        err("must be true or false", entry=rid, key="match.unless-cuda-checked")
    if unless_cuda_checked and kind != "reference":
        err("applies to reference matchers only", entry=rid, key="match.unless-cuda-checked")
    stores = m.get("stores", False)
    if not isinstance(stores, bool):
        err("must be true or false", entry=rid, key="match.stores")
    if stores and kind != "keyword":
        err("applies to keyword matchers only", entry=rid, key="match.stores")
    from .matcher_keys import parse_surface_keys
    extra = parse_surface_keys(kind, m, lambda msg, key: err(msg, entry=rid, key=key))
    return Matcher(kind=kind, names=tuple(names), args=preds, confidence=confidence, files=tuple(files),
                   regex=regex, message=message, unless_parameter=unless_parameter,
                   unless_value=tuple(unless_value), writes_only=writes_only, stores=stores,
                   unless_guarded=unless_guarded, unless_cuda_checked=unless_cuda_checked, **extra)


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
        values = ()
    elif op in ("in", "not-in"):
        if not isinstance(val, list) or not val:
            err("must be a non-empty list", entry=rid, key=f"match.args.{op}")
        values = tuple(val)
    elif op == "matches":
        try:
            values = (re.compile(val),)
        except (re.error, TypeError) as e:
            err(f"bad regular expression: {e}", entry=rid, key="match.args.matches")
    else:
        values = (val,)
    has_default = "default" in a
    return ArgPredicate(name=name, position=pos, op=op, values=values, default=a.get("default"),
                        has_default=has_default)
