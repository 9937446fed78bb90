"""Switches no shipped config sets: code under a config key that none of the project's configs sets is guarded.

The negative direction of project/config_switches.py. mmcv-style training scripts carry the library's generic
switches (`if cfg.get('cudnn_benchmark', False): torch.backends.cudnn.benchmark = True`, `fp16_cfg =
cfg.get('fp16', None)` then `if fp16_cfg is not None: wrap_fp16_model(model)`); whether the block runs is decided
by the configs the project ships. When the project ships configs beside the script and none of them sets the key,
the block is value-blind: the code is listed with `--show-guarded` (guarded_by "config-key-unset"), not counted.
When a config sets the key the finding stays, wherever it is set.

Conservative, because a config the scan does not see may set the key:

- the switch is one the per-file pass noted (project/switch_conditions.py): a block whose condition (or an `and` of
  conditions, never an `or`) reads key K, not through a parameter; `K=V` (`cfg.optimizer_config['type'] ==
  'DistOptimizerHook'`) is off unless some config names the word V; a `!=` switch is on when the key is unset, so
  it is never guarded;
- the file reads K from a config object with `.get` (`cfg.get('K', False)`, a receiver whose name says config), never
  with a true default (`cfg.get('K', True)` is on unless a config turns it off): `cfg.K` and `cfg['K']` raise on a
  missing key, so such code relies on the key being set somewhere;
- the configs are mmcv / mmengine configs: they inherit (`_base_` modules), or are Python config modules written whole
  (an older mmpose's, session 44); user recipes in YAML and command-line defaults may set a key where the scan does
  not look;
- the project's configs are the recognised config files (Python config modules, YAML, JSON, TOML in a config
  folder) under the nearest folder above the script that is a config's home (the folder its config folder sits in:
  `det` for `det/configs/_base_/x.py`; else the nearest holding any); there must be at least one, and the key's name
  (or V) must occur as a word in none of them, nor in a shell script under that folder (`--cfg-options K=True`).
  A module of a `_base_` folder counts only when another config names it (mmcv configs take effect by inheritance:
  a `_base_/models/ssd300.py` no config inherits sets nothing).

An import finding whose every use in its file lies in a block found off (`try: import apex` for the
DistOptimizerHook arm alone) is guarded with it. And `fold_config_into_code` makes an mmcv config module's setting a
place of the code finding its key switches on (one item, not two).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

GUARD = "config-key-unset"
_CONFIG_SUFFIXES = (".py", ".yaml", ".yml", ".json", ".toml")
_CONFIG_WORD = re.compile(r"(?:^|_)(?:cfg|cfgs|config|configs|conf)(?:_|$)", re.I)
_FALSY = frozenset({"None", "False", "0", "''", '""', "{}", "[]", "dict()"})


def _read(sf, max_bytes: int = 2_000_000) -> str | None:
    try:
        with open(sf.path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError:
        return None
    if len(data) > max_bytes:
        return None
    return data.decode("utf-8", "replace")


def _is_config(rel: str) -> bool:
    from ..readers.config_dirs import in_config_dir

    return rel.lower().endswith(_CONFIG_SUFFIXES) and in_config_dir(rel)


def _home(rel: str) -> str:
    """The folder holding a config's outermost config-named folder (`det` for `det/configs/_base_/x.py`)."""
    from ..readers.config_dirs import in_config_dir_parts

    parts = rel.split("/")
    for i in range(1, len(parts)):
        if in_config_dir_parts(parts[: i + 1]) and not in_config_dir_parts(parts[:i]):
            return "/".join(parts[: i - 1])
    return "/".join(parts[:-1])


def _family(rel: str, roots: set, homes: set | None = None) -> str | None:
    """The nearest folder above `rel` (its own folder first, the repository root "" last) that is the home of a
    config (the folder its config folder sits in); without one, the nearest holding a config at any depth.
    A config folder deep in a sibling tool's tree (`tools/data/split/split_configs/*.json` beside `tools/test.py`)
    belongs to that tool: taken as the script's family it hid the project's own `configs/` one level up."""
    parts = rel.split("/")[:-1]
    for pool in (homes or set(), roots):
        for i in range(len(parts), -1, -1):
            d = "/".join(parts[:i])
            if d in pool:
                return d
    return None


