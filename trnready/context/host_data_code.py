"""host-data-code: dataset, loader and transform code that builds host-side data on the CPU."""
from __future__ import annotations

import ast

from .base import enclosing_function, name_globs, places_on_device, predicate


def _moves_to_device(ctx) -> bool:
    """The file puts something on a device: `.cuda()`, `.to(x)` with anything but a dtype or "cpu",
    or a `device=` keyword other than "cpu". Such a file may run the matched code on the device."""
    return ctx.fact("host-data-code:device", lambda c: any(places_on_device(call) for call in c.calls()))


def _in_host_path(ctx) -> bool:
    parts = ctx.path.lower().split("/")
    dirs, name = set(parts[:-1]), parts[-1]
    return bool(dirs & set(ctx.values.get("host-data-dirs", ()))) or name.startswith("collate")


def _callers(ctx) -> dict:
    """name -> the functions of the file that call it by that name (`f(...)`, `self.f(...)`, `cls.f(...)`),
    a call inside a nested function counting for the functions around it too."""
    def compute(c) -> dict:
        import bisect

        calls = []
        for n in c.calls():
            f = n.func
            name = f.id if type(f) is ast.Name else (
                f.attr if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id in ("self", "cls")
                else None)
            if name:
                calls.append(((n.lineno, n.col_offset), name))
        calls.sort()
        starts = [p for p, _ in calls]
        found: dict = {}
        for kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            for fn in c.nodes(kind):
                lo = bisect.bisect_left(starts, (fn.lineno, fn.col_offset))
                hi = bisect.bisect_right(starts, (fn.end_lineno or fn.lineno, fn.end_col_offset or 0))
                for _, name in calls[lo:hi]:
                    found.setdefault(name, set()).add(fn)
        return found
    return ctx.fact("host-data-code:callers", compute)


def _is_host(ctx, func, depth: int) -> bool:
    pat = name_globs(ctx, "host-data-functions")
    while func is not None:
        if pat is not None and pat.match(func.name):
            return True
        if depth > 0:
            # A helper every caller of which in this file is host code (a position-embedding resize called
            # only from a checkpoint filter): host code too. A helper nobody in the file calls is not.
            callers = [c for c in _callers(ctx).get(func.name, ()) if c is not func]
            if callers and all(_is_host(ctx, c, depth - 1) for c in callers):
                return True
        func = enclosing_function(ctx, func)
    return False


def _in_host_function(ctx, node) -> bool:
    return _is_host(ctx, enclosing_function(ctx, node), 2)


@predicate("host-data-code", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def host_data_code(ctx, hit) -> bool:
    """Data preparation that runs on the host CPU: a match in a module under a directory named in
    `host-data-dirs` (`io/`, `datasets/`, `transforms/`, ...), in a `collate*.py` file, or inside a
    function whose name matches `host-data-functions` (`__getitem__`, `*collate*`, checkpoint filters and
    state-dict load hooks that reshape weights once while loading), or inside a helper every caller of
    which in the file is such a function (two levels), for rules of the categories in
    `host-data-categories` (dynamic shapes, float64, sparse and nested tensors, ...). Such code builds
    the batches the loader hands over; it is not the model on the device. Nothing in the file may move
    data to a device (`.cuda()`, `.to(device)`, `device=` other than "cpu"): a file that does can run
    the same code on the device and stays reported."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    if not (_in_host_path(ctx) or _in_host_function(ctx, hit.node)):
        return False
    return not _moves_to_device(ctx)
