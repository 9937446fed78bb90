"""Training-config switches: a config key set true that the project's Python reads into a condition guarding a
finding (`amp: True` in a recipe, `if self.config.run_cfg.get("amp"): GradScaler()` in the runner).

The positive direction of project/config_keys.py (which guards settings nothing reads). Three parts:

- per Python file, in the per-file pass (project/switch_conditions.py, with the syntax tree in hand, cached with
  the file's summary): the blocks holding one of the file's findings whose condition reads a config key K, as
  `switches` [[K, first line, last line, how, condition line, condition source, keyword or ""]]. A condition
  reads K when its test (an `if`, a conditional expression, or a keyword value such as `autocast(enabled=...)`)
  is, or is an `and`/`or` of, `x.get("K")`, `x["K"]`, `getattr(x, "K")`, `x.K` (x not an imported module, not
  `self`), a local assigned from one of those, or an attribute `self.V` the class assigns from one ("read"). A
  parameter named K or `self.K` is "param": it counts only when the project reads K from a config by name somewhere
  (`cfg.get("low_resource")` handed on as `low_resource=`, or `main(**config)` filling the parameters of `main` by
  name: project/splat_params.py); the file's such reads are `cfgreads`. `not K`
  turns the `else` arm on; a comparison with a word literal (`x.optimizer_type == 'FusedAdam'`) is noted as the
  key `optimizer_type=FusedAdam`, any other comparison is never followed.
- per training config (readers/configs.py, config_keys.true_switches): its scalars set to a boolean true whose
  key is specific (not in [context.values] config-switch-generic-keys), as `switches`
  [[line, col, end col, key, shown]]; its word values too, as the key `K=value`.
- this step: each such setting is reported in the config file with the rule of an unguarded (or guarded only
  for an import's fallback), unsuppressed finding its key turns on (one per config file and rule, the other keys
  its occurrences), at medium confidence (the key is matched by name), naming the Python place, for the
  categories of [context.values] config-switch-categories (any category when a word of the key names the
  device). False, 0, null and strings never switch anything on.

Incremental: the Python side comes from summaries cached with each file; the join is kept in the result cache
under the Python files' digests, so editing a config re-reads that config alone and re-joins.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from .summary import config_switches_valid


# guards that say "the import has a fallback", not "this code never runs on Neuron"
_FALLBACK_GUARDS = frozenset({"optional-gpu-import", "optional-extension"})


def _valid_python(s: dict) -> tuple[list, list]:
    sw = s.get("switches") or []
    reads = s.get("cfgreads") or []
    ok = isinstance(sw, list) and all(
        isinstance(x, list) and len(x) == 7 and isinstance(x[0], str) and all(type(v) is int for v in x[1:3])
        and x[3] in ("read", "param") and type(x[4]) is int and isinstance(x[5], str) and isinstance(x[6], str)
        for x in sw)
    ok = ok and isinstance(reads, list) and all(isinstance(k, str) for k in reads)
    return (sw, reads) if ok else ([], [])


# ------------------------------------------------------------------ the step
def fold_switches(findings: list, files: list, summaries: list, engine, cache=None, digests=(),
                  read_lines=None) -> tuple[list, list]:
    """(the findings with each config line that switches a Python finding on folded into that finding, the
    settings whose config line silences the rule: suppressed findings of their own). `read_lines(source file) ->
    [str]`."""
    from ..model import Occurrences, make_finding
    from .config_keys import key_name, norm, switched_by
    from .report import _context, _unpack

    toggles: dict = {}  # key -> [(config file, line, col, end col, shown)]
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind in ("python", "notebook"):
            continue
        s = _unpack(sf.rel, packed)
        items = (s or {}).get("switches") or []
        if not config_switches_valid(items):
            continue
        for line, col, end_col, key, shown in items:
            toggles.setdefault(key, []).append((sf, line, col, end_col, shown))
    table = _python_table(files, summaries, cache, digests)
    if not table:
        return findings, []
    switches, reads, options, handed = table
    # the defaults of command-line options (project/option_defaults.py): settings written in a Python file
    by_rel = {sf.rel: sf for sf in files}
    for rel, items in options.items():
        for line, col, end_col, key, shown in items:
            if rel in by_rel:
                toggles.setdefault(key, []).append((by_rel[rel], line, col, end_col, shown))
    if not toggles:
        return findings, []
    # Python findings that count: unguarded, unsuppressed, not in a notebook cell. An import guarded only because it
    # has a fallback (`try: from flash_attn.ops.layer_norm import f` / `except ImportError: f = None`) counts too:
    # the switch picks the arm that uses the library, where that fallback is no way around it
    by_path: dict = {}
    for f in findings:
        if f.cell is None and (not f.guarded or f.guarded_by in _FALLBACK_GUARDS) and not f.suppressed \
                and f.path in switches:
            by_path.setdefault(f.path, []).append(f)
    rules = {r.id: r for r in engine.rules}
    values = engine.catalogue.context_values
    categories = set(values.get("config-switch-categories", ()))
    generic = {norm(k) for k in values.get("config-switch-generic-keys", ())}
    any_words = set(values.get("config-switch-any-category-words", ()))
    bf16_words = set(values.get("bf16-key-words", ()))
    scaling_words = tuple(values.get("loss-scaling-words", ()))
    # (config rel, line) -> the categories already reported on that line: one finding per category per line
    present: dict = {}
    # (config rel, line, category) -> the setting finding of its own there (`fp16: true` reported by TRN254), which a
    # Python finding of the category it switches on takes in as a place (session 43)
    own_setting: dict = {}
    for f in findings:
        if f.cell is None and not f.suppressed:
            for ln, _rule in f.places():  # a line folded into a finding of the category holds it too
                present.setdefault((f.path, ln), set()).add(f.category)
            if not f.guarded and not f.occurrences and not f.elsewhere and by_rel.get(f.path) is not None \
                    and by_rel[f.path].kind not in ("python", "notebook", "shell"):
                own_setting.setdefault((f.path, f.line, f.category), []).append(f)
    generic_words = frozenset(values.get("config-program-generic-words", ()))
    absorbed: dict = {}  # (config rel, line, category) -> the setting finding a Python finding takes in
    # Python file -> the rules of its import findings (`from apex import amp`): the file's one finding of the library
    imported: dict = {}
    for f in findings:
        if f.cell is None and not f.suppressed and _import_statement(f):
            imported.setdefault(f.path, set()).add(f.rule)
    hits: dict = {}  # (config rel, line, category) -> [(python finding, switch), ...]
    declares = _declares_option(by_rel, read_lines)
    others_of = _other_programs(files, values, read_lines)
    for rel, items in switches.items():
        # the places of findings under a condition that reads a config key; a keyword value is one only when it
        # turns the call itself on or off (`GradScaler(enabled=hps.train.fp16_run)`), not when it is handed on
        blocks = [(first, last) for key, first, last, how, _, _, keyword in items
                  if (not keyword or keyword in ("enabled", "enable"))
                  and (how == "read" or key_name(key) in reads or key_name(key) in handed)]
        # `if args.use_lora and args.q_lora:` turns its block on only when every key of the conjunction is true:
        # the keys a condition written as an `and` (and no `or`) reads together, by condition
        # (keys read from a config object by name only: `self.training` or a generic key is state, not a setting)
        together: dict = {}
        for key, _, _, how, cond_line, cond, keyword in items:
            if not keyword and how == "read" and key not in generic and " and " in cond and " or " not in cond:
                together.setdefault((cond_line, cond), set()).add(key)
        for key, first, last, how, cond_line, cond, keyword in items:
            settings = switched_by(key, toggles)
            if how == "param":
                # a parameter handed a config value read under another name (`use_amp=getattr(cfg, "AMP", False)`):
                # a setting of that name switches the block on too
                settings += [s for k in handed.get(key_name(key), ()) for s in switched_by(k, toggles)]
            if not settings or (how == "param" and key_name(key) not in reads and key_name(key) not in handed):
                continue
            if _enclosed_by_unset(key, first, last, cond_line, items, toggles, generic):
                continue
            others = together.get((cond_line, cond), set()) - {key} if not keyword else set()
            # A key turns on a feature (AMP, a CUDA library or kernel, compile, backend flags): a device call or a
            # shape that merely sits in the block is the code's own, unless the key itself names the device.
            every = bool(any_words & set(key.split("_")))
            for f in by_path.get(rel, ()):
                if f.category not in categories and not every:
                    continue
                # `LLM(model, trust_remote_code=cfg.trust_remote_code)`: a keyword switches on what the finding
                # names (`autocast(enabled=...)`, `load_in_8bit=...`), not the call it is passed to
                if keyword and keyword not in ("enabled", "enable") and keyword not in f.message:
                    continue
                if not any(first <= ln <= last for ln, _ in f.places()):
                    continue
                if _used_anyway(f, blocks):
                    continue
                if _writes_key(f, key_name(key), cond):
                    continue
                if " or " in cond and _bf16_loss_scaling(key, f, bf16_words, scaling_words):
                    continue
                if "!=" in key and not _key_names_feature(key, f, rules.get(f.rule)):
                    continue
                for sf, line, col, end_col, shown in settings:
                    if f.category in present.get((sf.rel, line), ()):
                        # A config key reported by a setting rule of the category (`fp16: true`, TRN254) that
                        # switches on this finding's code (`amp.initialize(..., enabled=opts.fp16)`, TRN256) is
                        # one thing with it: the setting becomes a place of the Python finding (13 duplicate
                        # verdicts on UNITER's configs, fresh61). Any other holder of the line keeps it.
                        mine = own_setting.get((sf.rel, line, f.category), [])
                        if len(mine) != 1 or mine[0].rule == f.rule:
                            continue
                        if not (_name_words(sf.rel) & _name_words(f.path)) - generic_words:
                            continue  # a config of another program, for all this file tells (`train_cityscapes.yml`)
                        absorbed[(sf.rel, line, f.category)] = mine[0]
                    if f.rule in imported.get(sf.rel, ()) and _import_statement(f):
                        continue  # the library's one finding in this file is its import (one per library per file)
                    if rel in others_of(sf):
                        continue  # `python generate.py --compile` launches one generate.py, not its namesakes
                    if sf.kind == "python" and sf.rel != rel and declares(rel, key_name(key)):
                        continue  # `sample.py` declares its own `--use-cuda`: train.py's default is not its value
                    if sf.kind == "python" and _other_branch(sf.rel, rel):
                        continue  # another program's option module (`Distillation/tiny_bert/config.py`)
                    if others and not all(any(t[0].rel == sf.rel for t in switched_by(k, toggles)) for k in others):
                        continue  # another key of the conjunction is not set true in that file
                    if _reported_partner(f, key, (first, last, cond_line, cond), items, reads, toggles, sf.rel,
                                         present):
                        continue  # the feature is already reported at another key it needs, in that file
                    hits.setdefault((sf.rel, line, f.category), []).append(
                        (f, (sf, col, end_col, shown, rel, cond_line, cond)))
    if not hits:
        return findings, []
    # Each setting is a place of the Python finding it turns on (one work item: the code the setting selects is
    # what changes; a second finding at the key was a duplicate of it). A setting whose config line silences the
    # rule (`# trnready: ignore[...]`) stays a finding of its own, suppressed, as a linked finding does.
    occurrences = Occurrences()
    candidates = []  # (the setting as a finding of its own, the python finding, (cond, cond line))
    lines_of: dict = {}
    for (crel, line, _cat), got in sorted(hits.items(), key=lambda kv: kv[0]):
        # the finding of the setting's own file first (an option default is a value of its own program), then the
        # program whose file name shares most words with the config's (`train-itm-flickr-base-8gpu.json` is
        # train_itm.py's, `pretrain-alldata-large-16gpu.json` pretrain.py's), then by path
        words = _name_words(crel)
        got.sort(key=lambda g: (g[0].path != crel, -len(words & _name_words(g[0].path)), g[0].path, g[0].line,
                                g[0].rule))
        f, (sf, col, end_col, shown, rel, cond_line, cond) = got[0]
        rule = rules.get(f.rule)
        if rule is None:
            continue
        if crel not in lines_of:
            lines_of[crel] = read_lines(sf) if read_lines else []
        lines = lines_of[crel]
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        message = f"`{shown}` turns on {f.path}:{f.line} (read in `{cond}` at {rel}:{cond_line}): {f.message}"
        candidates.append((make_finding(rule, occurrences, confidence="medium", path=crel, line=line, column=col,
                                        end_line=line, end_column=end_col, snippet=text, message=message,
                                        code=text.strip(), context=_context(lines, line)),
                           f, (shown, cond, cond_line)))
    from .report import _suppressed

    judged = _suppressed([c[0] for c in candidates], lines_of, engine)
    standing = {(g.path, g.line, g.rule): g.suppressed for g in judged}
    silenced = [g for g in judged if g.suppressed]
    folded: dict = {}  # id(python finding) -> [(config rel, line, col, shown, cond, cond line)]
    gone: set = set()  # ids of setting findings taken in as places
    for g, f, (shown, cond, cond_line) in candidates:
        if not standing.get((g.path, g.line, g.rule)):
            folded.setdefault(id(f), []).append((g.path, g.line, g.column, shown, cond, cond_line))
            taken = absorbed.get((g.path, g.line, f.category))
            if taken is not None:
                gone.add(id(taken))
    if not folded:
        return findings, silenced
    return [_with_settings(f, folded[id(f)], rules.get(f.rule)) if id(f) in folded else f for f in findings
            if id(f) not in gone], silenced


def _name_words(rel: str) -> set:
    """The words of a file's name without its extension (`train-itm-flickr-base-8gpu.json` -> train, itm, ...)."""
    stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    return {w for w in re.split(r"[^a-z0-9]+", stem) if w}


