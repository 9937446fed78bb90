"""hides-every-gpu: CUDA_VISIBLE_DEVICES set to a value that leaves no GPU visible (a CPU run)."""
from __future__ import annotations

import ast
import re

from .base import parent_of, predicate

# After `NAME=` in a command line: an empty word (`NAME= cmd`, `NAME="" cmd`, `NAME='' cmd`) or one of the values
# (`NAME=-1 cmd`), then a blank or the end of the string.
_WORD = re.compile(r"""(?:""|''|"(?P<dq>[^"\s]*)"|'(?P<sq>[^'\s]*)'|(?P<bare>[^\s"']*))(?:\s|$)""")


@predicate("hides-every-gpu", kinds=("env",))
def hides_every_gpu(ctx, hit) -> bool:
    """The device-selecting variable is set to a value that makes no GPU visible: `CUDA_VISIBLE_DEVICES=""`
    (`os.environ["CUDA_VISIBLE_DEVICES"] = ""`, `os.environ.update(CUDA_VISIBLE_DEVICES="")`, an `env={...}`
    entry, or `CUDA_VISIBLE_DEVICES="" python train.py` in a command string). The CUDA runtime then sees no
    device and the program runs on the CPU: the line asks for a CPU run, which needs no Neuron setting, rather
    than picking GPUs. The values that hide every device are data: `no-gpu-values` in [context.values] (the
    empty string, `-1`). A value naming devices (`"0,1"`, `f"{rank}"`) stays a finding."""
    values = tuple(ctx.values.get("no-gpu-values", ()))
    node = hit.node
    set_to = ctx.index.env_values.get(id(node))
    if set_to:
        return all(v in values for v in set_to)
    if type(node) is not ast.Constant or type(node.value) is not str:
        return False
    text = node.value
    if text in values and text != hit.name:  # os.environ.update(CUDA_VISIBLE_DEVICES=""): the node is the value
        return True
    if text.startswith(hit.name + "="):  # `CUDA_VISIBLE_DEVICES="" python ...`, also a piece of an f-string
        m = _WORD.match(text, len(hit.name) + 1)
        if m is None:
            return False
        word = m.group("dq") if m.group("dq") is not None else m.group("sq") if m.group("sq") is not None \
            else m.group("bare") or ""
        return word in values
    up = parent_of(ctx, node)
    if type(up) is ast.Dict and node in up.keys:  # env={"CUDA_VISIBLE_DEVICES": ""}
        v = up.values[up.keys.index(node)]
        return type(v) is ast.Constant and v.value in values
    return False
