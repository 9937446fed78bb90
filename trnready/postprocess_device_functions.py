"""Device functions of a file's kernels fold into the kernel (file step `device_functions`).

A kernel compiler's decorator with a device-function keyword set true (numba's `@cuda.jit(device=True)`) makes a
function only a kernel of the same compiler can call: it is compiled into the kernel, never launched by the host.
When the file also defines a kernel (the same decorator without that keyword) reported by the same rule, the port
rewrites that kernel with its helpers as one piece, so each helper is a place of the kernel's finding, not an item
of its own (mmdetection3d's KITTI rotated-IoU: eight `@cuda.jit(device=True, inline=True)` helpers of one
`rotate_iou_kernel_eval`). A file of device functions alone keeps its findings: the kernels that use them are
elsewhere, and nothing here says which.

Which keyword marks a device function is data: `[context.values] device-function-keywords` (`device`), for the
categories in `device-function-categories`.
"""
from __future__ import annotations

import ast
from dataclasses import replace

MAX_PLACES = 100  # as postprocess.MAX_OCCURRENCES


def _decorators(tree) -> dict:
    """(line, column) of each function decorator expression -> the expression. Columns are 1-based, as
    findings' are."""
    out: dict = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for d in node.decorator_list:
            out[(d.lineno, d.col_offset + 1)] = d
    return out


def _is_device(d, words: frozenset) -> bool:
    """A decorator call setting one of `words` to a true literal (`cuda.jit(device=True, inline=True)`)."""
    return type(d) is ast.Call and any(
        k.arg in words and type(k.value) is ast.Constant and bool(k.value.value) for k in d.keywords)


def device_functions(findings: list, ctx, result) -> list:
    values = getattr(getattr(ctx.engine, "catalogue", None), "context_values", {})
    words = frozenset(values.get("device-function-keywords", ()))
    categories = frozenset(values.get("device-function-categories", ()))
    if ctx.kind != "python" or len(findings) < 2 or not words or not categories or not result.sources:
        return findings
    tree = getattr(result.sources[0], "tree", None)
    mine = [f for f in findings if f.category in categories and f.cell is None]
    if not isinstance(tree, ast.Module) or len(mine) < 2:
        return findings
    decorators = _decorators(tree)
    kernels: dict = {}  # (rule, suppressed, guarded) -> the first kernel finding
    helpers: list = []
    for f in sorted(mine, key=lambda f: f.sort_key()):
        d = decorators.get((f.line, f.column))
        if d is None:
            continue
        if _is_device(d, words):
            helpers.append(f)
        else:
            kernels.setdefault((f.rule, f.suppressed, f.guarded), f)
    if not helpers or not kernels:
        return findings
    into: dict = {}  # id of a kernel finding -> places folded into it
    gone: set = set()
    for h in helpers:
        k = kernels.get((h.rule, h.suppressed, h.guarded))
        if k is None:
            continue
        into.setdefault(id(k), []).extend([(h.line, h.column, h.rule), *h.occurrences])
        gone.add(id(h))
    out = []
    for f in findings:
        if id(f) in gone:
            continue
        if id(f) in into:
            more = sorted(set(f.occurrences) | set(into[id(f)]))
            f = replace(f, occurrences=tuple(p for p in more if p != (f.line, f.column, f.rule))[:MAX_PLACES])
        out.append(f)
    return out