# settings named in the message of the finding they switch on (the text report shows no `elsewhere`)
MAX_NAMED = 2


_OPTIONAL_NOTE = " (optional import: guarded by try/except or an availability check)"


def _with_settings(f, settings: list, rule=None):
    """The Python finding with the config settings that turn it on as its places: `occurrences` for a setting in
    its own file (an option default), `elsewhere` for one in a config or launcher; its message names them."""
    from dataclasses import replace

    settings = sorted(set(settings), key=lambda s: (s[0] != f.path, s[0], s[1]))
    occ = tuple(dict.fromkeys((*f.occurrences, *((ln, col, f.rule) for p, ln, col, *_ in settings
                                                  if p == f.path))))
    away = tuple(dict.fromkeys((*f.elsewhere, *((p, ln, col, f.rule) for p, ln, col, *_ in settings
                                                 if p != f.path))))
    named = []
    for p, ln, _col, shown, cond, cond_line in settings[:MAX_NAMED]:
        where = f"line {ln}" if p == f.path else f"{p}:{ln}"
        named.append(f"`{shown}` at {where} (read in `{cond}` at line {cond_line})")
    more = len(settings) - len(named)
    tail = f" and {more} more setting{'s' if more > 1 else ''}" if more else ""
    message = f"{f.message}; switched on by {', '.join(named)}{tail}"
    if f.guarded and f.guarded_by in _FALLBACK_GUARDS:
        # an import guarded only for its fallback: the setting picks the arm that uses the library, where the
        # fallback is no way around it (the import is no longer optional, and has its rule's severity again)
        return replace(f, occurrences=occ, elsewhere=away, message=message.replace(_OPTIONAL_NOTE, "", 1),
                       guarded=False, guarded_by="", severity=rule.severity if rule is not None else f.severity)
    return replace(f, occurrences=occ, elsewhere=away, message=message)


