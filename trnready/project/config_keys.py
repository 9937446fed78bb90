"""Training-config settings no code of the project reads: guarded after the scan.

A `setting` finding in a YAML/JSON training config (readers/configs.py), an mmcv-style Python config module
(readers/python_configs.py) or yacs defaults (readers/yacs_configs.py) matters only when something reads
that key: the project's own Python, or a library the config is handed to. The config reader notes, in the
file's summary, the keys of each setting finding's path that the project itself would have to name
(every key of the path except a suffix that a library reads by itself, [context.values]
library-read-settings). This step collects the project's key vocabulary from its Python text and guards
(`--show-guarded`, guarded_by "config-key-unread") a finding one of whose keys the code never names as
a string literal (other than a subscript store), as an attribute of something that is not an imported
module, as a function parameter or as an annotated class field (dataclass / Pydantic / Coqpit configs).
Kept as they are: every setting of a project with no Python file, of a config none of whose top-level keys
the code names (a recipe run by a tool outside the project: axolotl, Accelerate), and of a recipe whose nodes
name the classes they build (`_target_`, `_component_`, `class_path`: the framework hands those keys to them;
readers/configs.py records no setting for such a file).

Cheap: nothing runs unless some config holds such a finding; then each Python file's text is scanned with
a few regular expressions (never parsed), and only for the handful of keys in question.
"""
from __future__ import annotations

import fnmatch
import keyword
import re
from dataclasses import replace

GUARD = "config-key-unread"

