"""Command-line option defaults that switch a feature on: the Python half of the settings of
project/config_switches.py.

`parser.add_argument("--use_fp16", type=bool_flag, default=True)` then `if args.use_fp16: amp.initialize(...)`:
a run that passes no flag takes the default, so the default is the setting that turns the CUDA AMP path on, as
`use_fp16: true` in a training config or `--use_fp16 true` on a launcher's command line would. Per Python file,
in the per-file pass, the defaults of `add_argument` calls are noted in the summary as `optswitches`
[[line, col, end col, key, shown]], in the form config_keys.true_switches gives a config's settings: a default
True (or a true word) as the key, a word default (`default='O1'`) as `key=O1`. The join (config_switches.py)
reports one at the default's value when its key turns on a finding of [context.values] config-switch-categories.
A default False, None, a number (but 1 for an option whose choices are 0 and 1: an integer switch) or a computed
value switches nothing on; an option whose key is generic
([context.values] config-switch-generic-keys) is not noted.
"""
from __future__ import annotations

import ast

from .config_keys import FALSE, TRUE, VALUE_WORD, norm
from ..astwalk import walk

MAX_OPTIONS = 200


def option_switches(tree, text: str, values: dict | None, calls: list | None = None) -> list:
    """`calls`: the indexer's list of the file's calls, when it made one (no walk of the tree then)."""
    if tree is None or "add_argument" not in text:
        return []
    generic = {norm(k) for k in (values or {}).get("config-switch-generic-keys", ())}
    out: list = []
    for node in calls if calls is not None else walk(tree):
        if type(node) is not ast.Call or not isinstance(node.func, ast.Attribute) \
                or node.func.attr != "add_argument":
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        default = kw.get("default")
        if not isinstance(default, ast.Constant):
            continue
        name = _dest(node, kw)
        if name is None or name in generic or not name.isidentifier():
            continue
        v = default.value
        if v is True or (isinstance(v, str) and v.strip().lower() in TRUE) or (v == 1 and _zero_or_one(kw)):
            key = name
        elif isinstance(v, str) and v.strip().lower() not in FALSE and VALUE_WORD.fullmatch(v.strip()):
            key = f"{name}={v.strip()}"
        else:
            continue
        shown = f"{_flag(node) or name} default={ast.unparse(default)}"
        out.append([default.lineno, default.col_offset + 1, (default.end_col_offset or default.col_offset) + 1,
                    key, shown])
        if len(out) >= MAX_OPTIONS:
            break
    return sorted(out)  # in the file's order, whichever way the calls were gathered


def _zero_or_one(kw: dict) -> bool:
    """`choices=[0, 1]`: an integer option that is a switch (CroCo's `--amp`, `type=int, default=1, choices=[0,1]`, read
    as `enabled=bool(args.amp)`), so its default 1 is a true default."""
    choices = kw.get("choices")
    if not isinstance(choices, (ast.List, ast.Tuple, ast.Set)):
        return False
    values = {e.value for e in choices.elts if type(e) is ast.Constant and type(e.value) is int}
    return values == {0, 1} and len(choices.elts) == 2


def _flag(node: ast.Call) -> str | None:
    """The option as written: the first long form (`--amp-opt-level`), else the first string given."""
    names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return next((n for n in names if n.startswith("--")), names[0] if names else None)


def _dest(node: ast.Call, kw: dict) -> str | None:
    """The attribute argparse stores the option under: `dest=`, else the first long option, else the first."""
    d = kw.get("dest")
    if isinstance(d, ast.Constant) and isinstance(d.value, str):
        return norm(d.value)
    flag = _flag(node)
    if flag is None:
        return None
    return norm(flag.lstrip("-")) or None
