"""INI training configs (`defaults.ini` of prefigure / argparse-from-ini projects) read as training configs.

stable-audio-tools and the projects built on `prefigure` keep their training defaults in an INI file (`[DEFAULTS]`
then `precision = "16-mixed"`, `batch_size = 4`); the training script turns each key into an argument and hands it
to the Lightning Trainer. Such a file's keys are entries for the catalogue's `setting` matchers of role `config`,
as a YAML recipe's are. Section names are not part of the key (each section is a group of arguments), and a file is
a config exactly as readers/configs.py decides for YAML: two top-level keys only training configs use, or one in a
config folder. Tool settings (`tox.ini`, `pytest.ini`, `mypy.ini`, flake8) hold none of those keys and give nothing.
"""
from __future__ import annotations

import re

from .configs import role_of, setting_findings
from .context import FileContext, ReadResult, Source
from .emit import Emitter
from .outline import Entry
from ..filekinds import comments

MAX_ENTRIES = 2000
_KEY_VALUE = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)\s*[=:]\s*(?P<value>.*?)\s*$")


def _unquote(value: str) -> tuple[str, int]:
    """The value without its quotes, and how many characters the opening quote took."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1], 1
    return value, 0


def ini_entries(text: str) -> list[Entry]:
    """One entry per `key = value` line (continuation lines and comments skipped), keyed by the key alone."""
    out: list[Entry] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw or raw[0] in " \t;#[":  # continuation, comment or section header
            continue
        m = _KEY_VALUE.match(raw)
        if m is None:
            continue
        value = re.sub(r"\s+[;#].*$", "", m.group("value"))  # an inline comment after whitespace
        body, q = _unquote(value)
        col = m.start("value") + 1 + q
        key = m.group("key")
        out.append(Entry((key,), None, n, 1, len(key) + 1, key_line=n))  # the key, as the YAML outline gives it
        out.append(Entry((key,), body, n, col, col + len(body), key_line=n))
        if len(out) >= MAX_ENTRIES:
            break
    return out


def read(ctx: FileContext) -> ReadResult:
    return keyed_config(ctx, ini_entries(ctx.text))


def keyed_config(ctx: FileContext, entries: list[Entry]) -> ReadResult:
    """The `setting` findings of a file read as keys (INI, TOML) when it is a training config by the YAML rule."""
    source = [Source(ctx.text, comments(ctx.kind))]
    if not entries or role_of(ctx.rel, entries) != "config":
        return ReadResult([], None, source)
    em = Emitter(ctx.rel)
    setting_findings(entries, "config", ctx.text.splitlines(), ctx.engine, em, ctx.rel)
    return ReadResult(em.out, None, source)
