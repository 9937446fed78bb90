"""tpu-only-code: functions, classes and modules named for Google TPUs."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from .neuron_guarded import _has_tpu_word


def _enclosing_named(ctx, node):
    """The functions and classes around the node, innermost first."""
    p = parent_of(ctx, node)
    while p is not None:
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield p
        p = parent_of(ctx, p)


@predicate("tpu-only-code", effect="guard")
def tpu_only_code(ctx, hit) -> bool:
    """A match inside a function or class whose name holds the word "tpu" (`tpu_launcher`, `DeviceTPU`,
    `prepare_tpu`), or in a module whose file name does (`device_tpu.py`, `finetune_lm_tpu.py`). Such code is
    written for Google TPUs and runs only when the user asks for a TPU, which a Trainium host never is; its
    torch_xla calls are not the Neuron path. Words are split on underscores and camel case, so `output`,
    `stpu` or `TPUT` do not count."""
    name = ctx.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if name and _has_tpu_word(name):
        return True
    return any(_has_tpu_word(d.name) for d in _enclosing_named(ctx, hit.node))
