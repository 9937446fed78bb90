"""hides-every-gpu: CUDA_VISIBLE_DEVICES set to a value that leaves no GPU visible (a CPU run)."""
from __future__ import annotations

import ast
import re

from .base import predicate

# After `NAME=` in a command line: an empty word (`NAME= cmd`, `NAME="" cmd`, `NAME='' cmd`) or one of the values
# (`NAME=-1 cmd`), then a blank or the end of the string.
_WORD = re.compile(r"""(?:""|''|"(?P<dq>[^"\s]*)"|'(?P<sq>[^'\s]*)'|(?P<bare>[^\s"']*))(?:\s|$)""")


@predicate("hides-every-gpu", kinds=("env",))
def hides_every_gpu(ctx, hit) -> bool:
    """A command line that runs a program with no GPU visible: `CUDA_VISIBLE_DEVICES="" python extract.py`
    (also `=''`, `= `, or a value of `no-gpu-values` in [context.values], such as `-1`) in a command string.
    The CUDA runtime of that program sees no device and it runs on the CPU: the line asks for a CPU run, which
    needs no Neuron setting, rather than picking GPUs. Setting the variable in the running process
    (`os.environ["CUDA_VISIBLE_DEVICES"] = ""`, to keep a helper process off the accelerator) stays a finding:
    on Neuron the same intent needs NEURON_RT_VISIBLE_CORES. A value naming devices (`"0,1"`, `f"{rank}"`)
    stays a finding too."""
    node = hit.node
    if type(node) is not ast.Constant or type(node.value) is not str:
        return False
    text = node.value
    if not text.startswith(hit.name + "="):
        return False
    m = _WORD.match(text, len(hit.name) + 1)
    if m is None or m.end() >= len(text):  # no command follows: `"CUDA_VISIBLE_DEVICES="` being built up
        return False
    word = m.group("dq") if m.group("dq") is not None else m.group("sq") if m.group("sq") is not None \
        else m.group("bare") or ""
    return word in tuple(ctx.values.get("no-gpu-values", ()))