def _declares_option(by_rel: dict, read_lines):
    """(Python file, key) -> whether the file declares a command-line option of that name itself
    (`add_argument('-gpu', action='store_true')`, whatever its default): a program reads its own options, so
    another script's default for the same name is no value of it."""
    memo: dict = {}

    def declares(rel: str, key: str) -> bool:
        if rel not in memo:
            sf = by_rel.get(rel)
            text = "\n".join(read_lines(sf)) if sf is not None and read_lines is not None else ""
            memo[rel] = {m.replace("-", "_").lower() for m in _OPTION_NAME.findall(text)}
        return key.replace("-", "_").lower() in memo[rel]
    return declares


_OPTION_NAME = re.compile(r"""add_argument\(\s*(?:["']-[\w-]*["']\s*,\s*)?["']-{1,2}([\w-]+)["']""")


def _enclosed_by_unset(key: str, first: int, last: int, cond_line: int, items: list, toggles: dict,
                       generic: set) -> bool:
    """The key's block sits inside the block of another condition reading a config key that nothing sets true
    (transformer-xl: `if args.fp16:` around `if not args.cuda: ... else: from apex.fp16_utils import ...`): the
    outer switch is off in every run the project ships, so the inner key turns nothing on (`--cuda` in every
    launcher does not import Apex). An outer key that is set (or a parameter, a generic key, state) leaves it."""
    from .config_keys import norm, switched_by

    for j, a, b, how, cline, _cond, keyword in items:
        if j == key or keyword or how != "read" or norm(j) in generic:
            continue
        if cline < cond_line and a <= first and last <= b and (a, b) != (first, last) and not switched_by(j, toggles):
            return True
    return False


