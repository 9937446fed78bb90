"""tpu-described-module: a module whose own docstring says it is for Google TPUs and for nothing else."""
from __future__ import annotations

import ast
import re

from .base import predicate

_WORD = re.compile(r"[A-Za-z]+")
_TPU_WORDS = frozenset({"tpu", "tpus"})
# Devices whose naming in the same paragraph makes the module a general one (`runs on CPU, GPU and TPU`), or
# the Neuron stack itself, where torch_xla was the Neuron path.
_OTHER_DEVICES = frozenset({"cpu", "cpus", "gpu", "gpus", "cuda", "neuron", "neuronx", "trainium", "inferentia",
                            "trn", "inf"})


def described_for_tpu(tree) -> bool:
    """The first paragraph of the module docstring names a TPU and no other device."""
    doc = ast.get_docstring(tree, clean=True) if isinstance(tree, ast.Module) else None
    if not doc:
        return False
    words = {w.lower() for w in _WORD.findall(doc.strip().split("\n\n", 1)[0])}
    return bool(words & _TPU_WORDS) and not words & _OTHER_DEVICES


@predicate("tpu-described-module", kinds=("import", "reference"), effect="guard")
def tpu_described_module(ctx, hit) -> bool:
    """A match in a module whose docstring opens by describing it as TPU code and names no other device ("A simple
    launcher script for TPU training", the `xla_spawn.py` launcher copied into many projects). Its
    torch_xla calls run only on a Google TPU, which a Trainium host never is, so they are not the Neuron path. A
    docstring that also names CPUs, GPUs, CUDA or Neuron (`runs on CPU, GPU and TPU`) describes a general module
    and keeps its findings; a module without a docstring is read by the other predicates only."""
    return ctx.fact("tpu-described-module", lambda c: described_for_tpu(c.tree))
