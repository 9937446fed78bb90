"""GPU counts in training configs that only size a device call the report already holds.

mmskeleton's recipes set `gpus: 4` under `processor_cfg`, and its runner hands the value on as
`MMDataParallel(model, device_ids=range(gpus)).cuda()`. Read by auditors, such a setting was a duplicate of that
call (six of fresh48's wrong findings): the port changes the call, and the count only says how many devices it
spreads over. A setting of a rule in `count-setting-fold-rules` (TRN610's `gpus`, `num_gpus`, ...) in a file other
than Python is therefore a place of the first unguarded, unsuppressed Python finding of `count-setting-categories`
whose line names the setting's key as a word (any case: `gpus`, `args.gpus`, `cfg.GPUS`), listed in its
`elsewhere` and named in its message. A setting no such line names stays a finding of its own: a cluster or
launcher request (`gpus_per_node: 8` for submitit) is the request to port. A setting of `count-setting-place-only-rules`
(TRN616: GPU ids such as `GPUS: '0'` in the yacs configs of the MSRA pose code) is only ever a place: alone it is
dropped, since a bare `0` may as well be a count or a CPU run.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..postprocess_folds import refold

# the setting as the finding shows it: `gpus: 4`, `num_gpus=2`
_SHOWN = re.compile(r"`([A-Za-z_][\w.-]*)\s*[:=][^`]*`\s*$")
MAX_NAMED = 2


def _key(f) -> str:
    m = _SHOWN.search(f.message)
    return m.group(1).rsplit(".", 1)[-1].lower() if m else ""


def _shown(f) -> str:
    m = _SHOWN.search(f.message)
    return m.group(0).strip().strip("`") if m else ""


def _python(path: str) -> bool:
    return path.endswith((".py", ".ipynb"))


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def _words(text: str) -> set:
    return {w.lower() for w in _WORD.findall(text)}


def fold_count_settings(findings: list, rules: frozenset, categories: frozenset, read_text=None,
                        place_only: frozenset = frozenset()) -> list:
    """`read_text(rel)`: a scanned file's text or None. Of several lines naming the key, the one in the file whose
    path words (folders and stem: `processor`, `recognition`) the config mentions most is taken (mmskeleton's
    recipes name their runner, `processor.recognition.train`), then the first by path."""
    if not rules or not categories:
        return findings
    settings = [f for f in findings if f.rule in rules and not f.guarded and not f.suppressed
                and not _python(f.path) and _key(f)]
    if not settings:
        return findings
    # a place-only setting (`place_only` rules) no device line names is no finding at all
    lone = {id(s) for s in settings if s.rule in place_only}
    # (another request of the same rules is no device call: a script's own `{"gpus_per_node": 8}` for submitit is a
    # second request, not the one a Hydra launcher config makes)
    hosts = sorted((f for f in findings if f.category in categories and f.rule not in rules and not f.guarded
                    and not f.suppressed and _python(f.path) and f.snippet),
                   key=lambda f: (f.path, f.cell or 0, f.line, f.column))
    if not hosts:
        return [f for f in findings if id(f) not in lone] if lone else findings
    words: dict = {}
    folded: dict = {}  # id(host) -> [setting finding]
    for s in settings:
        key = _key(s)
        pattern = words.setdefault(key, re.compile(rf"(?<![\w]){re.escape(key)}(?![\w])", re.I))
        named = [h for h in hosts if pattern.search(h.snippet)]
        if not named:
            continue
        host = named[0]
        if len(named) > 1:  # the config is read only when several lines compete
            text = read_text(s.path) if read_text is not None else None
            said = _words(text) if text else set()
            # max() keeps the first of equal scores: the first by path
            host = max(named, key=lambda h: len(said & _words(h.path.rsplit(".", 1)[0])))
        folded.setdefault(id(host), []).append(s)
    gone = {id(s) for group in folded.values() for s in group} | lone
    if not folded and not lone:
        return findings
    return refold(findings, folded, gone, _with_counts)


def _with_counts(f, group: list):
    group = sorted(group, key=lambda s: (s.path, s.line))
    away = tuple(dict.fromkeys((*f.elsewhere, *((s.path, s.line, s.column, f.rule) for s in group))))
    named = [f"`{_shown(s)}` at {s.path}:{s.line}" for s in group[:MAX_NAMED]]
    more = len(group) - len(named)
    tail = f" and {more} more setting{'s' if more > 1 else ''}" if more else ""
    return replace(f, elsewhere=away, message=f"{f.message}; device count set by {', '.join(named)}{tail}")
