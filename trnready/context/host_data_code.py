"""host-data-code: dataset, loader and transform code that builds host-side data on the CPU."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, predicate

# Functions that run in a DataLoader worker (or the loader's main process) on the host.
HOST_FUNCTIONS = {"__getitem__", "__getitems__", "collate_fn", "collate"}


def _moves_to_device(ctx) -> bool:
    """The file puts something on a device: `.cuda()`, `.to(x)` with anything but a dtype or "cpu",
    or a `device=` keyword other than "cpu". Such a file may run the matched code on the device."""
    def compute(c) -> bool:
        for call in c.nodes(ast.Call):
            f = call.func
            if type(f) is ast.Attribute and f.attr == "cuda":
                return True
            if type(f) is ast.Attribute and f.attr == "to":
                args = list(call.args[:1]) + [k.value for k in call.keywords if k.arg == "device"]
                if any(not _host_or_dtype(a) for a in args):
                    return True
            for k in call.keywords:
                if k.arg == "device" and not _cpu(k.value):
                    return True
        return False
    return ctx.fact("host-data-code:device", compute)


def _cpu(e) -> bool:
    return type(e) is ast.Constant and isinstance(e.value, str) and e.value.split(":")[0] == "cpu"


def _host_or_dtype(e) -> bool:
    return _cpu(e) or dotted(e).startswith("torch.") and dotted(e) != "torch.device"


def _in_host_path(ctx) -> bool:
    parts = ctx.path.lower().split("/")
    dirs, name = set(parts[:-1]), parts[-1]
    return bool(dirs & set(ctx.values.get("host-data-dirs", ()))) or name.startswith("collate")


def _in_host_function(ctx, node) -> bool:
    func = enclosing_function(ctx, node)
    while func is not None:
        if func.name in HOST_FUNCTIONS or "collate" in func.name:
            return True
        func = enclosing_function(ctx, func)
    return False


@predicate("host-data-code", kinds=("call", "method", "reference", "keyword"), effect="guard")
def host_data_code(ctx, hit) -> bool:
    """Data preparation that runs on the host CPU: a match in a module under a directory named in
    `host-data-dirs` (`io/`, `datasets/`, `transforms/`, ...), in a `collate*.py` file, or inside
    `__getitem__`, `collate_fn` or another `*collate*` function, for rules of the categories in
    `host-data-categories` (dynamic shapes, float64, sparse and nested tensors, ...). Such code builds
    the batches the loader hands over; it is not the model on the device. Nothing in the file may move
    data to a device (`.cuda()`, `.to(device)`, `device=` other than "cpu"): a file that does can run
    the same code on the device and stays reported."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    if not (_in_host_path(ctx) or _in_host_function(ctx, hit.node)):
        return False
    return not _moves_to_device(ctx)
