"""cpu-saved: torch.load of a checkpoint the project itself writes from CPU tensors."""
from __future__ import annotations

import ast

from .base import enclosing_function, predicate
from ..astwalk import walk


def _names(node, suffixes: tuple) -> set:
    """The strings under node that name a checkpoint file or its template (`'%s_net_%s.pth'`, `"{}_G.pt"`), by the
    suffixes of `[context.values] checkpoint-file-suffixes`."""
    return {n.value for n in walk(node) if type(n) is ast.Constant and isinstance(n.value, str)
            and n.value.endswith(suffixes)}


def _on_cpu(arg) -> bool:
    """`network.cpu().state_dict()`, `{k: v.cpu() for ...}`: what is saved was moved to the CPU first."""
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "cpu" and not n.args
               for n in walk(arg))


def _cpu_saved_names(ctx) -> frozenset:
    def compute(c) -> frozenset:
        out: set = set()
        for call in c.calls():
            f = call.func
            tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if tail != "save" or not call.args or not _on_cpu(call.args[0]):
                continue
            owner = enclosing_function(c, call)
            if owner is not None:
                out |= _names(owner, _suffixes(c))
        return frozenset(out)
    return ctx.fact("cpu-saved:names", compute)


@predicate("cpu-saved", kinds=("call",))
def cpu_saved(ctx, hit) -> bool:
    """The torch.load call's function builds its path from the same checkpoint file name (a literal ending in a
    suffix of `checkpoint-file-suffixes`: .pth, .pt, .ckpt, ...; often a template such as `'%s_net_%s.pth'`) as a
    function of the same file whose `torch.save` writes tensors moved to the CPU first (`torch.save(network.cpu()
    .state_dict(), save_path)`): the pix2pixHD lineage's `save_network` / `load_network` pair (few-shot-vid2vid,
    fresh51). Such a checkpoint holds CPU storages, so it loads on a Trainium host without a map_location. A load
    sharing no name with such a save (a checkpoint downloaded or written by other code), or a save of tensors left
    on the device, still matches."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    saved = _cpu_saved_names(ctx)
    if not saved:
        return False
    owner = enclosing_function(ctx, call)
    return owner is not None and bool(_names(owner, _suffixes(ctx)) & saved)


def _suffixes(ctx) -> tuple:
    return tuple(str(s) for s in ctx.values.get("checkpoint-file-suffixes", ()))
