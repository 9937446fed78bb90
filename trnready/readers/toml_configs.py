"""TOML training configs (`exp/<dataset>/config.toml` of tab-ddpm, `train_configs/*.toml`) read by their keys.

Some projects keep each run's settings in a TOML file that the training script loads with `tomllib` / `tomli` and
passes on (`device = "cuda:1"` at the top, `[train.main]` with `lr`, `batch_size`). Such a file's keys are entries for
the catalogue's `setting` matchers of role `config`, as a YAML recipe's are, each under the path of its table
(`[model_params.rtdl_params]` then `dropout` is `model_params.rtdl_params.dropout`). A file is a config exactly as
readers/configs.py decides for YAML (two top-level keys only training configs use, or one in a config folder), so
tool settings (`ruff.toml`, `Cargo.toml`, `.taplo.toml`) give nothing. Packaging and environment files
(`pyproject.toml`, `pixi.toml`) are manifests and never reach this reader. Not a TOML parser: one line at a time,
never raising; multi-line arrays and strings contribute their first line only, inline tables their key.
"""
from __future__ import annotations

import re

from .context import FileContext, ReadResult
from .ini_configs import keyed_config
from .outline import Entry

MAX_ENTRIES = 2000
_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY_PART = rf"(?:{_BARE}|{_QUOTED})"
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_TABLE = re.compile(rf"^\s*\[\[?\s*(?P<name>{_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY_VALUE = re.compile(rf"^\s*(?P<key>{_DOTTED})\s*=\s*(?P<value>.*?)\s*$")
_PART = re.compile(_KEY_PART)


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p[1:-1] if p[0] in "\"'" else p for p in _PART.findall(dotted))


def _scalar(value: str) -> tuple[str, int] | None:
    """The scalar of a value (unquoted) and the offset of its text in `value`; None for an array, an inline table
    or a multi-line string, whose content is not one scalar."""
    if not value or value[0] in "[{" or value.startswith(('"""', "'''")):
        return None
    if value[0] in "\"'":
        q = value[0]
        end = value.find(q, 1)
        while q == '"' and end > 0 and value[end - 1] == "\\":
            end = value.find(q, end + 1)
        return (value[1:end], 1) if end > 0 else None
    return re.sub(r"\s+#.*$", "", value), 0


def toml_entries(text: str) -> list[Entry]:
    """One key entry per `key = value` line, and one scalar entry when the value is a single scalar, keyed by the
    path of the table it is in."""
    out: list[Entry] = []
    table: tuple[str, ...] = ()
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.lstrip()
        if not stripped or stripped[0] == "#":
            continue
        t = _TABLE.match(raw)
        if t is not None:
            table = _parts(t.group("name"))
            if len(table) == 1:  # a top-level table is a top-level key, as a YAML mapping key is
                col = raw.index(t.group("name")) + 1
                out.append(Entry(table, None, n, col, col + len(t.group("name")), key_line=n))
            continue
        m = _KEY_VALUE.match(raw)
        if m is None:
            continue
        path = table + _parts(m.group("key"))
        kcol = m.start("key") + 1
        out.append(Entry(path, None, n, kcol, kcol + len(m.group("key")), key_line=n))
        got = _scalar(m.group("value"))
        if got is not None:
            body, q = got
            col = m.start("value") + 1 + q
            out.append(Entry(path, body, n, col, col + len(body), key_line=n))
        if len(out) >= MAX_ENTRIES:
            break
    return out


def read(ctx: FileContext) -> ReadResult:
    return keyed_config(ctx, toml_entries(ctx.text))
