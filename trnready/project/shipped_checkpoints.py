"""Checkpoints the repository ships, loaded by a literal path: where their tensors were saved is in the file.

`torch.load` without a map_location fails on a host without CUDA only when the file holds CUDA storages. Most
checkpoints are downloaded, and the scanner cannot know; but some repositories ship them (facenet-pytorch's
`data/pnet.pt`, loaded as `torch.load(os.path.join(os.path.dirname(__file__), '../data/pnet.pt'))`; ESPNet's
`pretrained/encoder/*.pth`). The storage location of every tensor is written into the file's pickle as a string
(`'cpu'`, `'cuda:0'`): read without unpickling anything, it settles the question. A load of a shipped file whose
storages are all on the CPU restores nothing to CUDA and is guarded (`guarded_by` "cpu-saved-checkpoint"); one
with a CUDA storage stays, as does any load whose path is not a literal naming a file of the scan.

The path is followed only as far as it is written down: a string literal, `os.path.join(...)` of literals and
`os.path.dirname(__file__)` (nested `dirname`s and `os.path.abspath` too), or a local name bound once, before the
call, in the same function, to such an expression. The file must lie inside the scanned root, be a zip archive
(PyTorch 1.6+: its `*/data.pkl` member is read) or a legacy pickle (its first MAX_HEAD bytes are read, where the
storages' locations precede their data); a Git LFS pointer or anything else is left alone.
"""
from __future__ import annotations

import ast
import os
import re
import zipfile
from dataclasses import replace
from pathlib import Path

from .syntax import dotted, parsed_once

REASON = "cpu-saved-checkpoint"
MAX_HEAD = 4 << 20  # bytes of a legacy checkpoint read: its object pickle, with every storage's location, comes first
MAX_PICKLE = 64 << 20  # the largest data.pkl member read from a zip checkpoint
# a storage location pickled as a string: BINUNICODE (protocol 2, `X` + 4-byte length) or SHORT_BINUNICODE (4+)
_CPU = re.compile(rb"X\x03\x00\x00\x00cpu|\x8c\x03cpu")
_CUDA = re.compile(rb"X[\x04-\x08]\x00\x00\x00cuda|\x8c[\x04-\x08]cuda")
# a string literal naming a file with a checkpoint's suffix: the only paths this step can follow
_FILE_WORD = re.compile(r"""['"][^'"\n]*\w\.(?:pt|pth|pkl|pickle|ckpt|bin|tar|model|weights|t7|npz)['"]""", re.I)


def guard_cpu_checkpoints(findings: list, root, read_text, rules) -> list:
    """Guard the `rules` findings (torch.load without map_location) that load a checkpoint of the scan whose
    storages are all on the CPU. `read_text(rel)`: a scanned Python file's text or None."""
    todo = open_loads(findings, rules)
    if not todo:
        return findings
    base = Path(root).resolve()
    judged: dict = {}
    cpu = set()
    by_file: dict = {}
    for f in todo:
        by_file.setdefault(f.path, []).append(f)
    for rel, mine in by_file.items():
        text = read_text(rel)
        if not text or not _FILE_WORD.search(text):
            continue  # no literal names a checkpoint file: nothing to look up (most files; no second parse)
        # one parse per file, dropped before the next: a project's trees are not kept alive together
        tree = parsed_once({}, rel, text)
        if tree is None:
            continue
        folder = (base / rel).parent
        for f in mine:
            target = _load_path(tree, f.line, f.column)
            if target is None:
                continue
            for cand in (folder / target, base / target):
                try:
                    real = cand.resolve()
                except (OSError, RuntimeError):
                    continue
                if not real.is_relative_to(base) or not real.is_file():
                    continue
                if real not in judged:
                    judged[real] = storage_devices(real)
                if judged[real] == {"cpu"}:
                    cpu.add(id(f))
                break
    if not cpu:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON) if id(f) in cpu else f for f in findings]


