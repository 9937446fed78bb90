"""Files the project itself writes with `torch.save` in programs that place nothing on a device.

`torch.load` without a map_location fails on a host without CUDA only when the file holds CUDA storages. When the
file name the load reads (`os.path.join(data_dir, "train.pt")`, `"norm_stats.pt"`) is one the project's own code
writes, and every `torch.save` of that name sits in a Python file that moves nothing to a device (no `.cuda()`, no
`.to(device)`, no `device=` other than the CPU, no default device set), the file holds CPU storages: a dataset or
statistics a preprocessing script built on the host (Payload_gnn's `prepare_ml_data.py`, 17 of 25 fresh83 findings
on such loads judged wrong). The load is guarded (`guarded_by` "cpu-written-file").

A load stays reported when its path names no file literally, when no scanned file saves that name, or when any file
saving it places something on a device (a training script saving its checkpoint). Only literal base names are
compared (`"train.pt"`, also inside `os.path.join(...)`, an f-string's constant tail or a name bound once before the
call in the same function): the same name written by two programs counts for both.

Cheap: nothing is read unless a TRN351 finding's line names such a file; the save search reads only the Python
files whose text holds both `save` and the name.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from ..context.base import is_cpu, places_on_device
from .shipped_checkpoints import bound_once, load_call, open_loads
from .syntax import parsed_once

REASON = "cpu-written-file"
_NAME = re.compile(r"""[\w.-]+\.(?:pt|pth|pkl|ckpt|bin|tar)$""", re.I)


def guard_cpu_written_files(findings: list, files, read_text, rules) -> list:
    """Guard the `rules` findings (torch.load without map_location) whose file the project writes only from
    programs placing nothing on a device. `read_text(rel)`: a scanned Python file's text or None."""
    todo = open_loads(findings, rules)
    if not todo:
        return findings
    wanted: dict = {}  # id(finding) -> base names its load reads
    for f in todo:
        text = read_text(f.path)
        if not text:
            continue
        tree = parsed_once({}, f.path, text)
        if tree is None:
            continue
        names = _loaded_names(tree, f.line, f.column)
        if names:
            wanted[id(f)] = names
    if not wanted:
        return findings
    asked = sorted({n for names in wanted.values() for n in names})
    spelled = re.compile("|".join(re.escape(n) for n in asked))
    savers: dict = {n: [] for n in asked}  # base name -> whether each file saving it places something
    for sf in files:  # one pass: each file's text is read once, and parsed only when it names a wanted file
        if sf.kind != "python":
            continue
        text = read_text(sf.rel)
        if not text or "save" not in text:
            continue
        here = set(spelled.findall(text))
        if not here:
            continue
        tree = parsed_once({}, sf.rel, text)
        if tree is None:
            continue
        placed = None
        for name in here:
            if _saves(tree, name):
                if placed is None:
                    placed = _places(tree, text)
                savers[name].append(placed)
    # base name -> True when saved only by device-free files (at least one)
    verdict = {n: bool(v) and not any(v) for n, v in savers.items()}
    hit = {k for k, names in wanted.items() if all(verdict.get(n) for n in names)}
    if not hit:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON) if id(f) in hit else f for f in findings]


def _literal_names(e) -> set:
    """The file base names string constants under `e` spell (`"train.pt"`, `"data/val.pt"`, an f-string's tail)."""
    out = set()
    for n in ast.walk(e):
        if type(n) is ast.Constant and type(n.value) is str:
            base = n.value.replace("\\", "/").rsplit("/", 1)[-1]
            if _NAME.match(base) and base[0] not in ".-":
                out.add(base)
    return out


def _loaded_names(tree, line: int, column: int) -> set:
    """The base names the torch.load call at (line, column) reads, through a name bound once before it."""
    found = load_call(tree, line, column)
    if found is None or found[1] is None:
        return set()
    owner, arg = found
    names = _literal_names(arg)
    if not names:
        for n in ast.walk(arg):
            if type(n) is ast.Name:
                bound = bound_once(owner, n.id, line)
                if bound is not None:
                    names |= _literal_names(bound)
    return names


def _saves(tree, name: str) -> bool:
    """A `torch.save(obj, path)` call (any receiver named `torch`) whose path spells `name`, directly or through a
    name bound in its function."""
    owners = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for owner in owners:
        for node in ast.walk(owner):
            if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != "save" \
                    or not (type(node.func.value) is ast.Name and node.func.value.id == "torch"):
                continue
            path = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "f"),
                                                                 None)
            if path is None:
                continue
            if name in _literal_names(path):
                return True
            for n in ast.walk(path):
                if type(n) is ast.Name:
                    bound = bound_once(owner, n.id, node.lineno)
                    if bound is not None and name in _literal_names(bound):
                        return True
    return False


_DEVICE_WORDS = re.compile(r"\.cuda\(|set_default_device|['\"](?:cuda|neuron|xla|mps)\b|device\s*=\s*(?!['\"]cpu)|"
                           r"\.to\(\s*(?!['\"]cpu['\"])|torch\.load\(")


def _places(tree, text: str) -> bool:
    """The file may move something to a device (`places_on_device`: `.cuda()`, `.to(x)` with anything but "cpu" or a
    dtype, a `device=` other than "cpu"), names a device string, sets a default device, or calls `torch.load` without
    mapping to "cpu" (what it re-saves keeps the devices it was saved from: shawroad's transformer_chatbot
    `export.py`, fresh76). Read from the text first: most preprocessing scripts name none of these."""
    if not _DEVICE_WORDS.search(text):
        return False
    for node in ast.walk(tree):
        if type(node) is ast.Call:
            f = node.func
            if places_on_device(node) or type(f) is ast.Attribute and f.attr == "set_default_device":
                return True
            if type(f) is ast.Attribute and f.attr == "load" and type(f.value) is ast.Name and f.value.id == "torch" \
                    and not any(k.arg == "map_location" and is_cpu(k.value) for k in node.keywords):
                return True
        elif type(node) is ast.Constant and type(node.value) is str \
                and node.value.split(":", 1)[0] in ("cuda", "neuron", "xla", "mps"):
            return True
    return False
