"""pool-worker: a function the file hands to a process pool as its worker runs in another, host-only process."""
from __future__ import annotations

import ast
import re

from .base import dotted, enclosing_function, predicate
from .host_data_code import _function_moves

# A word of the callee's dotted name that says it runs functions in other processes: `WorkerPool(fn, ...)`,
# `multiprocessing.Pool().imap(fn, xs)`, `pool.map(fn, xs)`. (Executors are left out: `executor.submit(fn)` is as
# often a thread pool's, whose workers share the device with the caller.)
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_POOL_WORDS = frozenset({"pool"})
# Names of thread pools: a file naming one may hand device tensors to threads of its own process.
_THREAD_POOLS = frozenset({"ThreadPool", "ThreadPoolExecutor"})
# Methods only a process pool has: `workers.apply_async(fn, args)` whatever the pool is called.
_POOL_METHODS = frozenset({"apply_async", "map_async", "imap", "imap_unordered", "starmap", "starmap_async"})


def _pool_call(call) -> bool:
    f = call.func
    if type(f) is ast.Attribute and f.attr in _POOL_METHODS:
        return True
    text = dotted(f)
    if not text and type(f) is ast.Attribute and type(f.value) is ast.Call:
        text = dotted(f.value.func) + "." + f.attr  # Pool(4).imap(fn, xs)
    words = {w.lower() for part in text.replace(".", "_").split("_") for w in _WORDS.findall(part)}
    return bool(words & _POOL_WORDS)


def _workers(ctx) -> frozenset:
    """Names of the file's functions handed to a pool as the first positional argument."""
    def compute(c) -> frozenset:
        # Each test below needs a thread pool's name or `multiprocessing.dummy` spelled in the file: a first look at
        # the text skips their walk of every node where neither word occurs (most files).
        threads = any(c.may_name(w) for w in sorted(_THREAD_POOLS)) or c.may_name("dummy")
        if threads and (any(n.id in _THREAD_POOLS for n in c.nodes(ast.Name)) or any(
                n.attr in _THREAD_POOLS for n in c.nodes(ast.Attribute)) or any(
                a.name.split(".")[-1] in _THREAD_POOLS for st in c.nodes(ast.ImportFrom) for a in st.names) or any(
                (st.module or "") == "multiprocessing.dummy" for st in c.nodes(ast.ImportFrom)) or any(
                a.name == "multiprocessing.dummy" for st in c.nodes(ast.Import) for a in st.names)):
            return frozenset()
        return frozenset(call.args[0].id for call in c.calls()
                         if call.args and type(call.args[0]) is ast.Name and _pool_call(call))
    return ctx.fact("pool-worker:names", compute)


@predicate("pool-worker", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def pool_worker(ctx, hit) -> bool:
    """A match inside a module-level function the same file hands to a process pool as its worker
    (`WorkerPool(img_save_and_viz, processes=n)`, `pool.map(save_one, items)`: a callee whose dotted name holds
    the word "pool", or a method only a pool has: `apply_async`, `imap`, `starmap`, ...), for rules of the categories in
    `host-data-categories`, when the function names no device itself. The worker runs in other processes on what
    was pickled to them: host tensors and arrays, results already brought back for saving or drawing (sapiens'
    demo scripts resize the `.cpu()` results bilinearly there before writing images). A function that places
    anything on a device, reads `.device` or takes a `device` parameter, a method, a function only called
    directly or handed to an executor, and every function of a file naming a thread pool (`ThreadPool`,
    `ThreadPoolExecutor`, `multiprocessing.dummy`: threads share the device with their caller) still match."""
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    fn = enclosing_function(ctx, hit.node)
    while fn is not None and enclosing_function(ctx, fn) is not None:
        fn = enclosing_function(ctx, fn)
    if fn is None or ctx.parent(fn) is not ctx.tree or fn.name not in _workers(ctx):
        return False
    return not _function_moves(ctx, fn)