def _bf16_loss_scaling(key: str, f, bf16_words: set, scaling_words: tuple) -> bool:
    """`--bf16` beside `--fp16` in one condition does not turn on loss scaling: a GradScaler exists for float16's
    narrow exponent range, and a trainer testing `if args.fp16 or args.bf16:` builds one for fp16 only (the Hugging
    Face Trainer's `do_grad_scaling = amp_dtype == torch.float16`). In a condition written as an `or` (checked by
    the caller), a key with a word of `bf16-key-words` is no switch of a finding whose code or message names one of
    `loss-scaling-words`. A key alone in its condition stays one whatever its name: jepa's `use_bfloat16` turns on
    float16 autocast and a GradScaler."""
    from .config_keys import key_name, norm

    if not bf16_words or not bf16_words & set(norm(key_name(key)).split("_")):
        return False
    text = f"{f.snippet} {f.message}"
    return any(w in text for w in scaling_words)


def _key_names_feature(key: str, f, rule) -> bool:
    """`if opt.preprocess != 'scale_width': cudnn.benchmark = True`: a `!=` condition is true for every other word,
    so any setting of an unrelated option (`--preprocess default='resize_and_crop'`) would "switch on" the block.
    Such a key is a switch of the feature only when it is about it: a word of the key (`amp` of `amp_opt_level`)
    is a word of the finding's code, its message or its rule's title (`from apex import amp`). Otherwise the setting
    picks something else, and the finding is reported where it is."""
    from .config_keys import key_name, norm

    words = {w for w in norm(key_name(key)).split("_") if len(w) >= 3}
    text = f"{f.snippet} {f.message} {getattr(rule, 'title', '')}".lower()
    return bool(words & set(re.findall(r"[a-z0-9]+", text)))