def _under(rel: str, folder: str) -> bool:
    return not folder or rel.startswith(folder + "/")


def read_from_config(text: str, key: str) -> bool | None:
    """True when the file reads `key` from a config object with `.get`, each time with no default or a false one;
    False when one read defaults on (`cfg.get('fp16', True)`); None when it never reads it so."""
    k = re.escape(key)
    # only `.get` with a default: `cfg.K` and `cfg['K']` raise on a missing key, so code reading a key that way
    # relies on some config (or a default the scan does not see) setting it
    pat = re.compile(rf"""(?<![\w.])(\w+(?:\.\w+)*)\s*\.get\(\s*(['"]){k}\2\s*(?:,\s*([^()]*?)\s*)?\)""", re.I)
    seen = False
    for m in pat.finditer(text):
        chain = m.group(1).split(".")
        if not any(_CONFIG_WORD.search(w) for w in chain):
            continue
        default = m.group(3)
        if default is not None and default.strip() not in _FALSY:
            return False
        seen = True
    return True if seen else None


def guard_unset_switches(findings: list, files: list, summaries: list, read_text) -> list:
    """findings under a config switch no shipped config sets, marked guarded (see the module docstring).
    `read_text(source file) -> str or None` reads a Python file (only the files holding a candidate)."""
    from .report import _unpack

    by_rel = {sf.rel: sf for sf in files}
    live = {f.path for f in findings if f.cell is None and not f.guarded and not f.suppressed}
    switches: dict = {}
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind != "python" or sf.rel not in live:
            continue
        items = (_unpack(sf.rel, packed) or {}).get("switches") or []
        got = [x for x in items if isinstance(x, list) and len(x) == 7 and x[3] == "read" and not x[6]
               and "!=" not in x[0] and " or " not in x[5] and type(x[1]) is int and type(x[2]) is int]
        if got:
            switches[sf.rel] = got
    if not switches:
        return findings
    configs = [sf for sf in files if _is_config(sf.rel)]
    if not configs:
        return findings
    roots: set = set()
    for sf in configs:
        parts = sf.rel.split("/")[:-1]
        roots.update("/".join(parts[:i]) for i in range(len(parts) + 1))
    homes = {_home(sf.rel) for sf in configs}
    texts: dict = {}

    def text_of(sf) -> str:
        if sf.rel not in texts:
            texts[sf.rel] = _read(sf) or ""
        return texts[sf.rel]

    family_words: dict = {}

    def words_of(folder: str) -> tuple | None:
        """The words of the folder's configs (and shell scripts); None when it holds no config that counts."""
        if folder in family_words:
            return family_words[folder]
        mine = [sf for sf in configs if _under(sf.rel, folder)]
        bases = [sf for sf in mine if "_base_" in sf.rel.split("/")[:-1]]
        tops = [sf for sf in mine if sf not in bases]
        named = " ".join(text_of(sf) for sf in tops)
        # a base module counts when a config (or another counted base) names it: inheritance is transitive
        counted = list(tops)
        pending = list(bases)
        grew = True
        while grew:
            grew = False
            for sf in list(pending):
                if re.search(rf"\b{re.escape(PurePosixPath(sf.rel).stem)}\.py\b", named):
                    counted.append(sf)
                    pending.remove(sf)
                    named += " " + text_of(sf)
                    grew = True
        if not counted or not (bases or any(sf.rel.endswith(".py") for sf in tops)):
            # only mmcv / mmengine configs: configs that inherit (`_base_`), or Python config modules written whole
            # (UniFormer's copy of an older mmpose: no `_base_`, each model's config complete); a project whose
            # configs are user recipes or command-line defaults may set the key where this scan does not look
            family_words[folder] = None
            return None
        shells = [sf for sf in files if sf.kind == "shell" and _under(sf.rel, folder)]
        # YAML run files outside the config folders (LAVIS's `projects/*.yaml` set `amp: True`) can set it too
        shells += [sf for sf in files if sf.rel.lower().endswith((".yaml", ".yml")) and not _is_config(sf.rel)]
        texts = [named, *(text_of(sf) for sf in shells)]
        words = set(re.findall(r"\w+", " ".join(texts).lower()))
        # the words left once every setting to false is dropped: a key the configs only ever set to False
        # (`cudnn_benchmark = False` in the three recipes that name it) is never switched on by them
        on = set(re.findall(r"\w+", " ".join(_SET_OFF.sub(" ", t) for t in texts).lower()))
        family_words[folder] = (words, on)
        return family_words[folder]

    out = []
    texts_py: dict = {}
    off_blocks: dict = {}  # rel -> [(first, last)] of the blocks found off
    for f in findings:
        items = switches.get(f.path) if f.cell is None and not f.guarded and not f.suppressed else None
        if items:
            places = [ln for ln, _ in f.places()]
            folder = _family(f.path, roots, homes)
            words = words_of(folder) if folder is not None else None
            block = _off(f, places, items, words, texts_py, by_rel, read_text) if words is not None else None
            if block is not None:
                f = replace(f, guarded=True, guarded_by=GUARD)
                off_blocks.setdefault(f.path, []).append(block)
        out.append(f)
    return _imports_used_only_there(out, off_blocks, texts_py) if off_blocks else out