_STRING = re.compile(r"""(["'])-{0,2}([A-Za-z_][\w\-]*)\1(\s*\]\s*=(?!=))?""")
_CHAIN = re.compile(r"(?<![\w.])([A-Za-z_]\w*)((?:\s*\.\s*[A-Za-z_]\w*)+)")
_STORE = re.compile(r"[ \t]*=(?!=)")
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+)?import[ \t]+\(?([^\n#]+)", re.M)
# The last part of a module path that holds config objects: a name imported from it (`from pkg.sweep.config import
# sweep_cfg`, `from .config import cfg`) is a config node, whose attributes are keys, not a module's.
_CONFIG_MODULES = frozenset({"config", "configs", "cfg", "default", "defaults", "settings", "options", "opts"})
_DEF = re.compile(r"\bdef[ \t]+\w+[ \t]*\(")
_FIELD = re.compile(r"^[ \t]+([A-Za-z_]\w*)[ \t]*:(?!=)[ \t]*[^\s#]", re.M)
_WORD = re.compile(r"[A-Za-z_]\w*")
TRUE = frozenset({"true", "yes", "on"})
FALSE = frozenset({"false", "no", "off", "0", "null", "~", ""})


def key_name(key: str) -> str:
    """The config key of a switch key: `amp` of `amp`, `optimizer_type=FusedAdam` and `amp_opt_level!=O0`."""
    return key.split("=", 1)[0].removesuffix("!")


def switched_by(key: str, toggles: dict) -> list:
    """The settings (toggles: switch key -> entries) that turn on a block whose condition notes `key`: that key
    itself, or for `K!=W` (`if cfg.amp_opt_level != 'O0':`) every word setting `K=V` of another word V."""
    if "!=" not in key:
        return list(toggles.get(key, ()))
    name, _, word = key.partition("!=")
    out: list = []
    for k, entries in toggles.items():
        n, eq, v = k.partition("=")
        if eq and n == name and not n.endswith("!") and v.lower() != word.lower():
            out.extend(entries)
    return out


def norm(key: str) -> str:
    """`--dist-backend`, `dist_backend` and `_dist_backend` name one key."""
    k = key.lower().replace("-", "_").lstrip("_")
    return k or key.lower()


def needed_keys(keys: tuple, library_suffixes) -> list[str]:
    """The keys of a setting's path the project's own code must name: all of them but the longest suffix a
    library reads by itself (`trainer.benchmark` under `lightning:` leaves `lightning`); keys that are not
    names (list indices, `*`, paths) are skipped."""
    low = [norm(k) for k in keys]
    cut = len(low)
    for suffix in library_suffixes:
        parts = [norm(p) for p in suffix.split(".")]
        if parts[-1] == "**":  # `hydra.**`: the node and everything below it, wherever it sits
            at = [i for i, k in enumerate(low[:-1]) if fnmatch.fnmatchcase(k, parts[0])]
            if at:
                cut = min(cut, at[0])
            continue
        tail = low[len(low) - len(parts):]
        if len(parts) <= len(low) and all(fnmatch.fnmatchcase(k, p) for k, p in zip(tail, parts)):
            cut = min(cut, len(low) - len(parts))
    return [k for k in low[:cut] if k.isidentifier()]


def declarations(text: str, tails: set) -> set:
    """The attribute chains this text assigns to whose last key is in `tails` (`_C.AMP.ENABLED = False` ->
    ("amp", "enabled")), normalised: a yacs defaults module declaring its config schema."""
    out: set = set()
    low = text.lower()
    if not any(t in low for t in tails):
        return out
    for m in _CHAIN.finditer(text):
        attrs = [norm(a) for a in re.split(r"\s*\.\s*", m.group(2))[1:]]
        if attrs and attrs[-1] in tails and _STORE.match(text, m.end()):
            out.add(tuple(attrs))
    return out


def vocabulary(text: str, wanted: set, config_modules: tuple = ()) -> set:
    """The keys of `wanted` that this Python text names in a way that can read a config key. `config_modules`:
    dotted names of the config modules in question (`pkg.core.config`); a name imported from one of them
    (`from pkg.core.config import cfg`) is the config object, so `cfg.DIST_BACKEND` reads a key. An attribute
    chain assigned to (`_C.AMP.ENABLED = False`) declares its last key rather than reading it."""
    found: set = set()
    low = text.lower()
    # Most files name none of the keys at all: a substring test spares them the regular expressions.
    wanted = {k for k in wanted if k in low or k.replace("_", "-") in low}
    if not wanted:
        return found
    for m in _STRING.finditer(text):
        if not m.group(3):  # `cfg["backend"] = "gloo"` writes a config, it does not read one
            k = norm(m.group(2))
            if k in wanted:
                found.add(k)
    imported: set = set()
    for m in _IMPORT.finditer(text):
        if m.group(1) and (m.group(1).rsplit(".", 1)[-1].lower() in _CONFIG_MODULES
                           or _is_config_module(m.group(1), config_modules)):
            continue
        for part in m.group(2).split(","):
            words = part.split()
            if words:
                imported.add(words[-1].strip("()").split(".")[0])
    for m in _CHAIN.finditer(text):
        if m.group(1) in imported:  # `torch.distributed`: a module's attribute, not a config's
            continue
        attrs = re.split(r"\s*\.\s*", m.group(2))[1:]
        if _STORE.match(text, m.end()):
            # `_C.AMP.ENABLED = False` in yacs defaults declares the key, it does not read it (esvit's `AMP.ENABLED`,
            # set in 34 experiment configs that no code reads: fresh57); the nodes before it are read to get there
            attrs = attrs[:-1]
        for a in attrs:
            k = norm(a)
            if k in wanted:
                found.add(k)
    for m in _DEF.finditer(text):
        found.update(k for k in _params(text, m.end()) if k in wanted)
    for m in _FIELD.finditer(text):
        k = norm(m.group(1))
        if k in wanted and not keyword.iskeyword(m.group(1)):
            found.add(k)
    return found


def _is_config_module(module: str, config_modules: tuple) -> bool:
    """`from pkg.core.config import` or `from .config import` names one of the config modules (dotted names)."""
    mod = module.lstrip(".")
    return bool(mod) and any(c == mod or c.endswith("." + mod) for c in config_modules)


def _params(text: str, start: int):
    """Parameter names of the `def` whose `(` ends at start (names at depth 1 after `(`, `,` or `*`)."""
    depth, i, expect = 1, start, True
    end = min(len(text), start + 4000)
    while i < end and depth:
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c in "\"'":
            j = text.find(c, i + 1)
            i = j if j > 0 else end
        elif c == "," and depth == 1:
            expect = True
        elif c == "#":
            j = text.find("\n", i)
            i = j if j > 0 else end
        elif expect and depth == 1 and (c.isalpha() or c == "_"):
            m = _WORD.match(text, i)
            if m is not None:
                yield norm(m.group(0))
                i = m.end() - 1
            expect = False
        elif not c.isspace() and c not in "*/":
            expect = False if depth == 1 and c not in "*" else expect
        i += 1


def _import_re(modules):
    names = "|".join(re.escape(m) for m in modules)
    return re.compile(rf"^[ \t]*(?:from[ \t]+(?:{names})(?:\.[\w.]*)?[ \t]+import|import[ \t]+(?:{names})\b)", re.M)


def _qualified(library_read) -> dict:
    """The library-read suffixes qualified by the libraries that read them (`amp.*@deepspeed,detectron2.engine`):
    suffix -> those libraries. A project that imports none of them reads those keys itself, or not at all
    (X-Decoder's own trainer never reads `SOLVER.AMP.ENABLED`)."""
    out = {}
    for r in library_read:
        pat, at, mods = r.partition("@")
        if at:
            out[pat] = tuple(m.strip() for m in mods.split(",") if m.strip())
    return out


_CONFIG_KINDS = frozenset({"yaml", "json"})
_MAX_CONFIG_READS = 400  # config files read for `_target_` lines (a model zoo's thousands are not all read)


def _instantiated_libraries(files: list, read_text, wanted: set) -> set:
    """Those of the `wanted` libraries a config file names in a Hydra `_target_` (`_target_:
    pytorch_lightning.Trainer`, `"_target_": "lightning.pytorch.Trainer"`)."""
    if not wanted:
        return set()
    rx = re.compile(r"""["']?_target_["']?\s*[:=]\s*["']?(%s)(?![\w])""" %
                    "|".join(re.escape(m) for m in sorted(wanted, key=len, reverse=True)))
    found: set = set()
    read = 0
    for sf in files:
        if sf.kind not in _CONFIG_KINDS:
            continue
        read += 1
        if read > _MAX_CONFIG_READS or found >= wanted:
            break
        text = read_text(sf)
        if text and "_target_" in text:
            found |= {m.group(1) for m in rx.finditer(text)}
    return found


def _imported_libraries(text: str, wanted: set, rx) -> set:
    """Those of the `wanted` libraries an import statement of the text names."""
    found: set = set()
    if any(m.split(".", 1)[0] in text for m in wanted):
        for m in rx.finditer(text):
            found |= {w for w in wanted if re.search(rf"(?<![\w.]){re.escape(w)}\b", m.group(0))}
    return found


def guard_unread_settings(findings: list, files: list, summaries: list, read_text, values=None) -> list:
    """findings with the config settings no Python file of the project reads marked guarded.
    `read_text(source file) -> str or None` reads a Python file (only called when a setting is in question);
    `values`: the catalogue's [context.values] (library-read-settings qualified by the libraries reading them)."""
    from .summary import Fresh, unpack

    questions: dict = {}  # (rel, line, rule) -> needed keys
    tops: dict = {}  # rel -> the file's top-level keys
    from ..readers.config_dirs import in_config_dir

    # Python files note settings only as config modules: mmcv style in a config folder (readers/python_configs.py)
    # or yacs defaults anywhere (readers/yacs_configs.py); the latter hold a finding, so only those are unpacked.
    with_findings = {f.path for f in findings if f.cell is None}
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind == "notebook" or (
                sf.kind == "python" and not in_config_dir(sf.rel) and sf.rel not in with_findings):
            continue
        # (a summary packed by this run's own code is of the right shape: checked only when read from the cache)
        s = unpack(sf.rel, packed, type(packed) is not Fresh) if isinstance(packed, (bytes, bytearray)) else packed
        for line, rule, keys, full in _settings(s):
            questions[(sf.rel, line, rule)] = (keys, full)
            tops[sf.rel] = (s or {}).get("tops") or []
    if not questions:
        return findings
    # a config module's own keys (`{"backend": "nccl"}`) are the config, not code reading it
    sources = [sf for sf in files if sf.kind == "python" and sf.rel not in tops]
    if not sources:  # no Python at all: the configs are read by something this scan does not see
        return findings
    library_read = tuple((values or {}).get("library-read-settings", ()))
    qualified = _qualified(library_read) if any(len(full) > len(keys) for keys, full in questions.values()) else {}
    libraries = {m for mods in qualified.values() for m in mods}
    imported: set = set()  # those of the qualifying libraries some source imports (searched in the loop below)
    rx = _import_re(sorted(libraries)) if libraries else None
    wanted = {k for keys, full in questions.values() for k in (*keys, *full)} | {k for t in tops.values() for k in t}
    named: set = set()
    declared: dict = {}  # rel -> attribute chains its Python assigns (yacs defaults: `_C.AMP.ENABLED = False`)
    config_modules = tuple(r.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for r in tops)
    # the settings a library would read by itself: a project whose Python (config modules included) declares the
    # whole path itself owns the key, so those files are all read for declarations, each once
    tails = {full[-1] for keys, full in questions.values() if len(full) > len(keys)}
    for sf in sources:
        if named >= wanted and not tails and imported >= libraries:
            break
        text = read_text(sf)
        if text:
            if not named >= wanted:
                named |= vocabulary(text, wanted - named, config_modules)
            if not imported >= libraries:
                imported |= _imported_libraries(text, libraries - imported, rx)
            got = declarations(text, tails) if tails else None
            if got:
                declared[sf.rel] = got
    for sf in files if tails else ():
        text = read_text(sf) if sf.kind == "python" and sf.rel in tops else None
        got = declarations(text, tails) if text else None
        if got:
            declared[sf.rel] = got
    unread = [p for p, mods in qualified.items() if not any(m in imported for m in mods)]
    if unread:
        # a Hydra config that instantiates the library (`_target_: pytorch_lightning.Trainer`) uses it as surely as
        # an import does: the lightning-hydra-template's `configs/trainer/` group files
        imported |= _instantiated_libraries(files, read_text, {m for p in unread for m in qualified[p]} - imported)
        unread = [p for p, mods in qualified.items() if not any(m in imported for m in mods)]
    if unread:
        # a suffix only an absent library would read is the project's to name: the keys below it count too (the
        # vocabulary above was searched for the whole paths already)
        kept = [r.split("@", 1)[0] for r in library_read if r.split("@", 1)[0] not in unread]
        questions = {k: (needed_keys(tuple(full), kept) if len(full) > len(keys) else keys, full)
                     for k, (keys, full) in questions.items()}
    out = []
    for f in findings:
        got = questions.get((f.path, f.line, f.rule)) if f.cell is None else None
        # (a Python config module's own assignment is the setting itself: only another file's declaration counts)
        keys = _own_keys(got[0], got[1], {d for rel, ds in declared.items() if rel != f.path for d in ds}) \
            if got else None
        # A config none of whose top-level keys the code names is read by a tool outside the project (an
        # axolotl or Accelerate recipe kept beside a few scripts): nothing to judge it by.
        if keys and not f.guarded and named & set(tops.get(f.path, ())) and not set(keys) <= named:
            f = replace(f, guarded=True, guarded_by=GUARD)
        out.append(f)
    return out


def _own_keys(keys: list, full: list, declared: set) -> list:
    """The keys the project must read for a setting: `keys`, less the suffix a library reads itself, unless the
    project's own Python declares the whole path (esvit's `config/default.py` assigns `_C.AMP.ENABLED`, so its
    experiment configs' `AMP: ENABLED: true` is the project's key, not DeepSpeed's `amp` section)."""
    need = min(len(full), len(full) - len(keys) + 1)  # the library's suffix and the node holding it
    if len(full) > len(keys) and any(len(d) >= need and tuple(full[-need:]) == d[-need:] for d in declared):
        return list(full)
    return keys


def _settings(s) -> list:
    """A summary's setting notes [line, rule, keys, full path], when of that shape (a Python summary is checked by
    its own fields only)."""
    got = (s or {}).get("settings") or []
    if isinstance(got, list) and all(isinstance(x, list) and len(x) == 4 and isinstance(x[0], int)
                                     and isinstance(x[1], str) and isinstance(x[2], list) and isinstance(x[3], list)
                                     for x in got):
        return got
    return []


def true_switches(entries, values: dict) -> list:
    """[[line, col, end col, key, shown]] of a training config's scalars set to a boolean true, keys that say
    what they switch (not the generic ones of [context.values] config-switch-generic-keys); the config's half of
    project/config_switches.py, kept here so that the config reader imports no project step."""
    generic = {norm(k) for k in values.get("config-switch-generic-keys", ())}
    # `profiler: {enabled: False, cuda: True}`: the node is off, and nothing under it switches anything on
    off = [e.keys[:-1] for e in entries if e.value is not None and not e.in_list and e.keys
           and norm(e.key) in ("enabled", "enable") and e.value.strip().lower() in FALSE]

    def key_of(e):
        """The entry's normalised key when it may switch something: a scalar outside lists and outside a node
        switched off, named by an identifier that is not a generic key; else None."""
        if e.value is None or e.in_list or not e.keys or any(e.keys[:len(node)] == node for node in off):
            return None
        k = norm(e.key)
        if k == "value" and len(e.keys) >= 2:
            # W&B's config form (`enable_amp: {desc: ..., value: true}`, wandb.config's config-defaults.yaml):
            # the parameter is the key above its `value`
            k = norm(e.keys[-2])
        return k if k.isidentifier() and k not in generic else None

    out = []
    for e in entries:
        k = key_of(e)
        if k is None or e.value.strip().lower() not in TRUE:
            continue
        out.append([e.line, e.col, e.end_col, k, f"{_shown_key(e)}: {e.value.strip()}"])
        if len(out) >= 200:
            break
    # `optimizer_type: 'FusedAdam'`: a word value the code may compare to pick a path (`if params.optimizer_type ==
    # 'FusedAdam':`), noted as the key `optimizer_type=FusedAdam` (switch_conditions.py notes the comparison so)
    values_out = []
    for e in entries:
        k = key_of(e)
        if k is None:
            continue
        v = e.value.strip()
        if len(v) > 1 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        if v.lower() in TRUE or v.lower() in FALSE or not VALUE_WORD.fullmatch(v):
            continue
        values_out.append([e.line, e.col, e.end_col, f"{k}={v}", f"{_shown_key(e)}: {e.value.strip()}"])
        if len(values_out) >= 200:
            break
    return out + values_out


def _shown_key(e) -> str:
    return e.keys[-2] if norm(e.key) == "value" and len(e.keys) >= 2 else e.key


# A config value the code may compare with a string literal: a word (`FusedAdam`, `flash_attn`, `fused-lamb`)
VALUE_WORD = re.compile(r"[A-Za-z][\w.+-]{0,63}")
