"""host-only-script: a script run by hand that never touches an accelerator."""
from __future__ import annotations

import ast

from .base import dotted, imported_name, places_on_device, predicate

# Words of a string constant that name an accelerator or a collective backend: the script may pick a device by
# name (`torch.device("cuda:0")`, `init_process_group("nccl")`) without a placement the calls show.
_DEVICE_WORDS = ("cuda", "nccl", "gpu", "xla", "neuron", "hccl", "mps")
# Module prefixes whose use means the script runs on, or talks to, accelerators and other processes.
_DEVICE_MODULES = ("torch.cuda", "torch.distributed", "torch.backends", "torch.xla", "torch_xla", "torch.compile",
                   "torch.accelerator")


def _main_block(tree) -> bool:
    """The module's top level holds `if __name__ == "__main__":`."""
    for st in tree.body:
        if type(st) is ast.If and type(st.test) is ast.Compare and type(st.test.left) is ast.Name \
                and st.test.left.id == "__name__" and any(type(c) is ast.Constant and c.value == "__main__"
                                                         for c in st.test.comparators):
            return True
    return False


def _names_accelerator(ctx) -> bool:
    def compute(c) -> bool:
        for call in c.calls():
            if places_on_device(call):
                return True
            name, _ = imported_name(c, call.func)
            if name.startswith(_DEVICE_MODULES):
                return True
        for node in c.nodes(ast.Attribute):
            name = dotted(node)
            # `x.device` reads where a tensor is; `torch.device("cpu")` only builds a place
            if name.startswith(_DEVICE_MODULES) or node.attr == "device" and name != "torch.device":
                return True
        for node in c.nodes(ast.Constant):
            if type(node.value) is str and any(w in node.value.lower() for w in _DEVICE_WORDS):
                return True
        for node in c.nodes(ast.arg):
            if "device" in node.arg or "gpu" in node.arg or "rank" in node.arg:
                return True
        return False
    return ctx.fact("host-only-script:accelerator", compute)


@predicate("host-only-script", kinds=("import", "reference", "call"), effect="guard")
def host_only_script(ctx, hit) -> bool:
    """The match is in a script run by hand (its top level holds `if __name__ == "__main__":`) that never touches
    an accelerator: no placement (`.cuda()`, `.to(device)`, a `device=` other than "cpu"), no `.device`, no
    `torch.cuda` / `torch.distributed` / `torch.backends` / `torch.compile`, no parameter named for a device, a GPU
    or a rank, no string naming one ("cuda", "nccl", "gpu", "xla"). A checkpoint converter of that kind reads and
    writes files on the CPU with a library's checkpoint utilities (DeepSpeed's `deepspeed.checkpoint`): nothing of
    it runs on the device, and a Trainium host runs it as it is. A training script always names its device
    somewhere (or hands it to a launcher that does, which shows as a rank, a backend or a device string)."""
    tree = ctx.tree
    if tree is None or not _main_block(tree):
        return False
    return not _names_accelerator(ctx)
