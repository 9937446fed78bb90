"""Scan settings: one frozen Config built from CLI flags and a config file.

Config files: `[tool.trnready]` in pyproject.toml, or top-level keys in a
trnready.toml, found by walking up from the scanned path (the first directory
holding one wins; trnready.toml before pyproject.toml in the same directory).
"""
from __future__ import annotations

import difflib
import fnmatch
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .model import CONFIDENCES, SEVERITIES, Rule
from .scope import DEFAULT_GATE_SCOPES, SCOPES
from .read import DEFAULT_MAX_BYTES, MAX_FILE_SIZE_LIMIT, SETTINGS_MAX_BYTES, read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

FAIL_ON = ("blocker", "change", "advisory", "never")
CONFIG_FILES = ("trnready.toml", "pyproject.toml")


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
    # (glob, selectors) pairs; globs are relative to `base_dir` (the config file's directory)
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (rule id, severity) pairs: findings of that rule carry this severity
    severity: tuple[tuple[str, str], ...] = ()
    suppressions: bool = True  # False: audit mode, every `# trnready: ignore` is ignored
    show_guarded: bool = False  # list findings in code that never runs on Neuron (marked guarded, never counted)
    base_dir: str | None = None  # where config-file globs are anchored (None: the scan root)
    config_path: str | None = None
    only_files: frozenset[str] | None = None  # --changed-since: resolved paths to keep
    # (glob, scope) pairs from `[scopes]`, tried before the path conventions of trnready/scope.py
    scopes: tuple[tuple[str, str], ...] = ()
    gate_scopes: tuple[str, ...] = DEFAULT_GATE_SCOPES  # what the verdict and the exit code count
    gate_min_confidence: str = "medium"  # "high": medium-confidence findings are listed, not counted
    # Fold repeats into one finding per thing (postprocess.one_per_thing). `trnready fix` turns it off:
    # every place needs its own edit.
    one_per_thing: bool = True

    def __post_init__(self):
        # `./tests`, `tests/` and `tests` name the same folder; discovery compares plain relative paths.
        object.__setattr__(self, "exclude", tuple(normalise_glob(p) for p in self.exclude if normalise_glob(p)))


class ConfigError(Exception):
    """A config file problem: `file:line: key 'K': message` (exit code 2)."""

    def __init__(self, path, message: str, line: int | None = None, key: str | None = None):
        where = str(path) + (f":{line}" if line else "")
        super().__init__(f"{where}: " + (f"key '{key}': " if key else "") + message)


def normalise_glob(pattern: str) -> str:
    """`./tests/` -> `tests`: the form path globs are compared in (POSIX, relative, no trailing slash)."""
    p = pattern.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:].lstrip("/") if p[2:3] == "/" else p[2:]
    p = p.rstrip("/")
    return "" if p == "." else p


class SelectorError(ValueError):
    """A --select/--ignore value that names no rule, id prefix or category."""


def selector_known(sel: str, rules) -> bool:
    return any(selector_matches_id(sel, r.id, r.category) for r in rules)


def closest_selector(sel: str, rules) -> str | None:
    """The valid selector nearest to a mistyped one (cuda_device -> cuda-device, TRN99 -> TRN099)."""
    s = sel.strip()
    categories = sorted({r.category for r in rules})
    ids = sorted(r.id for r in rules)
    # Categories are compared case-insensitively with `_` and space read as `-`: those are the usual slips.
    folded = re.sub(r"[_\s]+", "-", s.lower())
    if folded in categories:
        return folded
    if re.match(r"[A-Za-z]+\d", s):  # looks like a rule id (TRN24, trn2420)
        match = difflib.get_close_matches(s.upper(), ids, n=1, cutoff=0.6)
    else:
        match = difflib.get_close_matches(folded, categories, n=1, cutoff=0.6)
    return match[0] if match else None


