"""host-factory-float64: a float64 tensor made by a factory call in a function that shows no device at all."""
from __future__ import annotations

import ast

from .base import call_taking, enclosing_function, imported_name, predicate
from ..astwalk import walk

# Factory calls whose result lands on the default device unless told otherwise (`*_like` and `new_*` follow
# another tensor's device, so they are not listed).
_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "tensor",
                        "as_tensor", "eye", "rand", "randn", "DoubleTensor"})
# Words of a function body that say a device is in play: a `device` name or attribute, a move, a tensor whose
# device another tensor decides, a module's forward (its inputs are on the device).
_DEVICE_ATTRS = frozenset({"device", "cuda", "to", "type_as", "to_device", "new_tensor", "new_zeros",
                           "new_ones", "new_empty", "new_full"})
_DEVICE_FUNCTIONS = frozenset({"forward", "__call__"})
# A collective moves its tensor to the process group's device; a metric state or buffer follows its module;
# a launcher library (`accelerator.prepare(model, data)`) places what it is handed.
_DEVICE_CALL_WORDS = ("broadcast", "all_reduce", "all_gather", "reduce_scatter", "add_state", "register_buffer",
                     "prepare")


def _device_evidence(fn) -> bool:
    if fn.name in _DEVICE_FUNCTIONS:
        return True
    for node in walk(fn):
        if isinstance(node, ast.Name):
            if "device" in node.id or any(w in node.id for w in _DEVICE_CALL_WORDS):
                return True
        elif isinstance(node, ast.Attribute):
            a = node.attr
            if a in _DEVICE_ATTRS or a.endswith("_like") or any(w in a for w in _DEVICE_CALL_WORDS):
                return True
        elif isinstance(node, ast.keyword) and node.arg == "device":
            return True
    return False


@predicate("host-factory-float64", kinds=("reference",), effect="guard")
def host_factory_float64(ctx, hit) -> bool:
    """The match is the dtype of a torch factory call that names no device (`torch.linspace(0, 1, n,
    dtype=torch.float64)`, `torch.zeros(k, dtype=torch.float64)`), inside a function whose body shows no device
    at all: no `device` name, keyword or attribute, no `.to(...)` / `.cuda()` / `.type_as(...)`, no tensor made
    like another (`*_like`, `new_*`), and the function is no module's `forward`. Such a tensor is made on the
    CPU (a beta schedule, a sampler's weights, a statistics counter, an affine matrix of file metadata): the
    float64 value is a host value, and nothing in its function hands it to the neuron device. A factory call at
    module or class level, or one in a function that places anything, stays a finding. Only the float64
    category is guarded."""
    if hit.rule.category != "float64":
        return False
    call = call_taking(ctx, hit.node, up=2)
    if call is None or hit.node in call.args:
        return False
    name = imported_name(ctx, call.func)[0]
    if not name.startswith("torch.") or name.rsplit(".", 1)[-1] not in _FACTORIES:
        return False
    if any(kw.arg == "device" or kw.arg is None for kw in call.keywords):
        return False
    # values computed by calls (`torch.tensor([x.count_nonzero() for x in outputs])`) come from tensors that may
    # be on the device already
    if call.args and any(type(n) is ast.Call for n in walk(call.args[0])):
        return False
    fn = enclosing_function(ctx, call)
    return fn is not None and not _device_evidence(fn)
