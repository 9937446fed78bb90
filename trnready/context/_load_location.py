"""A CUDA query that only decides where `torch.load` maps a checkpoint (for check-without-placement).

torchreid's `load_checkpoint`, copied into many trackers, writes `map_location = None if torch.cuda.is_available()
else 'cpu'` and hands it to `torch.load`; BLINK's loader writes `if cpu or not torch.cuda.is_available():
state_dict = torch.load(f, map_location=torch.device("cpu"))` / `else: state_dict = torch.load(f)`. Without CUDA the
checkpoint is mapped onto the host, which is what a Trainium host needs before the model moves to the Neuron
device: the query picks no device. Only these shapes count: the value the query picks (or the arm Neuron takes)
maps to the CPU, and it only reaches `map_location=` of a `torch.load` call.
"""
from __future__ import annotations

import ast

from ..astwalk import walk
from ..truth import truth
from .base import dotted, enclosing_function, is_cpu, parent_of


def _is_load(c) -> bool:
    return isinstance(c, ast.Call) and dotted(c.func) in ("torch.load", "load") and bool(c.args)


def _map_location(c):
    return next((k.value for k in c.keywords if k.arg == "map_location"), None)


def _only_map_location(ctx, target: ast.Name, within) -> bool:
    """Every read of the name in the function is the `map_location=` of a `torch.load` call."""
    reads = [n for n in walk(within) if isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load)]
    if not reads:
        return False
    for n in reads:
        kw = parent_of(ctx, n)
        if not (isinstance(kw, ast.keyword) and kw.arg == "map_location" and _is_load(parent_of(ctx, kw))):
            return False
    return True


def picks_load_location(ctx, query, cur, up) -> bool:
    """`up` holds the test `cur` (which contains the CUDA query call `query`): an IfExp or an If deciding only the
    checkpoint's map location, the CPU on Neuron (see the module's docstring)."""
    neuron = truth(cur, lambda x: False if x is query else None)
    if neuron is None:
        return False
    if isinstance(up, ast.IfExp):
        taken = up.body if neuron else up.orelse
        if not is_cpu(taken):
            return False
        holder = parent_of(ctx, up)
        if isinstance(holder, ast.keyword):
            return holder.arg == "map_location" and _is_load(parent_of(ctx, holder))
        if isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
            fn = enclosing_function(ctx, holder)
            return fn is not None and _only_map_location(ctx, holder.targets[0], fn)
        return False
    if isinstance(up, ast.If) and up.orelse:
        arms = (up.body, up.orelse)
        for arm in arms:
            for st in arm:
                value = st.value if isinstance(st, (ast.Assign, ast.Expr)) else None
                if not _is_load(value):
                    return False
        stmts = up.body if neuron else up.orelse
        return all(is_cpu(_map_location(st.value)) for st in stmts if isinstance(st, (ast.Assign, ast.Expr)))
    return False
