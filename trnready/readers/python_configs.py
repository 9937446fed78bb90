"""Python config modules read as training configs.

mmcv / mmengine-style projects (PixArt-alpha, the OpenMMLab family) write their training configs as Python
modules that do nothing but assign values: `mixed_precision = 'fp16'`, `dist_params = dict(backend='nccl')`.
`Config.fromfile` turns the module's top-level names into the keys of a config object the training script reads
(`Accelerator(mixed_precision=config.mixed_precision)`), exactly as a YAML recipe's keys are read. Such a module's
assignments are entries for the catalogue's `setting` matchers of role `config`, and its setting findings carry
the same notes for project/config_keys.py: a key no Python of the project names is guarded there.

A module counts when it sits in a config folder (the folders readers/configs.py accepts: `configs/`, `config/`,
...), its top level holds only imports, assignments (also augmented: `accumulative_counts *= sp_size`, and `if`
blocks holding only assignments) and docstrings (no `def`, no `class`, no calls other than inside an assigned value),
and it either names a base config (`_base_ = [...]`), is one (it sits in a `_base_`
folder: `configs/_base_/default_runtime.py`, which other configs list in their `_base_`), or assigns two of the
top-level keys only training configs use (`readers.configs.TRAINING_KEYS`). Values are read when literal: constants, and
`dict(k=v)` calls and `{"k": v}` displays nested to any depth; lists are not followed (a list of transforms or
of stages is no setting). An assignment to an attribute (`cfg.TRAINER.SEED = 1`) is not a key here: yacs
defaults (`_C.X = ...` on a `CfgNode()`) are read by readers/yacs_configs.py.
"""
from __future__ import annotations

import ast

from .config_dirs import in_config_dir
from .configs import TRAINING_KEYS, setting_findings
from .dataclass_settings import _text  # the value as a config file writes it
from .emit import Emitter
from .outline import Entry

_ALLOWED = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Expr, ast.AugAssign, ast.If)
# An `if` of a config module may only assign (xtuner: `if use_varlen_attn: custom_hooks += [...]`); mmengine's Config
# runs the module, so arithmetic on its own names (`accumulative_counts *= sequence_parallel_size`) is still a config.
_ASSIGNS = (ast.Assign, ast.AnnAssign, ast.AugAssign)


def _only_assigns(st: ast.If) -> bool:
    return all(isinstance(s, _ASSIGNS) or (isinstance(s, ast.If) and _only_assigns(s)) for s in st.body + st.orelse)
MAX_ENTRIES = 2000


def may_be_config_module(rel: str, text: str) -> bool:
    """A cheap test before parsing: a Python file in a config folder with no def or class statement."""
    return in_config_dir(rel) and defines_nothing(text)


def defines_nothing(text: str) -> bool:
    """No `def` or `class` statement at the top of the module (its text, before any parse)."""
    return "\ndef " not in text and "\nclass " not in text and not text.startswith(("def ", "class "))


def config_shaped(rel: str, tops: list | None) -> bool:
    """Top-level names (`_tops`) of a training config: it names a base config (`_base_ = [...]`), is one (it sits in a
    `_base_` folder), or assigns two of the keys only training configs use."""
    return tops is not None and ("_base_" in tops or "_base_" in rel.split("/")[:-1]
                                 or len({t.lower() for t in tops} & TRAINING_KEYS) >= 2)


def config_module_findings(ctx, tree: ast.Module, found=()) -> tuple[list, list, list]:
    """(findings, setting notes [line, rule, keys], top-level names) of a config module; empty when not one.
    `found`: the file's findings from the Python pass; a line holding one of a rule keeps it alone (`dict(backend=
    'nccl')` is already the keyword finding of the call), with the setting's note, so project/config_keys.py judges
    it like any setting (a node no code of the project names is unread)."""
    if tree is None or not may_be_config_module(ctx.rel, ctx.text):
        return [], [], []
    engine = ctx.engine
    if not any(m.role == "config" for _r, m in engine.surface.get("setting", ())):
        return [], [], []
    tops = _tops(tree)
    if not config_shaped(ctx.rel, tops):
        return [], [], []
    lines = ctx.text.splitlines()
    entries: list = []
    for st in tree.body:
        if isinstance(st, ast.Assign) and st.value is not None:
            for t in st.targets:
                if isinstance(t, ast.Name):
                    _entries((t.id,), st.value, lines, entries)
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            _entries((st.target.id,), st.value, lines, entries)
    return emit_settings(ctx, engine, entries, tops, lines, found)


def emit_settings(ctx, engine, entries: list, tops, lines: list, found=(),
                  roles=("config",)) -> tuple[list, list, list]:
    """(findings, setting notes, top-level key names) of a Python module's config entries, through the `setting`
    rules of `roles`; a line already holding a finding of a rule from the Python pass keeps it alone."""
    if not entries:
        return [], [], []
    em = Emitter(ctx.rel)
    em.seen = {(f.path, f.cell, f.rule, f.line) for f in found}  # one finding per rule and line
    notes: list | None = [] if getattr(engine, "link", False) else None
    for role in roles:
        setting_findings(entries, role, lines, engine, em, ctx.rel, notes)
    from ..project.config_keys import norm

    names = sorted({norm(k) for k in tops if norm(k).isidentifier()})[:200]
    return em.out, notes or [], names


def _tops(tree: ast.Module) -> list | None:
    """The module's top-level assigned names, or None when it does more than assign (a def, a class, a loop)."""
    names: list = []
    for st in tree.body:
        if not isinstance(st, _ALLOWED):
            return None
        if isinstance(st, ast.Expr) and not isinstance(st.value, ast.Constant):
            return None  # a bare call (`main()`, `setup()`): a script, not a config
        if isinstance(st, ast.If) and not _only_assigns(st):
            return None  # `if __name__ == "__main__": main()`
        if isinstance(st, ast.Assign):
            names.extend(t.id for t in st.targets if isinstance(t, ast.Name))
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            names.append(st.target.id)
    return names


def _entries(keys: tuple, node, lines: list, out: list) -> None:
    if len(out) >= MAX_ENTRIES or len(keys) > 12:
        return
    pairs = _mapping(node)
    if pairs is not None:
        line = node.lineno
        out.append(Entry(keys, None, line, _col(lines, line, node.col_offset), _col(lines, line, node.col_offset),
                         key_line=line))
        for k, v in pairs:
            _entries((*keys, k), v, lines, out)
        return
    if isinstance(node, ast.Constant):
        text = _text(node.value)
        if text is None:
            return
        line = node.lineno
        end = _col(lines, line, node.end_col_offset or node.col_offset) if node.end_lineno == line else \
            len(lines[line - 1]) + 1 if 0 < line <= len(lines) else 1
        out.append(Entry(keys, text, line, _col(lines, line, node.col_offset), end, key_line=line))


def _mapping(node):
    """[(key, value node)] of `dict(k=v, ...)` or `{"k": v, ...}`; None for anything else."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        return [(k.arg, k.value) for k in node.keywords if k.arg]
    if isinstance(node, ast.Dict):
        return [(k.value, v) for k, v in zip(node.keys, node.values)
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value]
    return None


def _col(lines: list, line: int, byte_offset: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if text.isascii():
        return byte_offset + 1
    return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1
