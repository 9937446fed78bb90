"""yacs / fvcore / detectron2 config defaults read as training configs.

SlowFast, detectron2, Swin-Transformer and InternVL keep the defaults of their training config in a Python module:
`_C = CfgNode()` (or `CN()`), then one attribute store per key, `_C.DIST_BACKEND = "nccl"`, `_C.NUM_GPUS = 1`,
`_C.TRAIN.MIXED_PRECISION = True`. `get_cfg()` clones that node and the training code reads `cfg.DIST_BACKEND`,
exactly as it would read a YAML recipe's `dist_backend: nccl` (yacs merges YAML files into the same node). Each
such store with a literal value is an entry for the catalogue's `setting` matchers of role `config`: its key path
is the attribute chain after the root (`("TRAIN", "MIXED_PRECISION")`, compared without case like YAML keys), so
the same rules fire, and its findings carry the same notes for project/config_keys.py (a key no other Python
file of the project names is guarded `config-key-unread`).

A module counts when its top level binds a name to a call of the config-node class imported from yacs, fvcore or
detectron2 (`from yacs.config import CfgNode as CN`; `_C = CN()`). Only top-level stores on such a root are read:
the `add_x_config(cfg)` functions of detectron2 projects set keys on a node they are handed, whose defaults a run
may or may not use. Values are read when literal (strings, numbers, booleans); tuples, lists and computed values
are not settings the catalogue names.
"""
from __future__ import annotations

import ast

from .dataclass_settings import _text  # the value as a config file writes it
from .outline import Entry
from .python_configs import _col, emit_settings

# modules whose `CfgNode` class builds a yacs config node (fvcore and detectron2 subclass yacs' own)
NODE_MODULES = frozenset({"yacs.config", "fvcore.common.config", "detectron2.config", "detectron2.config.config"})
MAX_ENTRIES = 4000


def may_be_yacs_defaults(text: str) -> bool:
    """A cheap test before parsing: the file names the config-node class."""
    return "CfgNode" in text


def yacs_findings(ctx, tree: ast.Module, found=()) -> tuple[list, list, list]:
    """(findings, setting notes [line, rule, keys], top-level keys) of a yacs defaults module; empty when not one.
    `found`: the file's findings from the Python pass; a line holding one of a rule keeps it alone."""
    if tree is None or not may_be_yacs_defaults(ctx.text):
        return [], [], []
    engine = ctx.engine
    if not any(m.role == "config" for _r, m in engine.surface.get("setting", ())):
        return [], [], []
    roots = node_roots(tree)
    if not roots:
        return [], [], []
    lines = ctx.text.splitlines()
    entries: list = []
    tops: set = set()
    for st in tree.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
            continue
        keys = chain(st.targets[0], roots)
        if not keys:
            continue
        tops.add(keys[0])  # `_C.TRAIN = CfgNode()` too: the code reading `cfg.TRAIN` reads this config
        if not isinstance(st.value, ast.Constant):
            continue
        text = _text(st.value.value)
        if text is None or len(entries) >= MAX_ENTRIES:
            continue
        v = st.value
        line = v.lineno
        col = _col(lines, line, v.col_offset)
        end = _col(lines, line, v.end_col_offset) if v.end_lineno == line and v.end_col_offset else col + 1
        entries.append(Entry(keys, text, line, col, end, key_line=st.lineno))
    return emit_settings(ctx, engine, entries, tops, lines, found)


def node_roots(tree: ast.Module) -> set:
    """Top-level names bound to a new config node: `_C = CfgNode()` with CfgNode imported from NODE_MODULES."""
    classes: set = set()
    modules: set = set()
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.module in NODE_MODULES and not st.level:
            classes.update(a.asname or a.name for a in st.names if a.name == "CfgNode")
        elif isinstance(st, ast.Import):
            modules.update(a.asname or a.name for a in st.names if a.name in NODE_MODULES)
    roots: set = set()
    for st in tree.body:
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Call) and _is_node_class(st.value.func, classes,
                                                                                                modules):
            roots.update(t.id for t in st.targets if isinstance(t, ast.Name))
    return roots


def _is_node_class(func, classes: set, modules: set) -> bool:
    if isinstance(func, ast.Name):
        return func.id in classes
    # `yacs.config.CfgNode()` after `import yacs.config`
    return isinstance(func, ast.Attribute) and func.attr == "CfgNode" and ast.unparse(func.value) in modules


def chain(target, roots: set) -> tuple:
    """("TRAIN", "MIXED_PRECISION") of `_C.TRAIN.MIXED_PRECISION` when `_C` is a root; () otherwise."""
    keys: list = []
    node = target
    while isinstance(node, ast.Attribute):
        keys.append(node.attr)
        node = node.value
    if not keys or not isinstance(node, ast.Name) or node.id not in roots or len(keys) > 12:
        return ()
    return tuple(reversed(keys))