_STRING = re.compile(r"""(["'])(?:\\.|(?!\1).)*\1""")  # a message naming the module is no use of it
_IMPORT = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+(.+?)\s*(?:#.*)?$")


def _imports_used_only_there(findings: list, off_blocks: dict, texts: dict) -> list:
    """An import (`try: import apex`) whose every use in the file lies in a block found off: it is there for that
    block alone (detection's `train.py` imports apex for the DistOptimizerHook arm only)."""
    out = []
    for f in findings:
        blocks = off_blocks.get(f.path) or []
        m = _IMPORT.match(f.snippet or "") if blocks and not f.guarded and not f.suppressed and f.cell is None \
            else None
        if m is not None and all(any(a <= ln <= b for a, b in blocks) for ln, _ in f.places() if ln != f.line):
            names = [part.split(" as ")[-1].strip().split(".")[0] for part in m.group(1).strip("()").split(",")]
            lines = (texts.get(f.path) or "").splitlines()
            uses = [i for i, ln in enumerate(lines, 1) if i != f.line and not ln.lstrip().startswith("#")
                    and any(re.search(rf"(?<![\w.]){re.escape(n)}\b", _STRING.sub("''", ln))
                            for n in names if n.isidentifier())]
            if uses and all(any(a <= i <= b for a, b in blocks) for i in uses):
                f = replace(f, guarded=True, guarded_by=GUARD)
        out.append(f)
    return out


# `K = False`, `K: false`, `dict(K=False)`, `--cfg-options K=False`: a setting that turns the key off
_SET_OFF = re.compile(r"(?<![\w.])\w+[ \t]*[:=][ \t]*(?:False|false|FALSE|no|off)\b(?![ \t]*[\w.(\[])")


def _off(f, places: list, items: list, words: tuple, texts: dict, by_rel: dict, read_text) -> tuple | None:
    """The block (first, last line) holding every place of the finding that a config key no counted config names
    (or names only to set it False, for a condition that is the key's truth) switches on; None when there is
    none."""
    every, on = words
    for key, first, last, _how, _cline, cond, _kw in items:
        if not all(first <= ln <= last for ln in places):
            continue
        name, eq, value = key.lower().partition("=")
        if (value if eq else name) in every and (eq or name in on or not _truth_test(cond, name)):
            continue
        if f.path not in texts:
            sf = by_rel.get(f.path)
            texts[f.path] = (read_text(sf) if sf is not None else None) or ""
        if read_from_config(texts[f.path], name):
            return (first, last)
    return None


def _truth_test(cond: str, key: str) -> bool:
    """The condition tests the key's truth (`cfg.get('K', False)`, `cfg.get('K')`, `not ...`): False turns it off.
    A test against None (`cfg.get('K') is not None`) or any other comparison is on for False too."""
    c = cond or ""
    named = re.search(rf"(?<!\w){re.escape(key)}(?!\w)", c.lower()) is not None
    return named and not re.search(r"\bis\b|==|!=|<|>|\bin\b", c)


def fold_config_into_code(findings: list, files: list, summaries: list) -> list:
    """A config setting (`cudnn_benchmark = True` in `_base_/default_runtime.py`) whose key the project's code reads
    into a condition guarding a reported finding of the same category (`if cfg.get('cudnn_benchmark', False):
    torch.backends.cudnn.benchmark = True`) is that finding's value, one item: the setting becomes a place of the
    code's finding (`elsewhere`), the first such finding by path, among code files under the folder that holds the
    config folder (`segmentation/tools/train.py` for `segmentation/configs/_base_/default_runtime.py`).
    Python config modules only (an mmcv `_base_/default_runtime.py`)."""
    from .report import _unpack

    settings: dict = {}  # (config rel, line, rule) -> keys
    readers: dict = {}  # key -> [(python rel, first, last)]
    # The config modules' settings first: with none (most projects) no other summary is unpacked for this step
    # (every summary was unpacked here before, the first unpacking of most of them on a warm re-scan). Unpacking
    # is pure (a summary of the wrong shape raises StaleSummary in whichever step unpacks it first).
    # Python config modules only (mmcv style): their keys reach nothing but the code that reads `cfg.get(K)`; a
    # YAML recipe's setting may be read by a framework as well and stays its own finding (config_switches.py)
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind != "python" or not _is_config(sf.rel):
            continue
        s = _unpack(sf.rel, packed) or {}
        for x in s.get("settings") or ():
            if isinstance(x, list) and len(x) == 4 and isinstance(x[2], list) and x[2]:
                settings[(sf.rel, x[0], x[1])] = [k for k in x[2] if isinstance(k, str)]
    if not settings:
        return findings
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind != "python":
            continue
        s = _unpack(sf.rel, packed) or {}
        for x in s.get("switches") or ():
            if isinstance(x, list) and len(x) == 7 and x[3] == "read" and not x[6] and "=" not in x[0]:
                readers.setdefault(x[0], []).append((sf.rel, x[1], x[2]))
    if not readers:
        return findings
    live = [f for f in findings if f.cell is None and not f.guarded and not f.suppressed]
    folds: dict = {}  # id(config finding) -> code finding
    for f in live:
        keys = settings.get((f.path, f.line, f.rule))
        if not keys or len(keys) != 1:
            continue
        code: list = []
        home = _home(f.path)
        for rel, first, last in readers.get(keys[0].lower(), ()):
            # the code lies under the folder holding the config folder (`segmentation/train.py` or
            # `segmentation/tools/train.py` for `segmentation/configs/_base_/default_runtime.py`): another
            # sub-project's code reads its own configs
            if home and not rel.startswith(home + "/"):
                continue
            code.extend(g for g in live if g.path == rel and g.category == f.category and g is not f
                        and all(first <= ln <= last for ln, _ in g.places()))
        if code:
            folds[id(f)] = min(code, key=lambda g: (g.path, g.line))
    if not folds:
        return findings
    extra: dict = {}
    for f in findings:
        g = folds.get(id(f))
        if g is not None:
            extra.setdefault(id(g), []).append((f.path, f.line, f.column, f.rule))
    out = []
    for f in findings:
        if id(f) in folds:
            continue
        if id(f) in extra:
            where = ", ".join(f"{p}:{ln}" for p, ln, _, _ in extra[id(f)])
            f = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *extra[id(f)]))),
                        message=f"{f.message} (switched on by the config setting at {where})")
        out.append(f)
    return out
