"""Fields of a training-arguments dataclass read as the settings of a training config.

`@dataclass class TrainingArguments(transformers.Seq2SeqTrainingArguments): optim: str =
field(default="paged_adamw_32bit")` is the same training argument a YAML recipe sets with `optim:
paged_adamw_32bit`: `HfArgumentParser` turns every field into a command-line flag whose default is the field's
default, so a run that does not pass the flag uses it. Each field of such a class with a literal default (written
`name: T = value` or `name: T = field(default=value)`, or an unannotated class attribute `name = value`, which the
config object carries all the same: MetaCLIP's `@dataclass class Config: dist_backend = "nccl"`) is an entry for
the catalogue's `setting` matchers of role `config`, exactly as a config file's key would be; `with-setting` /
`without-setting` look at the other fields of the same class. A dataclass lists every option with its default,
where a config file holds what its author chose, so only settings named in full count: a glob (`te_*`,
`*_backend`) would also take the sub-options of a feature that is off (`te_fp8_wgrad: bool = True` next to
`te_mha: bool = False`).

A class counts when it is a dataclass (`@dataclass`, `@dataclasses.dataclass(...)`) and either subclasses a
`...TrainingArguments` class or has at least two fields named like the top-level keys only training configs use
(`readers.configs.TRAINING_KEYS`: `output_dir`, `learning_rate`, `per_device_train_batch_size`, ...), the test a
YAML file passes to be read as a config. A field the Python pass already reads as a default (a keyword matcher
with `defaults = true`, such as `attn_implementation`, or a device-like name) is left to it.
"""
from __future__ import annotations

import ast

from .configs import TRAINING_KEYS, setting_findings
from .emit import Emitter
from .outline import Entry

_FIELD_CALLS = frozenset({"field", "Field"})  # dataclasses.field, pydantic.Field: both take default=


def dataclass_setting_findings(ctx, tree: ast.Module) -> list:
    if "dataclass" not in ctx.text:
        return []
    engine = ctx.engine
    if not any(m.role == "config" for _r, m in engine.surface.get("setting", ())):
        return []
    lines = ctx.text.splitlines()
    em = Emitter(ctx.rel)
    for cls in _classes(tree.body):
        entries = _entries(cls, lines, engine)
        if entries:
            setting_findings(entries, "config", lines, engine, em, ctx.rel)
    return em.out


def _classes(body):
    """Module-level classes (also under `if`/`try`) and the classes nested in them."""
    for st in body:
        if isinstance(st, ast.ClassDef):
            yield st
            yield from _classes(st.body)
        elif isinstance(st, ast.If):
            yield from _classes(st.body)
            yield from _classes(st.orelse)
        elif isinstance(st, ast.Try):
            yield from _classes(st.body)


def _tail(node) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _entries(cls: ast.ClassDef, lines: list, engine) -> list:
    if not any(_tail(d) == "dataclass" for d in cls.decorator_list):
        return []
    fields = []
    for st in cls.body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            value = _default(st.value)
            if value is not None:
                fields.append((st.target.id, value))
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and isinstance(st.value, ast.Constant):
            # an unannotated class attribute (`dist_backend = "nccl"`): not a dataclass field, but the same
            # setting read off the config object (`args.dist_backend`), in subclasses overriding it too
            fields.append((st.targets[0].id, st.value))
    if not fields:
        return []
    arguments = any(_tail(b).endswith("TrainingArguments") for b in cls.bases)
    if not arguments and sum(name.lower() in TRAINING_KEYS for name, _ in fields) < 2:
        return []
    from ..index import device_like

    devices = engine.interest.device_keywords
    exact = _exact_names(engine)
    out = []
    for name, node in fields:
        key = name.lstrip("_") or name
        if key.lower() not in exact:
            # only settings named in full: a glob such as `te_*` also takes sub-options left at their default
            continue
        if any(m.defaults for _r, m in engine.keywords.get(key, ())) or (devices and device_like(key, devices)):
            continue  # the Python pass reads this field as a default (keyword matchers with `defaults`, devices)
        text = _text(node.value)
        if text is None:
            continue
        line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
        col = _column(line, node.col_offset)
        end = _column(line, node.end_col_offset) if node.end_lineno == node.lineno else len(line) + 1
        out.append(Entry((name,), text, node.lineno, col, end, key_line=node.lineno))
    return out


def _exact_names(engine) -> frozenset:
    """Setting names of role `config` written without a glob and without a dot (`optim`, `load_in_4bit`)."""
    found = getattr(engine, "_dataclass_setting_names", None)
    if found is None:
        found = engine._dataclass_setting_names = frozenset(
            n.lower().replace("-", "_") for _r, m in engine.surface.get("setting", ()) if m.role == "config"
            for n in m.names if "." not in n and not any(c in n for c in "*?["))
    return found


def _default(value):
    """The Constant a field defaults to: `x: str = "a"`, `x: str = field(default="a", ...)`; else None."""
    if isinstance(value, ast.Call) and _tail(value.func) in _FIELD_CALLS:
        value = next((k.value for k in value.keywords if k.arg == "default"), None)
    return value if isinstance(value, ast.Constant) else None


def _text(v) -> str | None:
    """The value as a config file would write it (`true`, `4`, `paged_adamw_32bit`); None for None and bytes."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    return None


def _column(line: str, byte_offset: int) -> int:
    if line.isascii():
        return byte_offset + 1
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1