def _import_statement(f) -> bool:
    """The finding is an import statement (`from apex import amp`): the one finding of its library in the file."""
    return re.match(r"\s*(?:from\s+\S+\s+)?import\s", f.snippet or "") is not None


def _reported_partner(f, key: str, block: tuple, items: list, reads, toggles: dict, crel: str,
                      present: dict) -> bool:
    """Another config key J that the switched place needs as well (`if cfg.adapter == "lora" and
    cfg.load_in_8bit:`, or an enclosing condition: `if cfg.flash_attention:` around `if not cfg.sample_packing:`)
    is set true in the same config file, on a line that already holds a finding of the category (the catalogue's
    own `load_in_8bit: true`, `flash_attention: true`). The feature is reported there; this key only selects
    among the arms or variants of it (both arms of axolotl's `sample_packing` load FlashAttention 2), and a second
    finding for the same thing would be a duplicate. Keys of an `or` (`cfg.liger_rms_norm or cfg.fused_norm`) each
    turn the feature on alone and stay reported."""
    from .config_keys import key_name, switched_by

    first, last, cond_line, cond = block
    places = [ln for ln, _ in f.places() if first <= ln <= last]
    conj = " and " in cond and " or " not in cond
    for j, a, b, how, cline, ccond, keyword in items:
        if j == key or keyword or not (how == "read" or key_name(j) in reads):
            continue
        if cline == cond_line and not (conj and ccond == cond):
            continue  # a key of the same `or` condition, or of another condition on that line
        if not any(a <= ln <= b for ln in places):
            continue
        if any(t[0].rel == crel and f.category in present.get((crel, t[1]), ()) for t in switched_by(j, toggles)):
            return True
    return False


def _used_anyway(f, blocks: list) -> bool:
    """The finding's own line and one of its other places (the folded uses of an import: `nerfacc.f(...)` all
    over a renderer) lie outside every config-guarded block (`blocks`: the places of the file's findings under
    such a condition): the code needs the feature whatever the config says, so one more use under
    `if cfg.return_comp_normal:` is no switch that turns it on. (Places under other keys' conditions are
    switched too: two Liger imports under two keys, folded into one finding.)"""
    def inside(ln: int) -> bool:
        return any(a <= ln <= b for a, b in blocks)
    return not inside(f.line) and any(not inside(ln) for ln, _ in f.places() if ln != f.line)