def unknown_selector_message(sel: str, rules) -> str:
    hint = closest_selector(sel, rules)
    return (f"unknown rule selector {sel!r}" + (f"; did you mean {hint}?" if hint
                                                else " (see `trnready rules` for ids and categories)"))


def check_selectors(selectors, rules) -> None:
    """Raise SelectorError for the first selector that matches no rule."""
    for sel in selectors:
        if not selector_known(sel, rules):
            raise SelectorError(unknown_selector_message(sel, rules))


def selector_matches(sel: str, rule: Rule) -> bool:
    """A selector is a rule id, an id prefix (TRN1, TRN), a category, or ALL."""
    return selector_matches_id(sel, rule.id, rule.category)


def selector_matches_id(sel: str, rule_id: str, category: str) -> bool:
    sel = sel.strip()
    if not sel:
        return False
    if sel.upper() == "ALL":
        return True
    if sel == category:
        return True
    return rule_id.startswith(sel.upper())


def select_rules(rules: list[Rule], select: tuple[str, ...], ignore: tuple[str, ...]) -> list[Rule]:
    """The rules `select` keeps and `ignore` does not drop. A selector matching no rule, or a selection
    that keeps nothing, raises SelectorError: a scan that checks nothing must never look clean."""
    check_selectors(select, rules)
    check_selectors(ignore, rules)
    out = []
    for r in rules:
        if select and not any(selector_matches(s, r) for s in select):
            continue
        if any(selector_matches(s, r) for s in ignore):
            continue
        out.append(r)
    if rules and not out:
        raise SelectorError("no rules left to check: " + _describe_selection(select, ignore))
    return out


def _describe_selection(select, ignore) -> str:
    parts = []
    if select:
        parts.append("select " + ",".join(select))
    if ignore:
        parts.append("ignore " + ",".join(ignore))
    return " with ".join(parts) + " selects no rule"


def path_matches(rel: str, pattern: str) -> bool:
    """Glob match as for --exclude: the whole relative path, its file name, or a directory prefix."""
    name = rel.rsplit("/", 1)[-1]
    pattern = normalise_glob(pattern)
    return (fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(name, pattern)
            or rel.startswith(pattern.rstrip("/") + "/"))


def scope_of(rel: str, root, config: Config) -> str:
    """The scope of the file at `rel` (relative to the scan root): `[scopes]` globs first (relative to the
    config file's directory, or to the scan root), then the path conventions."""
    from .scope import classify

    if config.scopes:
        rels = [rel]
        if config.base_dir and root is not None:
            try:
                rels.append((Path(root).absolute() / rel).relative_to(Path(config.base_dir)).as_posix())
            except ValueError:
                pass
        for glob, sc in config.scopes:
            if any(path_matches(r, glob) for r in rels):
                return sc
    return classify(rel)


def drop_per_file_ignores(findings: list, root: Path, config: Config) -> list:
    """Findings minus those a `per-file-ignores` entry turns off for their file."""
    if not findings:
        return findings
    rel = findings[0].path
    rels = [rel]
    if config.base_dir:
        try:
            other = (Path(root).absolute() / rel).relative_to(Path(config.base_dir)).as_posix()
            rels.append(other)
        except ValueError:
            pass
    sels = [s for pat, selectors in config.per_file_ignores if any(path_matches(r, pat) for r in rels)
            for s in selectors]
    if not sels:
        return findings
    return [f for f in findings if not any(selector_matches_id(s, f.rule, f.category) for s in sels)]


# -- config files -------------------------------------------------------------

