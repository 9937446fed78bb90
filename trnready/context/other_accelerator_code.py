"""other-accelerator-code: functions, classes and modules named for an accelerator a Trainium host never has."""
from __future__ import annotations

import ast

from ._xla_flags import xla_switch_words
from .base import predicate
from .neuron_guarded import _has_tpu_word, accelerator_words
from .tpu_only_code import _enclosing_named


@predicate("other-accelerator-code", effect="guard")
def other_accelerator_code(ctx, hit) -> bool:
    """A match inside a function or class whose name holds a word of `other-accelerator-words` (`tpu_launcher`,
    `init_ipex`, `XPUAttention`, `prepare_npu`), or in a module whose file or directory name does
    (`library/ipex/hijacks.py`, `device_tpu.py`, `accelerators/mps.py`; the path is taken relative to the scanned
    root). Such code is written for Google TPUs, Intel XPUs, Apple MPS, Ascend NPUs or Gaudi HPUs and runs only
    when one is present, which a Trainium host never is: its `torch.cuda.*` redirections and torch_xla calls are
    not the Neuron path. Words are split on underscores and camel case, so `output` or `stpu` do not count.

    A class named for XLA (`XLAAccelerator`, `XLAStrategy`; `xla-switch-words`) counts too, outside legacy
    XLA-Neuron modules (one importing torch_neuronx, where XLA is the Neuron path being ported): TorchNeuron's
    device is "neuron", so a framework's XLA implementation is its TPU path (fresh29: seven torch_xla imports, two
    XLA environment variables and two "xla" device strings in such classes, all false). A function named for XLA is
    not enough (`is_xla_tensor(t)` asks about a value on every run), nor are file and directory names
    (`run_xla.py` may be the program's only path)."""
    words = ctx.fact("other-accelerator-code:words", lambda c: accelerator_words(c.values))
    parts = ctx.path.split("/")
    parts[-1] = parts[-1].rsplit(".", 1)[0]
    if any(p and _has_tpu_word(p, words) for p in parts):
        return True
    xla = ctx.fact("other-accelerator-code:xla", lambda c: xla_switch_words(c.tree.body, c.values)
                   if c.tree is not None else frozenset())
    return any(_has_tpu_word(d.name, words) or xla and isinstance(d, ast.ClassDef) and _has_tpu_word(d.name, xla)
               for d in _enclosing_named(ctx, hit.node))
