"""replaced-not-called: an API that is assigned over (monkeypatched), not used."""
from __future__ import annotations

from .base import predicate, stored_target


@predicate("replaced-not-called", kinds=("reference",))
def replaced_not_called(ctx, hit) -> bool:
    """The matched API is the target of an assignment or `del`, or the object one of its attributes is written
    on: `torch.cuda.get_device_name = lambda i: "fake"`, `torch.cuda.memory.max_memory_allocated = stub`,
    `torch.cuda.amp = stub_module`, `torch.cuda.is_available, torch.cuda.is_bf16_supported = saved` in a
    restore. The code replaces the function (a spoof or a test double) and never calls it; nothing runs on a
    CUDA device. Only for rules about functions and modules: a rule about a setting
    (`torch.backends.cudnn.benchmark = True`) does not use it, since there writing is the change."""
    return stored_target(ctx, hit.node) is not None
