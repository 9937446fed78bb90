"""parameter-surgery: a data-dependent shape in a method that rebuilds the module's parameters."""
from __future__ import annotations

import ast
import re

from .base import dotted, enclosing_function, predicate

def _rebuilds_parameters(fn) -> bool:
    """The function assigns a new `Parameter(...)` to an attribute (`self.weight = nn.Parameter(w[keep])`) or
    writes an attribute's `.data` (`self.weight.data = w.mul(mask)`)."""
    for st in ast.walk(fn):
        if type(st) is not ast.Assign:
            continue
        for t in st.targets:
            if type(t) is not ast.Attribute:
                continue
            if t.attr == "data" and type(t.value) is ast.Attribute:
                return True
            v = st.value
            if type(v) is ast.Call and (dotted(v.func) or "").rpartition(".")[2] == "Parameter":
                return True
    return False


@predicate("parameter-surgery", kinds=("call", "method", "subscript"), effect="guard")
def parameter_surgery(ctx, hit) -> bool:
    """A data-dependent shape (`torch.where(~z.eq(0))[0]`, `w[mask]`, `nonzero()`) in a method, other than
    `__init__`, named for pruning (a word of `parameter-surgery-words`: `prune_params`, `shrink_heads`) that rebuilds
    the module's parameters: it assigns a new `Parameter(...)` to an attribute or writes an attribute's `.data`
    (LLM-Shearing's `prune_params`, which keeps the rows a learned mask left and shrinks each layer). Such a method
    reshapes the model once, eagerly, between training phases or when a checkpoint is converted; no compiled graph
    holds the size it computes. A method of another name stays reported even when it rebuilds parameters: fast-reid's
    `sample` does so at every step, GPTQ's `fasterquant` while it quantizes on the device. Only the `dynamic-shapes`
    category is guarded."""
    if hit.rule.category != "dynamic-shapes":
        return False
    fn = enclosing_function(ctx, hit.node)
    if fn is None or fn.name == "__init__":
        return False
    words = set(re.findall(r"[a-z]+", fn.name.lower()))
    return bool(words & set(ctx.values.get("parameter-surgery-words", ()))) and _rebuilds_parameters(fn)