def open_loads(findings: list, rules) -> list:
    """The `rules` findings of Python files (not notebook cells) still reported: the loads a step may settle."""
    return [f for f in findings if f.rule in rules and not f.guarded and not f.suppressed and f.cell is None
            and f.path.endswith(".py")]


def storage_devices(path: Path) -> set | None:
    """{"cpu"}, {"cuda"}, {"cpu", "cuda"}: where the checkpoint's storages were saved; None when unknown (not a
    checkpoint this reads, unreadable, or no location found)."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                member = next((i for i in z.infolist() if i.filename.endswith("/data.pkl")
                               or i.filename == "data.pkl"), None)
                if member is None or member.file_size > MAX_PICKLE:
                    return None
                data = z.read(member)
        else:
            with open(path, "rb") as fh:
                data = fh.read(MAX_HEAD)
            if not data.startswith(b"\x80"):  # not a pickle (a Git LFS pointer, text, another format)
                return None
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
        return None
    found = set()
    if _CPU.search(data):
        found.add("cpu")
    if _CUDA.search(data):
        found.add("cuda")
    return found or None


def load_call(tree, line: int, column: int):
    """(innermost function holding it, or the tree; the file argument or None) of the torch.load call at (line,
    column: 1-based), or None when the line holds no load."""
    call = None
    owner = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or 0):
            if owner is tree or node.lineno >= owner.lineno:
                owner = node
        if type(node) is ast.Call and node.lineno == line and _is_load(node) and (call is None or
                                                                                 node.col_offset + 1 <= column):
            call = node
    if call is None:
        return None
    return owner, call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "f"), None)


def _load_path(tree, line: int, column: int) -> str | None:
    """The relative path the torch.load call at (line, column: 1-based) reads, when it is written down."""
    found = load_call(tree, line, column)
    if found is None:
        return None
    owner, arg = found
    if type(arg) is ast.Name:
        arg = bound_once(owner, arg.id, line)
    return _literal_path(arg) if arg is not None else None


def _is_load(node: ast.Call) -> bool:
    f = node.func
    return (type(f) is ast.Attribute and f.attr == "load") or (type(f) is ast.Name and f.id == "load")


def bound_once(owner, name: str, line: int):
    """The value of the one assignment binding `name` in the function (or module) before `line`."""
    values = []
    for node in ast.walk(owner):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = node.targets if type(node) is ast.Assign else [getattr(node, "target", None)]
            if any(type(t) is ast.Name and t.id == name for t in targets):
                if type(node) is not ast.Assign or node.lineno >= line:
                    return None
                values.append(node.value)
    return values[0] if len(values) == 1 else None


def _literal_path(node) -> str | None:
    """`'data/x.pt'`, `os.path.join(os.path.dirname(__file__), '../data/x.pt')` -> the path relative to the file's
    folder (or the root); None for anything else."""
    if type(node) is ast.Constant and isinstance(node.value, str) and node.value.strip():
        return node.value
    if type(node) is ast.Call and _name(node.func) in ("os.path.join", "osp.join", "path.join") and node.args:
        parts = list(node.args)
        if _here(parts[0]):
            parts = parts[1:]
        words = [p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)]
        if parts and len(words) == len(parts):
            return os.path.join(*words)
    return None


def _here(node) -> bool:
    """`os.path.dirname(__file__)`, also under `os.path.abspath` / `os.path.realpath`."""
    if type(node) is not ast.Call or not node.args:
        return False
    name = _name(node.func)
    inner = node.args[0]
    if name in ("os.path.abspath", "os.path.realpath", "osp.abspath", "osp.realpath"):
        return _here(inner) or (type(inner) is ast.Name and inner.id == "__file__")
    if name in ("os.path.dirname", "osp.dirname"):
        return (type(inner) is ast.Name and inner.id == "__file__") or (
            type(inner) is ast.Call and _name(inner.func) in ("os.path.abspath", "os.path.realpath",
                                                                  "osp.abspath", "osp.realpath")
            and bool(inner.args) and type(inner.args[0]) is ast.Name and inner.args[0].id == "__file__")
    return False


def _name(node) -> str:
    return dotted(node) or ""
