"""Attention processors whose mask nothing in the project passes (`processor-mask-unset`).

A diffusers-style attention processor is a class whose `__call__(self, attn, hidden_states,
encoder_hidden_states=None, attention_mask=None, ...)` (or `forward`, for an `nn.Module` processor) the library's
`Attention` module calls with the mask the model was called with: `unet(latents, t, encoder_hidden_states=emb)`
leaves `attention_mask` and `encoder_attention_mask` None, `attn.prepare_attention_mask(None, ...)` returns None,
and the processor's `F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)` runs without a mask. The
callers step cannot see this: the processor's caller is the library. The finding (an attention-mask rule whose mask
argument is the processor's `attention_mask`, only reshaped or prepared on the way) is marked guarded when no code
of the project hands a model or a processor a mask:

- no call passes `encoder_attention_mask` other than as None;
- no call that also passes `encoder_hidden_states` (the shape of a UNet, transformer-model or processor call)
  passes `attention_mask` other than as None, or passes a `**` splat (which may carry one);
- no call of a `processor` passes four positional arguments or more (the mask by position);
- no notebook of the scan names `attention_mask` (its cells are not parsed here).

A text encoder given its padding mask (`text_model(input_ids=ids, attention_mask=m)`) is none of these: its mask
never reaches the UNet's processors. A project whose own transformer blocks hand a mask to their processors
(`self.processor(self, x, encoder_hidden_states=c, attention_mask=mask)`) keeps every finding.
"""
from __future__ import annotations

import ast
from dataclasses import replace

from ..astwalk import walk
from .step_memo import holding, text_test

GUARD = "processor-mask-unset"
CATEGORY = "attention-mask"
_MASK = "attention_mask"
# the mask arguments of the attention calls (SDPA's and MultiheadAttention's `attn_mask`, a helper's `mask`)
_MASK_ARGS = ("attn_mask", "mask")
# a file that may hand a mask (`_hands_a_mask`) names one of these
_CALL_WORDS = ((_MASK,), ("encoder_hidden_states",), ("processor",))


def _processor_call(fn) -> bool:
    """`def __call__(self, attn, hidden_states, ..., attention_mask=None, ...)`: the processor protocol (`forward`
    for a processor that is an `nn.Module`: the library calls the instance)."""
    if fn.name not in ("__call__", "forward"):
        return False
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    kw = [a.arg for a in fn.args.kwonlyargs]
    return len(names) >= 3 and names[1] == "attn" and names[2] == "hidden_states" and _MASK in (*names, *kw)


def _keeps_none(value) -> bool:
    """A value that is None whenever the processor's mask is: the library's preparation of it, a method of the
    mask itself (it runs only when the mask is not None), None, or a choice between those."""
    t = type(value)
    if t is ast.Constant:
        return value.value is None
    if t is ast.Name:
        return value.id == _MASK
    if t is ast.IfExp:
        return _keeps_none(value.body) and _keeps_none(value.orelse)
    if t is ast.Subscript:  # `attention_mask[:, None]`
        return _keeps_none(value.value) and type(value.value) is not ast.Constant
    if t is not ast.Call:
        return False
    f = value.func
    if type(f) is not ast.Attribute:
        return False
    if f.attr == "prepare_attention_mask":
        return type(f.value) is ast.Name and f.value.id == "attn" and bool(value.args) \
            and type(value.args[0]) is ast.Name and value.args[0].id == _MASK
    inner = f.value
    while type(inner) is ast.Call and type(inner.func) is ast.Attribute:  # `attention_mask.to(x).view(...)`
        inner = inner.func.value
    while type(inner) is ast.Subscript:  # `attention_mask[:, None]`
        inner = inner.value
    return type(inner) is ast.Name and inner.id == _MASK


