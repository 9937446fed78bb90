"""host-only-script: a script run by hand that never touches an accelerator."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, imported_name, places_on_device, predicate

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


# Keywords that hand the choice of a device to a library (`from_pretrained(..., device_map="auto")`,
# `Trainer(devices=8)`): the script places its model without a placement of its own.
_DEVICE_KEYWORDS = frozenset({"device_map", "devices", "gpus", "num_gpus", "accelerator", "local_rank", "gpu_ids",
                              "device_ids"})


def _imports_runner(tree, runners: tuple) -> bool:
    """The file imports a library that places the model on a device by itself (`[context.values]
    device-runners`: accelerate, Lightning, DeepSpeed's engine), or a trainer class of one (`from transformers
    import Trainer`). DeepSpeed's checkpoint utilities only read files."""
    for node in ast.walk(tree):
        if type(node) is ast.Import:
            mods = [a.name for a in node.names]
        elif type(node) is ast.ImportFrom and node.module and not node.level:
            mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(a.name.endswith(("Trainer", "TrainingArguments", "Accelerator")) for a in node.names):
                return True
        else:
            continue
        for m in mods:
            if m.startswith("deepspeed.checkpoint"):
                continue
            if any(m == r or m.startswith(r + ".") for r in runners):
                return True
    return False


def _follows_indexed_tensor(ctx, call) -> bool:
    """`.to(times)` where the function holding the call indexes `times` (`times[-1]`, `times[times > t0]`): the
    argument is a tensor whose device and dtype the result takes, not a device the script picks. In a script that
    places nothing else, that tensor is on the CPU too (torchdiffeq's `t0 = torch.tensor([0.0]).to(times)`)."""
    f = call.func
    if type(f) is not ast.Attribute or f.attr != "to" or len(call.args) != 1 or call.keywords \
            or type(call.args[0]) is not ast.Name:
        return False
    name = call.args[0].id
    scope = enclosing_function(ctx, call) or ctx.tree
    return any(type(n) is ast.Subscript and type(n.value) is ast.Name and n.value.id == name
               for n in ast.walk(scope))


def _names_accelerator(ctx) -> bool:
    def compute(c) -> bool:
        if _imports_runner(c.tree, tuple(str(r) for r in c.values.get("device-runners", ()))):
            return True
        for call in c.calls():
            if places_on_device(call) and not _follows_indexed_tensor(c, call):
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
        for node in c.nodes(ast.keyword):
            if node.arg in _DEVICE_KEYWORDS:
                return True
        return False
    return ctx.fact("host-only-script:accelerator", compute)


@predicate("host-only-script", effect="guard")
def host_only_script(ctx, hit) -> bool:
    """The match is in a script run by hand (its top level holds `if __name__ == "__main__":`) that never touches
    an accelerator: no placement (`.cuda()`, `.to(device)`, a `device=` other than "cpu"), no `.device`, no
    `torch.cuda` / `torch.distributed` / `torch.backends` / `torch.compile`, no parameter named for a device, a GPU
    or a rank, no string naming one ("cuda", "nccl", "gpu", "xla"). A checkpoint converter of that kind reads and
    writes files on the CPU with a library's checkpoint utilities (DeepSpeed's `deepspeed.checkpoint`): nothing of
    it runs on the device, and a Trainium host runs it as it is; nor does a toy program whose model and data stay
    on the CPU, where float64 is kept (categories of `host-only-categories`; other rules name the predicate in
    `unless`). A training script names its device somewhere, hands the choice to a library that places the model
    itself (`device-runners`: accelerate, Lightning, DeepSpeed's engine; a `Trainer` class; `device_map=`), or
    takes a rank or a backend from its launcher. A model module (an nn.Module subclass) whose `__main__` block is a
    smoke test, reading no command line, is not such a script: the project's training code runs its model."""
    if "host-only-script" not in hit.matcher.unless and \
            hit.rule.category not in ctx.values.get("host-only-categories", ()):
        return False
    tree = ctx.tree
    if tree is None or not _main_block(tree):
        return False
    return not _names_accelerator(ctx) and not _model_with_self_test(ctx)


def _model_with_self_test(ctx) -> bool:
    """The file defines an nn.Module (or autograd Function) subclass and reads no command line (`[context.values]
    command-line-words`): a model module whose `__main__` block only builds the model to print its size, as a smoke
    test. The project's training code imports the model and places it, so its forward runs on the device
    (signatrix/efficientdet's src/model.py, blind50)."""
    def compute(c) -> bool:
        words = c.values.get("command-line-words", ())
        # the names the file uses, as text: `argparse`, `parser.parse_args(`, `sys.argv`, `fire.Fire(`
        used = [dotted(n) or "" for n in c.nodes(ast.Attribute)] + [n.id for n in c.nodes(ast.Name)]
        used += [(dotted(call.func) or "") + "(" for call in c.calls()]
        used += [a.name for n in c.nodes(ast.Import) for a in n.names]
        used += [n.module or "" for n in c.nodes(ast.ImportFrom)]
        joined = " ".join(used)
        if any(w in joined for w in words):
            return False
        for node in c.nodes(ast.ClassDef):
            for base in node.bases:
                name = dotted(base) or ""
                if name.rsplit(".", 1)[-1] in _MODULE_BASES:
                    return True
        return False
    return ctx.fact("host-only-script:model-self-test", compute)


# an autograd Function is device code too: SSD's `Detect(Function)` final layer, whose `__main__` block runs it on
# random CPU tensors (Simple-CV-Pytorch-master, blind81)
_MODULE_BASES = frozenset({"Module", "Sequential", "ModuleList", "ModuleDict", "Function"})
