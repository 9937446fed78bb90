"""DeepSpeed configs built as Python dicts.

A training script often builds its DeepSpeed config in code instead of a ds_config.json, and hands it to
`deepspeed.initialize(config=...)` or to HF's `TrainingArguments(deepspeed=...)`:

```python
def get_train_ds_config(offload, stage=2):
    return {
        "train_micro_batch_size_per_gpu": 4,
        "zero_optimization": {"stage": stage},
        "fp16": {"enabled": True, "loss_scale_window": 100},   # float16 AMP with a loss scaler
    }
```

The engine reads that dict exactly as it reads the JSON file, so its literal values are entries for the catalogue's
`setting` matchers of role `config` (the same rules as the file: `fp16.enabled: true` is TRN254). A dict display
counts when its own keys name the DeepSpeed engine: `zero_optimization` or `train_micro_batch_size_per_gpu`, the keys
readers/configs.py takes for a DeepSpeed file. Values that are not literals (`"enabled": args.fp16`) are not read;
nested displays are (`"fp16": {"enabled": True}`), `dict(...)` calls too. A rule the file already reports (the
deepspeed import is TRN287) keeps its finding alone: one finding per rule and file, as a config file gives one.
Config modules (readers/python_configs.py) are read there, not here.
"""
from __future__ import annotations

import ast

from .configs import DS_KEYS as _DS_KEYS
MAX_DICTS = 50


def may_hold(text: str) -> bool:
    return "zero_optimization" in text or "train_micro_batch_size_per_gpu" in text


def _keys(node) -> set:
    from .python_configs import _mapping

    pairs = _mapping(node)
    return {k for k, _v in pairs} if pairs else set()


def ds_dict_findings(ctx, tree, found=()) -> list:
    """The setting findings of the DeepSpeed config dicts of a Python file, one per rule not already reported."""
    if tree is None or not may_hold(ctx.text):
        return []
    from .python_configs import _entries, emit_settings

    lines = ctx.text.splitlines()
    entries: list = []
    seen = 0
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Dict, ast.Call)) or not (_keys(node) & _DS_KEYS):
            continue
        seen += 1
        if seen > MAX_DICTS:
            break
        part: list = []
        _entries((), node, lines, part)
        entries.extend(e for e in part if e.keys)  # (the dict itself is no key)
    if not entries:
        return []
    reported = {f.rule for f in found}
    out, _notes, _names = emit_settings(ctx, ctx.engine, entries, [], lines, found, ("config", "deepspeed"))
    kept: dict = {}
    for f in sorted(out, key=lambda f: (f.line, f.column)):
        if f.rule not in reported and f.rule not in kept:
            kept[f.rule] = _from_section(f, entries, lines)
    return list(kept.values())


def _from_section(f, entries: list, lines: list):
    """A nested setting (`"fp16": {` ... `"enabled": True`) spans its dict entry from the section's key to the value,
    as a finding on any multi-line Python expression does: either line is the place to change."""
    from dataclasses import replace

    value = next((e for e in entries if e.value is not None and e.line == f.line and e.col == f.column), None)
    if value is None or len(value.keys) < 2:
        return f
    parent = next((e for e in reversed(entries) if e.value is None and e.keys == value.keys[:-1]
                   and e.line <= f.line), None)
    if parent is None or parent.line >= f.line or f.line - parent.line > 20:
        return f
    snippet = lines[parent.line - 1] if 0 < parent.line <= len(lines) else f.snippet
    return replace(f, line=parent.line, column=parent.col, end_line=f.line, snippet=snippet)
