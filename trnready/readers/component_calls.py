"""A config node that names the class or function it builds is a call of it.

Hydra's `_target_`, torchtune's `_component_` and Lightning CLI's `class_path` hand the node's other keys
(under `init_args` for Lightning CLI) to the named callable as keyword arguments. So

    trainer:
      _target_: pytorch_lightning.Trainer
      gpus: -1
      benchmark: true

is `pytorch_lightning.Trainer(gpus=-1, benchmark=True)`, and the catalogue's call matchers with argument
predicates apply to it exactly as they do to the Python call. Values are read as YAML scalars; an
interpolation (`${setup.precision}`), a nested node or a list is a value the reader cannot know, and a
predicate asking for a particular value never holds on it (never guessed).
"""
from __future__ import annotations

import re

from ..arg_predicates import holds
from ..resolve import LIST
from ..values import UNKNOWN
from .emit import Emitter, msg
from .outline import Entry

COMPONENT_KEYS = ("_component_", "_target_", "class_path")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?$")
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_NULL = frozenset({"null", "Null", "NULL", "~", ""})


def scalar(text: str):
    """A YAML scalar's value as a call argument would hold it; an interpolation is unknown."""
    t = text.strip()
    if "${" in t:
        return UNKNOWN
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    if t in _NULL:
        return None
    if _INT.match(t):
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    return t


def _arguments(entries: list[Entry], base: tuple) -> dict:
    """keyword -> (values, line, col, end_col) of the keys directly under `base` (sequence items included)."""
    args: dict = {}
    n = len(base) + 1
    for e in entries:
        p = e.path
        if len(p) != n or p[:-1] != base or p[-1].startswith("_") or p[-1] in COMPONENT_KEYS:
            continue
        key = p[-1]
        if e.value is None:  # the key itself: nested content unless a scalar follows
            args.setdefault(key, ([UNKNOWN], e.line, e.col, e.end_col))
        elif e.in_list:  # `device_ids: [0, 1]`: a list, reported at its key
            args[key] = ([LIST],) + args[key][1:] if key in args else ([LIST], e.key_line, e.col, e.end_col)
        else:
            args[key] = ([scalar(e.value)], e.line, e.col, e.end_col)
    return args


def components(entries: list[Entry]):
    """(entry, dotted path) of each component key holding a dotted Python path (`_target_: torch.nn.Upsample`)."""
    for e in entries:
        if e.value is not None and e.key in COMPONENT_KEYS and _DOTTED.match(e.value.strip()):
            yield e, e.value.strip()


def component_call_findings(entries: list[Entry], lines: list[str], engine, em: Emitter) -> None:
    """Each component node's call matchers with argument predicates, tested as the Python matcher tests them."""
    for e, target in components(entries):
        matchers = [(r, m) for r, m in engine.calls.get(engine.resolver.canonical(target), ()) if m.args]
        if not matchers:
            continue
        node = e.path[:-1]
        args = _arguments(entries, node + ("init_args",) if e.key == "class_path" else node)
        for rule, m in matchers:
            at = None
            for p in m.args:
                got = args.get(p.name) if p.name else None
                # as the Python matcher reads an argument left out: its default when the catalogue gives one
                passed, values = (True, got[0]) if got is not None else \
                    (False, [p.default] if p.has_default else [])
                if not holds(p, passed, values):
                    break
                if got is not None and at is None and p.op != "absent":
                    at = got
            else:
                line, col, end_col = (at[1], at[2], at[3]) if at else (e.line, e.col, e.end_col)
                snippet = lines[line - 1] if 0 < line <= len(lines) else ""
                shown = snippet.strip() if at else f"{e.key}: {target}"
                em.add(rule, m, line, col, end_col, snippet, msg(rule, m, shown), shown)
