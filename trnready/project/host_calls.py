"""host-data-code at the call: a linked finding whose call sits in load-time code is guarded as in the file pass.

The link step reports a project wrapper's value where it enters: `resize_clip_pos_embed(state_dict, model)` gets
`interpolation="bicubic"` from the wrapper's signature, and the finding sits at that call. The per-file pass judged
the wrapper's body, not the call, so `host-data-code` never saw the place. Here it is asked at the call, for the
categories of `host-data-categories`: a call inside a function named as load-time work (`host-data-functions`:
`load_checkpoint`, `*load_pretrained*`, `__getitem__`) or taking checkpoint weights (`checkpoint-parameters`) that
names no device itself, or a call handed checkpoint weights (`resize_visual_pos_embed(visual_state_dict, model)`),
reshapes weights while they load on the host. Such a call folded into a finding kept at another call is dropped
from its places; a finding at such a call with further calls that are not is left whole. Anything else stays as the
link step left it."""
from __future__ import annotations

import ast
from dataclasses import replace

REASON = "host-data-code"


def _call_at(ctx, line: int, col: int):
    found = [c for c in ctx.nodes(ast.Call) if c.lineno == line]
    exact = [c for c in found if c.col_offset == col]
    return (exact or found or [None])[0]


def _handed_weights(ctx, call) -> bool:
    from ..context.base import name_globs

    want, unwanted = name_globs(ctx, "checkpoint-parameters"), name_globs(ctx, "checkpoint-parameter-not")
    if want is None:
        return False
    args = list(call.args) + [k.value for k in call.keywords]
    return any(type(a) is ast.Name and want.match(a.id) and not (unwanted is not None and unwanted.match(a.id))
               for a in args)


def _at_host_call(ctx, line: int, col: int) -> bool:
    from ..context.base import enclosing_function
    from ..context.host_data_code import _function_moves, _is_host

    call = _call_at(ctx, line, col)
    if call is None:
        return False
    func = enclosing_function(ctx, call)
    if func is not None and _is_host(ctx, func, 0) and not _function_moves(ctx, func):
        return True
    return _handed_weights(ctx, call)


def guard_host_calls(findings: list, linked: int, lines_of: dict, values: dict) -> list:
    """The first `linked` findings come from the link step; those of `host-data-categories` at a host call are
    marked guarded (`guarded_by` host-data-code). Only files holding such findings are parsed, once each."""
    from ..context.base import FileContext

    cats = set(values.get("host-data-categories", ()))
    todo = [i for i, f in enumerate(findings[:linked]) if not f.guarded and f.category in cats and f.cell is None]
    if not todo:
        return findings
    out = list(findings)
    ctxs: dict = {}
    for i in todo:
        f = out[i]
        if f.path not in ctxs:
            try:
                tree = ast.parse("\n".join(lines_of.get(f.path, ())))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                tree = None
            ctxs[f.path] = FileContext(index=None, tree=tree, resolver=None, values=values, path=f.path) \
                if tree is not None else None
        ctx = ctxs[f.path]
        if ctx is None or not _at_host_call(ctx, f.line, f.column - 1):
            # a load-time call folded into a finding kept elsewhere is no place of it
            kept = tuple(o for o in f.occurrences if ctx is None or not _at_host_call(ctx, o[0], o[1] - 1))
            if len(kept) != len(f.occurrences):
                out[i] = replace(f, occurrences=kept)
        elif all(_at_host_call(ctx, o[0], o[1] - 1) for o in f.occurrences):
            # the further calls folded into the finding must be load-time calls too: otherwise it stays whole
            out[i] = replace(f, guarded=True, guarded_by=REASON)
    return out
