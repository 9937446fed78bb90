"""hides-every-gpu: CUDA_VISIBLE_DEVICES set to a value that leaves no GPU visible (a CPU run)."""
from __future__ import annotations

import ast
import re

from .base import parent_of, predicate

# After `NAME=` in a command line: an empty word (`NAME= cmd`, `NAME="" cmd`, `NAME='' cmd`) or one of the values
# (`NAME=-1 cmd`), then a blank or the end of the string.
_WORD = re.compile(r"""(?:""|''|"(?P<dq>[^"\s]*)"|'(?P<sq>[^'\s]*)'|(?P<bare>[^\s"']*))(?:\s|$)""")


def _given(ctx, node):
    """The string the variable named at `node` is set to, when it is a literal: `os.environ["X"] = ""`,
    `os.environ.update(X="-1")`, `env={"X": "-1"}`, `os.environ.setdefault("X", "")`, `os.putenv("X", "")`."""
    if type(node) is ast.keyword:
        value = node.value
    else:
        up = parent_of(ctx, node)
        value = None
        if type(up) is ast.Subscript and up.slice is node and type(up.ctx) is ast.Store:
            holder = parent_of(ctx, up)
            if type(holder) is ast.Assign and up in holder.targets:
                value = holder.value
        elif type(up) is ast.Dict and node in up.keys:
            value = up.values[up.keys.index(node)]
        elif type(up) is ast.Call and up.args[:1] == [node] and len(up.args) == 2 \
                and type(up.func) is ast.Attribute and up.func.attr in ("setdefault", "putenv"):
            value = up.args[1]
    return value.value if type(value) is ast.Constant and type(value.value) is str else None


@predicate("hides-every-gpu", kinds=("env",))
def hides_every_gpu(ctx, hit) -> bool:
    """CUDA_VISIBLE_DEVICES set to a value that leaves no GPU visible: empty, or a value of `no-gpu-values` in
    [context.values] such as `-1`. Either in a command line that runs a program (`CUDA_VISIBLE_DEVICES="" python
    extract.py`, also `=''` or `= `), or in the running process or the environment handed to a child
    (`os.environ["CUDA_VISIBLE_DEVICES"] = "-1"` before an ONNX export, `env={"CUDA_VISIBLE_DEVICES": ""}`). The
    program asks to run on the CPU; on a Trainium host it does so without the setting, and nothing moves to the
    Neuron device unless the code asks for it: no item of the port (readers judged wenet's `export_onnx_cpu.py`,
    TDC's oracle and yolov3's CPU branch so). A value naming devices (`"0,1"`, `f"{rank}"`) stays a finding."""
    node = hit.node
    no_gpu = tuple(ctx.values.get("no-gpu-values", ()))
    if type(node) is not ast.Constant or type(node.value) is not str:
        given = _given(ctx, node) if type(node) in (ast.keyword, ast.Constant) else None
        return given is not None and given.strip() in no_gpu
    text = node.value
    if not text.startswith(hit.name + "="):
        if text != hit.name:
            # the keyword form is reported at its value: `os.environ.update(CUDA_VISIBLE_DEVICES="")`
            up = parent_of(ctx, node)
            return type(up) is ast.keyword and up.arg == hit.name and text.strip() in no_gpu
        given = _given(ctx, node)
        return given is not None and given.strip() in no_gpu
    m = _WORD.match(text, len(hit.name) + 1)
    if m is None or m.end() >= len(text):  # no command follows: `"CUDA_VISIBLE_DEVICES="` being built up
        return False
    word = m.group("dq") if m.group("dq") is not None else m.group("sq") if m.group("sq") is not None \
        else m.group("bare") or ""
    return word in no_gpu
