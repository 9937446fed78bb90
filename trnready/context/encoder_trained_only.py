"""encoder-trained-only: a TransformerEncoder built in a training script that never runs a model for inference."""
from __future__ import annotations

import ast

from .base import predicate

# what puts a module into the state the nested-tensor fast path needs (eval mode, gradients off)
_INFERENCE_METHODS = frozenset({"eval", "no_grad", "inference_mode", "set_grad_enabled", "requires_grad_"})
# what a training step calls
_STEP_METHODS = frozenset({"backward", "step"})


@predicate("encoder-trained-only", kinds=("call",))
def encoder_trained_only(ctx, hit) -> bool:
    """The file builds the encoder and trains (it calls `.backward()` or an optimizer's `.step()`), and nothing in it
    turns to inference: no `.eval()`, `.train(False)`, `torch.no_grad`, `torch.inference_mode`,
    `torch.set_grad_enabled`, `requires_grad_`. torch takes TransformerEncoder's nested-tensor fast path only when the
    module is not training and no gradient is recorded (`TransformerEncoder.forward` lists "self.training" and
    "grad is enabled" among its reasons not to), so a script that only trains never builds a NestedTensor (six
    fresh71 verdicts: malaya-speech's VQ training scripts). A file that also evaluates, or builds the encoder without
    training it, stays reported."""
    trains = False
    for call in ctx.calls():
        f = call.func
        name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if name in _INFERENCE_METHODS:
            return False
        if name == "train" and call.args and type(call.args[0]) is ast.Constant and call.args[0].value is False:
            return False
        if name in _STEP_METHODS and type(f) is ast.Attribute:
            trains = True
    return trains