def _str_list(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# key -> (check, description of the expected type)
_KEYS = {
    "select": (_str_list, "a list of rule ids, id prefixes or categories"),
    "ignore": (_str_list, "a list of rule ids, id prefixes or categories"),
    "exclude": (_str_list, "a list of glob patterns"),
    "per-file-ignores": (lambda v: isinstance(v, dict) and all(_str_list(x) for x in v.values()),
                         "a table of glob = [selectors]"),
    "fail-on": (lambda v: v in FAIL_ON, "one of " + ", ".join(FAIL_ON)),
    "severity": (lambda v: isinstance(v, dict) and all(x in SEVERITIES for x in v.values()),
                 "a table of RULE = \"blocker\" | \"change\" | \"advisory\""),
    "extend-catalogue": (_str_list, "a list of catalogue file paths"),
    "catalogue": (lambda v: isinstance(v, str) and bool(v), "a catalogue file path"),
    "max-file-size": (lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_FILE_SIZE_LIMIT,
                      f"a positive number of bytes, at most {MAX_FILE_SIZE_LIMIT:,} (1 GiB)"),
    "respect-gitignore": (lambda v: isinstance(v, bool), "true or false"),
    "show-guarded": (lambda v: isinstance(v, bool), "true or false"),
    "scopes": (lambda v: isinstance(v, dict) and all(x in SCOPES for x in v.values()),
               "a table of glob = scope (" + ", ".join(SCOPES) + ")"),
    "gate-scopes": (lambda v: _str_list(v) and bool(v) and all(x in SCOPES for x in v),
                    "a non-empty list of scopes (" + ", ".join(SCOPES) + ")"),
    "gate-min-confidence": (lambda v: v in CONFIDENCES, "one of " + ", ".join(CONFIDENCES)),
}
CONFIG_KEYS = tuple(_KEYS)
# table-valued keys: what each entry must be (so errors name the entry and its line)
_ITEMS = {
    "per-file-ignores": (_str_list, "a list of rule ids, id prefixes or categories"),
    "severity": (lambda v: v in SEVERITIES, "\"blocker\", \"change\" or \"advisory\""),
    "scopes": (lambda v: v in SCOPES, "one of " + ", ".join(SCOPES)),
}


def _line_of(text: str, key: str, section: str | None) -> int | None:
    """Line of `key = ...` (or a `[...key]` table header), after the section header if any."""
    lines = text.splitlines()
    start = 0
    if section:
        hdr = re.compile(r"^\s*\[\s*%s\s*\]" % re.escape(section).replace(r"\.", r"\s*\.\s*"))
        for i, ln in enumerate(lines):
            if hdr.match(ln):
                start = i
                break
    kpat = re.compile(r'^\s*(["\']?%s["\']?\s*=|\[[^\]]*\b%s\b[^\]]*\])' % (re.escape(key), re.escape(key)))
    for i in range(start, len(lines)):
        if kpat.match(lines[i]):
            return i + 1
    for i in range(start, len(lines)):
        if key.lower() in lines[i].lower():
            return i + 1
    return start + 1 if section else None


def error_at(path: str | None, key: str, message: str) -> ConfigError:
    """A ConfigError for `key` (dotted: its last part is searched) in the config file at `path`."""
    if not path:
        return ConfigError("config", message, key=key)
    try:
        text = read_regular(path, SETTINGS_MAX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ConfigError(path, message, key=key)
    section = "tool.trnready" if Path(path).name == "pyproject.toml" else None
    return ConfigError(path, message, line=_line_of(text, key.split(".")[-1], section), key=key)


def _entry_error(path: str | None, table: str, entry: str, message: str) -> ConfigError:
    """A ConfigError on the line of `entry` inside `table` (entry names may hold dots: `"tests/*.py"`)."""
    if not path:
        return ConfigError("config", message, key=f"{table}.{entry}")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ConfigError(path, message, key=f"{table}.{entry}")
    section = "tool.trnready" if Path(path).name == "pyproject.toml" else None
    line = _line_of(text, table, section)
    lines = text.splitlines()
    for i in range(line or 0, len(lines)):
        if entry in lines[i]:
            line = i + 1
            break
    return ConfigError(path, message, line=line, key=f'{table}."{entry}"')


def _read_toml(path: Path) -> tuple[str, dict]:
    try:
        text = read_regular(path, SETTINGS_MAX_BYTES).decode("utf-8")
    except OSError as e:
        raise ConfigError(path, f"cannot read config file: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ConfigError(path, "config file is not UTF-8 text") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise ConfigError(path, f"invalid TOML: {e}", line=int(m.group(1)) if m else None) from None


_MENTIONS_US = re.compile(r"tool\s*\.\s*trnready\b|^\s*\[\s*tool\s*\]", re.M)


def find_config(start: Path) -> Path | None:
    """The first trnready.toml, or pyproject.toml with [tool.trnready], from `start` upwards."""
    here = start.absolute()
    if not here.is_dir():
        here = here.parent
    for d in [here, *here.parents]:
        cand = d / "trnready.toml"
        if cand.exists() and not cand.is_dir():  # a FIFO or device here is refused by load_config_file
            return cand
        cand = d / "pyproject.toml"
        if cand.is_file():
            try:
                text = read_regular(cand, SETTINGS_MAX_BYTES).decode("utf-8", errors="replace")
            except OSError:
                return cand  # load_config_file says what is wrong with it
            if not _MENTIONS_US.search(text):
                continue
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                return cand  # it may hold our table: load_config_file reports the TOML error
            tool = data.get("tool")
            if isinstance(tool, dict) and "trnready" in tool:
                return cand
    return None


def load_config_file(path: Path | str) -> dict:
    """Read and validate one config file -> {key: value}, paths made absolute."""
    path = Path(path)
    text, data = _read_toml(path)
    section = None
    if path.name == "pyproject.toml":
        section = "tool.trnready"
        tool = data.get("tool", {})
        table = tool.get("trnready") if isinstance(tool, dict) else None
        if table is None:
            raise ConfigError(path, "no [tool.trnready] table")
        data = table
    if not isinstance(data, dict):
        raise ConfigError(path, "must be a table", key=section)
    base = path.absolute().parent
    out: dict = {}
    for key, value in data.items():
        if key == "tool" and section is None and isinstance(value, dict) and "trnready" in value:
            raise ConfigError(path, "use top-level keys in trnready.toml ([tool.trnready] is the pyproject.toml "
                              "spelling)", line=_line_of(text, "tool", None), key="tool.trnready")
        if key not in _KEYS:
            raise ConfigError(path, f"unknown key (expected one of {', '.join(CONFIG_KEYS)})",
                              line=_line_of(text, key, section), key=key)
        check, want = _KEYS[key]
        if isinstance(value, dict) and key in _ITEMS:
            item_ok, item_want = _ITEMS[key]
            for k, v in value.items():
                if not item_ok(v):
                    raise ConfigError(path, f"must be {item_want}", line=_line_of(text, k, section),
                                      key=f"{key}.{k}")
        if not check(value):
            raise ConfigError(path, f"must be {want}", line=_line_of(text, key, section), key=key)
        out[key] = value
    if "severity" in out:
        for rid in out["severity"]:
            if not re.fullmatch(r"[A-Za-z]{2,6}[0-9]{3,4}", rid):
                raise ConfigError(path, "severity overrides are per rule id (e.g. TRN191)",
                                  line=_line_of(text, rid, section), key=f"severity.{rid}")
        out["severity"] = {k.upper(): v for k, v in out["severity"].items()}
    if "catalogue" in out:
        out["catalogue"] = str(base / out["catalogue"])
    if "extend-catalogue" in out:
        out["extend-catalogue"] = [str(base / p) for p in out["extend-catalogue"]]
    out["_path"] = str(path)
    out["_base"] = str(base)
    return out


def check_config_selectors(config: Config, rules, cli_select=(), cli_ignore=()) -> None:
    """Every selector names a rule, id prefix or category; errors name the flag or the config file line.

    Raises SelectorError (for a flag) or ConfigError (for a config-file key)."""
    for flag, given, key in (("--select", cli_select, "select"), ("--ignore", cli_ignore, "ignore")):
        for sel in given:
            if not selector_known(sel, rules):
                raise SelectorError(f"{flag}: {unknown_selector_message(sel, rules)}")
        if not given:
            for sel in getattr(config, key):
                if not selector_known(sel, rules):
                    raise error_at(config.config_path, key, unknown_selector_message(sel, rules))
    for glob, sels in config.per_file_ignores:
        for sel in sels:
            if not selector_known(sel, rules):
                raise _entry_error(config.config_path, "per-file-ignores", glob, unknown_selector_message(sel, rules))
    ids = {r.id for r in rules}
    for rid, _ in config.severity:
        if rid not in ids:
            hint = difflib.get_close_matches(rid, sorted(ids), n=1, cutoff=0.6)
            raise error_at(config.config_path, f"severity.{rid}", f"unknown rule id {rid!r}"
                           + (f"; did you mean {hint[0]}?" if hint else " (see `trnready rules`)"))
    try:
        select_rules(rules, config.select, config.ignore)
    except SelectorError as e:
        where = [] if cli_select or cli_ignore else [config.config_path] if config.config_path else []
        raise SelectorError(": ".join([*where, str(e)])) from None


def resolve(paths: list[str], config_file: str | None = None, use_config: bool = True, **cli) -> Config:
    """Config file (found or given) + CLI values -> Config. A CLI value that is not None wins.

    cli keys: select, ignore, exclude (tuples; empty means "not given"), fail_on, max_file_size,
    use_gitignore (None: not given), catalogue, suppressions, only_files.
    """
    values: dict = {}
    if config_file:
        values = load_config_file(config_file)
    elif use_config:
        start = _start_dir(paths)
        found = find_config(start) if start is not None else None
        if found is not None:
            values = load_config_file(found)

    def pick(cli_key, file_key, default, convert=lambda v: v):
        v = cli.get(cli_key)
        if v is not None and v != ():
            return v
        if file_key in values:
            return convert(values[file_key])
        return default

    pfi = tuple((glob, tuple(sels)) for glob, sels in values.get("per-file-ignores", {}).items())
    return Config(
        select=pick("select", "select", (), tuple),
        ignore=pick("ignore", "ignore", (), tuple),
        exclude=pick("exclude", "exclude", (), tuple),
        fail_on=pick("fail_on", "fail-on", "blocker"),
        max_file_size=pick("max_file_size", "max-file-size", DEFAULT_MAX_BYTES),
        use_gitignore=pick("use_gitignore", "respect-gitignore", True),
        catalogue=pick("catalogue", "catalogue", None),
        extend_catalogue=tuple(values.get("extend-catalogue", ())),
        per_file_ignores=pfi,
        severity=tuple(sorted(values.get("severity", {}).items())),
        suppressions=cli.get("suppressions") is not False,
        show_guarded=pick("show_guarded", "show-guarded", False),
        base_dir=values.get("_base"),
        config_path=values.get("_path"),
        only_files=cli.get("only_files"),
        scopes=tuple((glob, sc) for glob, sc in values.get("scopes", {}).items()),
        gate_scopes=pick("gate_scopes", "gate-scopes", DEFAULT_GATE_SCOPES, tuple),
        gate_min_confidence=pick("gate_min_confidence", "gate-min-confidence", "medium"),
        jobs=cli.get("jobs") or 0,
        cache=cli.get("cache") is not False,
        cache_dir=cli.get("cache_dir"),
        prefilter=cli.get("prefilter") is not False,
    )


def _start_dir(paths: list[str]) -> Path | None:
    """Where the config search starts: the common directory of the scanned paths."""
    dirs = []
    for p in paths or ["."]:
        a = Path(p).absolute()
        dirs.append(str(a if a.is_dir() else a.parent))
    try:
        return Path(os.path.commonpath(dirs))
    except ValueError:
        return Path(dirs[0]) if dirs else None