def _mask_only_prepared(fn) -> bool:
    """Every assignment of `attention_mask` in the processor keeps None when it was None."""
    def names_mask(target) -> bool:
        return any(type(b) is ast.Name and b.id == _MASK for b in walk(target))

    for n in walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if names_mask(t) and (type(t) is not ast.Name or not _keeps_none(n.value)):
                    return False
        elif isinstance(n, ast.AnnAssign):
            if names_mask(n.target) and (n.value is None or not _keeps_none(n.value)):
                return False
        elif isinstance(n, (ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            if names_mask(n.target):
                return False
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            if any(i.optional_vars is not None and names_mask(i.optional_vars) for i in n.items):
                return False
    return True


def _mask_argument(call):
    for kw in call.keywords:
        if kw.arg in _MASK_ARGS:
            return kw.value
    if type(call.func) in (ast.Name, ast.Attribute) and len(call.args) > 3:
        return call.args[3]  # scaled_dot_product_attention(q, k, v, mask)
    return None


def _is_none(e) -> bool:
    return type(e) is ast.Constant and e.value is None


def _hands_a_mask(tree) -> bool:
    """A call in the file that may hand a model or a processor a mask (see the module's docstring)."""
    for n in walk(tree):
        if type(n) is not ast.Call:
            continue
        kws = {k.arg: k.value for k in n.keywords}
        if "encoder_attention_mask" in kws and not _is_none(kws["encoder_attention_mask"]):
            return True
        if "encoder_hidden_states" in kws or (type(n.func) is ast.Attribute and n.func.attr == "processor"):
            if _MASK in kws and not _is_none(kws[_MASK]):
                return True
            if None in kws:  # `**kwargs`
                return True
        f = n.func
        name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if name == "processor" and len(n.args) >= 4:
            return True
    return False


@text_test("hands-a-mask")
def _may_hand_a_mask(text: str) -> bool:
    """A file's text that may hand a model or a processor a mask: it names one of the call words and does not parse,
    or a call of it does (`_hands_a_mask`)."""
    if not any(w in text for (w,) in _CALL_WORDS):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return True
    return _hands_a_mask(tree)


def guard_processor_masks(findings: list, files: list, read_text) -> list:
    """findings with the attention-mask findings of never-masked processors marked guarded."""
    cands = [f for f in findings if f.category == CATEGORY and not f.guarded and not f.suppressed
             and f.cell is None and f.path.endswith(".py")]
    if not cands:
        return findings
    by_rel = {sf.rel: sf for sf in files}
    trees: dict = {}

    def tree_of(rel, need: str = ""):
        if rel not in trees:
            sf = by_rel.get(rel)
            text = read_text(sf) if sf is not None and sf.kind == "python" else None
            if text and need and need not in text:
                trees[rel] = None  # no processor here: not parsed
                return None
            try:
                trees[rel] = ast.parse(text) if text else None
            except (SyntaxError, ValueError, RecursionError):
                trees[rel] = None
        return trees[rel]

    chosen = []
    for f in cands:
        tree = tree_of(f.path, "hidden_states")
        if tree is None:
            continue
        for cls in walk(tree):
            if type(cls) is not ast.ClassDef:
                continue
            fn = next((st for st in cls.body if type(st) is ast.FunctionDef and _processor_call(st)
                       and st.lineno <= f.line <= (st.end_lineno or st.lineno)), None)
            if fn is None:
                continue
            if not _mask_only_prepared(fn):
                break
            calls = [n for n in walk(fn) if type(n) is ast.Call and n.lineno <= f.line <= (n.end_lineno or n.lineno)]
            args = [a for a in (_mask_argument(c) for c in calls) if a is not None]
            if args and all(type(a) is ast.Name and a.id == _MASK for a in args):
                chosen.append(f)
            break
    if not chosen:
        return findings
    for sf in files:
        if sf.kind == "notebook":
            try:
                data = sf.path.read_bytes()
            except OSError:
                return findings
            if _MASK.encode() in data:
                return findings
            continue
        if sf.kind != "python":
            continue
        if sf.rel in trees:  # a finding's file, parsed already
            text = read_text(sf)
            if text is None:
                return findings  # a file we cannot read may hand a mask
            if not any(w in text for (w,) in _CALL_WORDS):
                continue  # no call of the shapes above
            tree = trees[sf.rel]
            if tree is None or _hands_a_mask(tree):
                return findings
            continue
        # a file we cannot read, or one holding such a call, may hand a mask
        if holding(read_text, sf, (("@hands-a-mask",),)) != "":
            return findings
    keys = {id(f) for f in chosen}
    return [replace(f, guarded=True, guarded_by=GUARD) if id(f) in keys else f for f in findings]
