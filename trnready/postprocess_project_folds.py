"""Rules whose findings across the whole project are one thing to change (a report step).

MMCV's fp16 machinery is switched on in one place (`wrap_fp16_model`, `Fp16OptimizerHook`, which a config's `fp16 =
dict(...)` asks for) and otherwise sits in `@auto_fp16` / `@force_fp32` decorators, which do nothing until it is. The
port turns it off there and wraps the step in a Neuron autocast; no decorator needs an edit. Reported apart, each
decorated head was an item of its own: twelve of the sixteen decorator findings in the fresh55 sample (an mmdetection
fork) were judged duplicates of the switch, the other four CPU unit tests of the decorators. Findings of
`one-per-project-rules` (TRN257) fold into one: the first switch (a finding whose line is no decorator) of the project's
source, else of another scope, else the first decorator; the others, and their own places, become its places. Guarded
and suppressed findings stay.
"""
from __future__ import annotations

from dataclasses import replace

from .postprocess_folds import refold


def _decorator(f) -> bool:
    return (f.snippet or "").lstrip().startswith("@")


def one_per_project(findings: list, rules: frozenset) -> list:
    if not rules:
        return findings
    groups: dict = {}
    for f in findings:
        if f.rule in rules and not f.guarded and not f.suppressed:
            groups.setdefault(f.rule, []).append(f)
    return fold_ordered(findings, [sorted(group, key=lambda f: (_decorator(f), f.scope != "source", f.path, f.line,
                                                                 f.column))
                                   for group in groups.values() if len(group) >= 2])


def fold_ordered(findings: list, groups: list) -> list:
    """Each group (a list of findings, the one to keep first) becomes its first finding, the others its places."""
    folded: dict = {}
    gone: set = set()
    for ordered in groups:
        folded[id(ordered[0])] = ordered[1:]
        gone.update(id(f) for f in ordered[1:])
    if not folded:
        return findings
    return refold(findings, folded, gone, _with_places)


def _with_places(f, others: list):
    places = []
    for o in others:
        places.append((o.path, o.line, o.column, o.rule))
        places.extend((o.path, line, column, rule) for line, column, rule in o.occurrences)
        places.extend(o.elsewhere)
    here = tuple((line, column, rule) for path, line, column, rule in places if path == f.path)
    away = tuple(p for p in places if p[0] != f.path)
    files = sorted({p[0] for p in away})
    more = f"; also at {len(places)} more place(s)" + (f" in {len(files)} other file(s)" if files else "")
    return replace(f, occurrences=tuple(dict.fromkeys((*f.occurrences, *here))),
                   elsewhere=tuple(dict.fromkeys((*f.elsewhere, *away))), message=f.message + more)