def _writes_key(f, key: str, cond: str) -> bool:
    """The finding is the code writing the key itself (`config._attn_implementation = "flash_attention_2"` under
    `if config._attn_implementation != "flash_attention_2":`): it overrides the setting whatever the setting says,
    so no setting of the key turns it on. Only under a condition that compares the key with a value: under a plain
    truth test (`if args.allow_tf32: torch.backends.cuda.matmul.allow_tf32 = True`) the key is the switch."""
    if "==" not in cond and "!=" not in cond:
        return False
    pat = rf"""(?:\.|\[\s*["'])_*{re.escape(key)}(?:["']\s*\])?\s*=(?!=)"""
    return re.search(pat, f.snippet or "", re.I) is not None


def _python_table(files, summaries, cache, digests):
    """({rel: switches}, keys the project reads from a config by name), from the Python summaries; kept in the
    result cache under the Python files' digests (a config edit re-joins without unpacking any)."""
    from ..cache import StepMemo
    from .report import _unpack

    memo = StepMemo(cache, "config-switches")
    key = memo.key(files, digests)
    stored = memo.get(key)
    if isinstance(stored, dict) and isinstance(stored.get("switches"), dict) and isinstance(stored.get("reads"), list) \
            and isinstance(stored.get("options"), dict) and isinstance(stored.get("handed"), dict):
        sw, reads = {}, set()
        for rel, items in stored["switches"].items():
            got, _ = _valid_python({"switches": items})
            sw[rel] = [tuple(x) for x in got]
        reads = {k for k in stored["reads"] if isinstance(k, str)}
        opts = {rel: items for rel, items in stored["options"].items() if config_switches_valid(items)}
        kept = {p: [k for k in ks if isinstance(k, str)] for p, ks in stored["handed"].items()
                if isinstance(ks, list)}
        return sw, reads, opts, kept
    sw, reads, opts = {}, set(), {}
    handed: dict = {}
    for sf, packed in zip(files, summaries):
        if packed is None or sf.kind != "python":
            continue
        s = _unpack(sf.rel, packed) or {}
        items, keys = _valid_python(s)
        if items:
            sw[sf.rel] = [tuple(x) for x in items]
        reads.update(keys)
        for pair in s.get("cfghanded") or ():
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair):
                handed.setdefault(pair[0], [])
                if pair[1] not in handed[pair[0]]:
                    handed[pair[0]].append(pair[1])
        got = s.get("optswitches") or []
        if got and config_switches_valid(got):
            opts[sf.rel] = got
    memo.put(key, {"switches": {r: [list(x) for x in v] for r, v in sw.items()}, "reads": sorted(reads),
                   "options": opts, "handed": handed})
    return sw, reads, opts, handed


def _other_branch(option_rel: str, rel: str) -> bool:
    """The Python file holding an option's default sits in a folder neither above nor below the folder of the code
    the option would switch: in a repository of several programs (NLP_pytorch_project's `Text_Classification/DPCNN/`
    beside `Distillation/tiny_bert/`, fresh76) another program's `--do_train default=True` is not this one's
    setting. A module of the code's folder, of a folder above it (`from config import set_args` of a script) or
    below it (`options/train_options.py` of a root train.py) may be."""
    a = option_rel.rsplit("/", 1)[0] if "/" in option_rel else ""
    b = rel.rsplit("/", 1)[0] if "/" in rel else ""
    return not (a == b or not a or not b or b.startswith(a + "/") or a.startswith(b + "/"))


def _other_programs(files: list, values: dict, read_lines):
    """sf -> the project Python files a shell launcher's flags must not switch: the namesakes of the programs it
    launches. A monorepo holds several `generate.py` or `train.py`; `python generate.py --compile_prefill` in
    `scripts/speculate.sh` runs the one its path names (from the script's folder or the repository root), so a
    `generate.py` elsewhere that reads the same key is another program. Code the launched program imports is not
    a namesake and stays joined; a launcher whose programs do not all resolve (a variable, a framework launcher)
    excludes nothing."""
    from .launched import launched_programs as _targets

    py = [sf.rel for sf in files if sf.kind == "python"]
    launchers = frozenset(values.get("launcher-fp16-framework-launchers", ()))
    memo: dict = {}

    def others(sf) -> frozenset:
        if sf.kind != "shell" or read_lines is None:
            return frozenset()
        if sf.rel not in memo:
            targets = _targets(sf.rel, "\n".join(read_lines(sf)), py, launchers) or []
            names = {PurePosixPath(t).name for t in targets}
            memo[sf.rel] = frozenset(r for r in py if PurePosixPath(r).name in names and r not in targets)
        return memo[sf.rel]

    return others
