"""Link step `empty-device-helper`: a test's command line whose GPU list is the answer of a project helper that
answers with no GPU on a host without CUDA (`f"CUDA_VISIBLE_DEVICES='{gpu_id()}' python train.py ..."`, where
`gpu_id()` returns "" unless CUDA is there). On Neuron the helper gives the empty list, so the test runs its
program on the CPU, which needs no Neuron setting (as `CUDA_VISIBLE_DEVICES="" python x.py` does, hides-every-gpu);
the session 22 test policy makes such a CPU arm of a test no migration item. Outside the tests the same command is
a launcher whose child silently runs on the CPU, and it stays a finding. Only the files' text is read, and only
when such a finding exists."""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from ..astwalk import walk
from ..scope import classify

REASON = "empty-device-helper"

# `NAME='{helper()}'`, `NAME={mod.helper()}`, `NAME="{helper()}"` in a command string (an f-string).
_FILLED = re.compile(r"""(?P<name>\w+)=(?P<q>['"]?)\{\s*(?P<call>[A-Za-z_][\w.]*)\(\)\s*\}(?P=q)(?:\s|$)""")
# A flag named for a CUDA host (`use_cuda`, `has_gpu`, `CUDA_AVAILABLE`): False where there is none.
_CUDA_WORD = re.compile(r"(^|_)(cuda|gpu|gpus)($|_)", re.I)


def guard_empty_device_helpers(findings: list, files, text_of, values: dict) -> list:
    """`text_of(rel)`: a scanned Python file's text or None. `values`: the catalogue's [context.values]."""
    empty = tuple(values.get("no-gpu-values", ()))
    held = [i for i, f in enumerate(findings) if not f.guarded and f.cell is None and f.category == "cuda-device"
            and classify(f.path) == "test"]
    if not held or not empty:
        return findings
    calls: dict = {}  # index -> the helper's name
    for i in held:
        f = findings[i]
        lines = (text_of(f.path) or "").splitlines()
        if not 0 < f.line <= len(lines):
            continue
        m = _FILLED.match(lines[f.line - 1], max(f.column - 1, 0))
        if m is None:
            # (the column may point at the string's quote)
            m = _FILLED.search(lines[f.line - 1])
        if m is not None and m.group("name") in f.message:
            calls[i] = m.group("call").rsplit(".", 1)[-1]
    if not calls:
        return findings
    wanted = set(calls.values())
    defs: dict = {}  # helper name -> [definitions among the scanned files]
    pattern = re.compile(r"(?m)^def[ \t]+(" + "|".join(re.escape(n) for n in sorted(wanted)) + r")\b")
    for sf in files:
        if sf.kind != "python":
            continue
        text = text_of(sf.rel) or ""
        found = {m.group(1) for m in pattern.finditer(text)}
        if not found:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for st in tree.body:
            if type(st) is ast.FunctionDef and st.name in found:
                defs.setdefault(st.name, []).append(st)
    # One definition in the project: a name defined twice may answer differently in each module.
    empty_helpers = {n for n, ds in defs.items() if len(ds) == 1 and answers_empty_without_cuda(ds[0], empty)}
    out = list(findings)
    for i, n in calls.items():
        if n in empty_helpers:
            out[i] = replace(findings[i], guarded=True, guarded_by=REASON)
    return out


def answers_empty_without_cuda(fn: ast.FunctionDef, empty: tuple) -> bool:
    """The function gives a no-GPU value (`empty`: "", "-1") in the arm of a CUDA test that runs without CUDA:
    the `else` of `if use_cuda:` / `if torch.cuda.is_available():`, or the body of `if not use_cuda:`, by returning
    it or by assigning it to a name the function returns."""
    returned = {r.value.id for r in walk(fn) if type(r) is ast.Return and type(r.value) is ast.Name}
    for node in walk(fn):
        if type(node) is not ast.If:
            continue
        test, negated = node.test, False
        if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
            test, negated = test.operand, True
        if not _cuda_test(test):
            continue
        arm = node.body if negated else node.orelse
        if any(_gives(st, returned, empty) for st in arm):
            return True
    return False


def _cuda_test(t) -> bool:
    """`torch.cuda.is_available()`, `torch.cuda.device_count()`, or a flag named for a CUDA host (`use_cuda`)."""
    if type(t) is ast.Call and type(t.func) is ast.Attribute and t.func.attr in ("is_available", "device_count"):
        inner = t.func.value
        return type(inner) is ast.Attribute and inner.attr == "cuda" or type(inner) is ast.Name and inner.id == "cuda"
    name = t.id if type(t) is ast.Name else t.attr if type(t) is ast.Attribute else ""
    return bool(name) and bool(_CUDA_WORD.search(name))


def _gives(st, returned: set, empty: tuple) -> bool:
    if type(st) is ast.Return:
        return _empty_literal(st.value, empty)
    if type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name:
        return st.targets[0].id in returned and _empty_literal(st.value, empty)
    return False


def _empty_literal(v, empty: tuple) -> bool:
    """"" or "-1" as a string, or the number -1 (`gpu = -1`, formatted into the command as "-1")."""
    if type(v) is ast.UnaryOp and type(v.op) is ast.USub and type(v.operand) is ast.Constant \
            and type(v.operand.value) is int:
        return f"-{v.operand.value}" in empty
    return type(v) is ast.Constant and type(v.value) is str and v.value in empty
