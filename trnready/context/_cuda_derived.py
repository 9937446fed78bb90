"""Values a program derives from CUDA that `neuron-guarded` reads as never true on Neuron, beyond the checks it
reads directly: a probe of the CUDA build of torch (`hasattr(torch._C, "_cuda_setRNGState")`), a count of CUDA
devices kept in a name next to small constants (`n_gpu = torch.cuda.device_count()` / `n_gpu = 1`, then `if n_gpu >
1:`), and a flag whose true value is assigned only in an arm Neuron never takes (`if lqs.is_cuda: self.cpu_cache =
True` / `else: self.cpu_cache = False`). Not a predicate of its own: `neuron-guarded` asks these helpers while it
builds its conditions, and names itself as the one that decided."""
from __future__ import annotations

import ast
from bisect import bisect_left

from .base import dotted, imported_name, name_globs
from ..astwalk import own_statements

_REBOUND = object()


def cuda_build_probe(ctx, call) -> bool:
    """`hasattr(torch._C, "_cuda_setRNGState")` (also through `from torch import _C`): an attribute that the torch
    extension module has only in a CUDA build (`cuda-build-attributes`, globs over the resolved name). PyTorch adds
    its `_cuda_*` functions to `torch._C` only when it is built with CUDA (`#ifdef USE_CUDA` around
    `THCPModule_methods()` in torch/csrc/Module.cpp; `torch.cuda._is_compiled()` is this very `hasattr`), and
    TorchNeuron's torch is not, so the probe is False there."""
    if len(call.args) != 2 or call.keywords:
        return False
    attr = call.args[1]
    if type(attr) is not ast.Constant or not isinstance(attr.value, str):
        return False
    globs = name_globs(ctx, "cuda-build-attributes")
    if globs is None:
        return False
    # (a file read without an index, as some readers give, is looked at as written)
    owner = imported_name(ctx, call.args[0])[0] if ctx.index is not None else dotted(call.args[0])
    return bool(owner) and globs.match(f"{owner}.{attr.value}") is not None


def _key(e) -> str:
    """`n_gpu` -> "n_gpu", `args.n_gpu` -> "args.n_gpu"; "" for anything else."""
    if type(e) is ast.Name:
        return e.id
    if type(e) is ast.Attribute:
        return dotted(e)
    return ""


def count_key(e) -> str:
    return _key(e)


def _is_count(v, backends: frozenset) -> bool:
    f = v.func if type(v) is ast.Call else None
    return f is not None and type(f) is ast.Attribute and f.attr == "device_count" and not v.args \
        and not v.keywords and (f.value.attr if type(f.value) is ast.Attribute else
                                f.value.id if type(f.value) is ast.Name else "") in backends


def device_count_bounds(ctx, backends: frozenset) -> dict:
    """name or dotted attribute -> the largest value it can hold on Neuron, for the names every assignment of which
    in the file is `torch.cuda.device_count()` (0 there) or a non-negative integer literal, at least one being the
    count: BingBert's `n_gpu = torch.cuda.device_count()` in one arm and `n_gpu = 1` in the distributed one, or
    `args.n_gpu = torch.cuda.device_count()`. `n_gpu > 1` is then False on every Neuron machine (the DataParallel
    it guards never runs), while `n_gpu > 0` stays undecided (the distributed arm sets 1). A name that is also a
    parameter of a function of the file, or bound any other way, is not judged; nor is an attribute whose name the
    file spells as an option (`"--n_gpu"`, a keyword `n_gpu=`), which may come from the command line."""
    if not ctx.may_name("device_count"):
        return {}
    found: dict = {}
    for st in ctx.statements():
        k = type(st)
        if k is ast.Assign or k is ast.AnnAssign:
            targets = st.targets if k is ast.Assign else [st.target]
            v = st.value
            if v is None:
                continue
            if len(targets) != 1 or type(targets[0]) not in (ast.Name, ast.Attribute):
                for t in targets:
                    for n in ast.walk(t):
                        key = _key(n)
                        if key:
                            found.setdefault(key, []).append(_REBOUND)
                continue
            key = _key(targets[0])
            if not key:
                continue
            if _is_count(v, backends):
                found.setdefault(key, []).append(-1)
            elif type(v) is ast.Constant and type(v.value) is int and v.value >= 0:
                found.setdefault(key, []).append(v.value)
            else:
                found.setdefault(key, []).append(_REBOUND)
        elif k in (ast.AugAssign, ast.For, ast.AsyncFor):
            key = _key(st.target)
            if key:
                found.setdefault(key, []).append(_REBOUND)
    counts = {key: vals for key, vals in found.items() if -1 in vals and _REBOUND not in vals}
    if not counts:
        return {}
    params = {a.arg for fn in ctx.nodes(ast.FunctionDef) + ctx.nodes(ast.AsyncFunctionDef)
              for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    attrs = {key.rsplit(".", 1)[1] for key in counts if "." in key}
    options: set = set()
    if attrs:
        for c in ctx.nodes(ast.Constant):
            if isinstance(c.value, str) and c.value.lstrip("-").replace("-", "_") in attrs:
                options.add(c.value.lstrip("-").replace("-", "_"))
        for c in ctx.calls():
            options.update(kw.arg for kw in c.keywords if kw.arg in attrs)
    return {key: max(0, *vals) for key, vals in counts.items()
            if key not in params and ("." not in key or key.rsplit(".", 1)[1] not in options)}


def query_fallbacks(ctx) -> dict:
    """name -> the integer a name holds on Neuron when it is bound once in a `try:` from a query of the current CUDA
    device (`cuda-device-queries`: `torch.cuda.get_device_capability()`, which raises without CUDA) and in every
    handler to a non-negative integer literal: ColossalAI's `try: cuda_arch = int("".join(str(i) for i in
    torch.cuda.get_device_capability()))` / `except: cuda_arch = 0`. On Neuron the query raises and the handler's
    value is the one the program sees, so `cuda_arch >= 89` is False there and `cuda_arch < 89` True. A name bound
    anywhere else in the file (or in more than one such `try`) is not judged."""
    queries = tuple(ctx.values.get("cuda-device-queries", ()))
    if not queries or not any(ctx.may_name(q) for q in queries):
        return {}

    def queried(v) -> bool:
        for n in ast.walk(v):
            if type(n) is ast.Call:
                name = dotted(n.func)
                if name.rsplit(".", 1)[-1] in queries and ".cuda." in "." + name:
                    return True
        return False
    found: dict = {}
    binds: dict = {}
    for st in ctx.statements():
        if type(st) in (ast.Assign, ast.AnnAssign, ast.AugAssign):
            for t in (st.targets if type(st) is ast.Assign else [st.target]):
                for n in ast.walk(t):
                    if type(n) is ast.Name:
                        binds[n.id] = binds.get(n.id, 0) + 1
        if type(st) is not ast.Try or not st.handlers:
            continue
        tried = [b.targets[0].id for b in st.body if isinstance(b, ast.Assign) and len(b.targets) == 1
                 and isinstance(b.targets[0], ast.Name) and queried(b.value)]
        for name in tried:
            values: set = set()
            for h in st.handlers:
                got = [x.value for x in h.body if type(x) is ast.Assign and len(x.targets) == 1
                       and type(x.targets[0]) is ast.Name and x.targets[0].id == name]
                values.update(v.value if type(v) is ast.Constant and type(v.value) is int and v.value >= 0 else -1
                              for v in got)
                if not got:
                    values.add(-1)
            if len(values) == 1 and -1 not in values:
                found.setdefault(name, []).append(values.pop())
    # one try/except binding it: two statements (the query and the fallback)
    return {k: v[0] for k, v in found.items() if len(v) == 1 and binds.get(k) == 2}


def unreached_flag_assigns(stmts, never, always, module_body=(), keys=None) -> set:
    """ids of the assignments that sit directly in an arm a Neuron machine never takes: the body of `if <test>:`
    when `never(test)`, the `else` when `always(test)` (`if t > self.cpu_cache_length and lqs.is_cuda:
    self.cpu_cache = True` / `else: self.cpu_cache = False`). The flag so assigned holds only its other values there:
    with them all False or None it is a never-on-Neuron flag like `self.cpu_cache = lqs.is_cuda`. Assignments in blocks
    nested in the arm count too, whatever their value (`args.distributed = args.world_size > 1` deep in the CUDA arm);
    only arms holding an assignment are asked about (the test is judged once). `keys`: only assignments of these keys
    are asked about (a module's summary asks about its classes' `self.x` flags alone)."""
    out: set = set()
    off = off_keys(stmts)
    if keys is not None:
        off &= keys
        if not off:
            return out
    for st in stmts:
        if type(st) is not ast.If:
            continue
        body = _arm_assigns(st.body, off, keys is not None)
        other = _arm_assigns(st.orelse, off, keys is not None)
        if body and never(st.test):
            out.update(id(s) for s in body)
        elif other and always(st.test):
            out.update(id(s) for s in other)
    if keys is None:
        for block in _blocks(stmts, module_body):
            out.update(_superseded(block, never, always))
    return out


def off_keys(stmts) -> set:
    """The keys a flag may be: names and attributes assigned False or None somewhere (the flag's off value); other
    assignments never make one."""
    return {_key(t) for st in stmts if type(st) is ast.Assign and type(st.value) is ast.Constant
            and st.value.value in (False, None) for t in st.targets} - {""}


def _arm_assigns(arm, off: set, only_off: bool = False) -> list:
    """The assignments of an arm: its own, and those of the blocks nested in it (not of a def or class in it):
    `args.distributed = args.world_size > 1` under `if "WORLD_SIZE" in os.environ:` in the `else` of `if not
    torch.cuda.is_available():` never runs on Neuron either (ParallelWaveGAN's train.py)."""
    return [s for s in own_statements(arm) if type(s) is ast.Assign and (
        any(_key(t) in off for t in s.targets) or type(s.value) is ast.Constant and not only_off)]


def _blocks(stmts, module_body):
    if module_body:
        yield module_body
    for st in stmts:
        for field in ("body", "orelse", "finalbody"):
            b = getattr(st, field, None)
            if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
                yield b


def _false_keys(arm) -> set:
    return {_key(s.targets[0]) for s in arm if type(s) is ast.Assign and len(s.targets) == 1
            and type(s.value) is ast.Constant and s.value.value in (False, None) and _key(s.targets[0])}


def _reads(node, key: str) -> bool:
    return any(isinstance(n, (ast.Name, ast.Attribute)) and type(n.ctx) is ast.Load and _key(n) == key
               for n in ast.walk(node))


def _superseded(block: list, never, always) -> set:
    """ids of the assignments a later `if` of the same block overwrites on Neuron before anything reads them:
    `args.distributed = num_gpus > 1`, then `if not args.no_cuda and torch.cuda.is_available(): ... else:
    args.distributed = False` (awesome-semantic-segmentation's train.py and eval.py, after maskrcnn-benchmark).
    The arm Neuron takes sets the key to False or None, so the earlier value is never seen there, and the flag
    holds only False on Neuron: `if args.distributed:` after it never runs. A read of the key between the two (or
    in the `if`'s own test) keeps the earlier assignment."""
    out: set = set()
    for i, st in enumerate(block):
        if type(st) is not ast.If:
            continue
        # the test is judged only when an arm sets a key to False or None (most `if` statements set none); an `if`
        # without an `else` counts when Neuron always takes its body (`if not torch.cuda.is_available():
        # args.distributed = False`)
        body, other = _false_keys(st.body), _false_keys(st.orelse)
        keys: set = set()
        if body and always(st.test):
            keys = body
        elif other and never(st.test):
            keys = other
        for key in keys:
            if _reads(st.test, key):
                continue
            for earlier in reversed(block[:i]):
                if type(earlier) is ast.Assign and len(earlier.targets) == 1 and _key(earlier.targets[0]) == key:
                    if not _reads(earlier.value, key):
                        out.add(id(earlier))
                    break
                if _reads(earlier, key) or type(earlier) not in (ast.Assign, ast.AnnAssign, ast.Expr):
                    break
    return out


def _device_kind(v) -> str:
    """"cuda" for the literal "cuda" / "cuda:N" or `torch.device("cuda", ...)`; "ordinal" for `torch.device(i)` with
    an integer literal or an element of a list of GPU ids (`torch.device(gpus[rank % len(gpus)])`: a bare ordinal
    names a CUDA device); "cpu" for "cpu" / `torch.device("cpu")`; "" for anything else."""
    if type(v) is ast.Constant and isinstance(v.value, str):
        s = v.value
        return "cuda" if s == "cuda" or (s.startswith("cuda:") and s[5:].isdigit()) else "cpu" if s == "cpu" else ""
    if type(v) is not ast.Call or dotted(v.func) not in ("torch.device", "device") or len(v.args) != 1 \
            or v.keywords:
        return ""
    a = v.args[0]
    if type(a) is ast.Constant:
        if type(a.value) is int:
            return "ordinal"
        return _device_kind(a)
    if type(a) is ast.Subscript and "gpu" in (_key(a.value).rsplit(".", 1)[-1]).lower():
        return "ordinal"
    return ""


def _kinds(stmts, attrs: bool) -> set:
    """The keys these statements pin to CUDA (`pinned_cuda_devices`), judged by the kinds (`_device_kind`) of the
    values assigned to each; a binding of any other shape (a loop or `with` target, a tuple, an augmented
    assignment) unpins. `attrs`: `self.x` keys, else names."""
    found: dict = {}

    def bound(t, kind) -> None:
        for n in ast.walk(t):
            if (type(n) is ast.Attribute) == attrs and _key(n):
                found.setdefault(_key(n), set()).add(kind)

    for st in stmts:
        k = type(st)
        if k is ast.Assign or k is ast.AnnAssign:
            targets = st.targets if k is ast.Assign else [st.target]
            if st.value is None:
                continue
            if len(targets) == 1 and type(targets[0]) in (ast.Name, ast.Attribute):
                if (type(targets[0]) is ast.Attribute) == attrs and _key(targets[0]):
                    found.setdefault(_key(targets[0]), set()).add(_device_kind(st.value))
                continue
            for t in targets:
                bound(t, "")
        elif k in (ast.AugAssign, ast.For, ast.AsyncFor):
            bound(st.target, "")
        elif k in (ast.With, ast.AsyncWith):
            for item in st.items:
                if item.optional_vars is not None:
                    bound(item.optional_vars, "")
    return {key for key, kinds in found.items()
            if kinds == {"cuda"} or ("ordinal" in kinds and kinds <= {"ordinal", "cpu", "cuda"})}


def _device_operand(o):
    return o.value if type(o) is ast.Attribute and o.attr == "type" else o


_OTHER_SIDES = (ast.Constant, ast.Attribute, ast.List, ast.Tuple, ast.Set)


def _may_compare_device(c) -> bool:
    ops = [_device_operand(o) for o in (c.left, *c.comparators)]
    return any(type(o) is ast.Name for o in ops) and any(type(o) in _OTHER_SIDES for o in ops)


def pinned_cuda_devices(ctx) -> frozenset:
    """The devices a comparison with "cuda" cannot tell apart from "an accelerator is in use": every assignment of
    them is the literal "cuda" (pointMLP-style `assert torch.cuda.is_available()` then `device = "cuda"`), or a
    device built from a bare GPU ordinal (`torch.device(gpus[rank])`, which is `cuda:<i>` on any host) with "cpu"
    as the only other value. `if device == "cuda":` / `if self.device.type == "cuda":` then holds on a Trainium host
    whenever the program was given an accelerator: it is the program's only accelerator path, not a CUDA check.
    A local name is judged in its function (not when it is also a parameter there, or bound another way); a
    `self.` attribute over the whole file. Gives the `self.` keys and the ids of the name operands of the
    comparisons that read a pinned local."""
    if not ctx.may_name("cuda"):
        return frozenset()
    out = set(_kinds(ctx.statements(), attrs=True))
    # only a function holding a comparison of a plain name with a literal or an attribute (the only comparisons
    # neuron-guarded asks about) can add an id: skip the rest before walking them
    compares = [c for c in ctx.compares() if _may_compare_device(c)]
    if not compares:
        return frozenset(out)
    compares.sort(key=lambda c: (c.lineno, c.col_offset))
    at_compare = [(c.lineno, c.col_offset) for c in compares]
    # a function's statements and comparisons are those starting inside its span: the file's statement list
    # (sorted by start) and the comparisons, cut by position, rather than a walk of each function's subtree
    stmts_all = ctx.statements()
    starts = ctx.memo["_starts"]  # their (line, column) starts, kept beside them by statements()
    for fn in ctx.nodes(ast.FunctionDef) + ctx.nodes(ast.AsyncFunctionDef):
        first, last = (fn.lineno, fn.col_offset), (fn.end_lineno or fn.lineno, fn.end_col_offset or 0)
        lo = bisect_left(at_compare, first)
        hi = bisect_left(at_compare, last)
        if lo == hi:
            continue
        stmts = [st for st in stmts_all[bisect_left(starts, first):bisect_left(starts, last)] if st is not fn]
        names = _kinds(stmts, attrs=False)
        names -= {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        if not names:
            continue
        for node in compares[lo:hi]:
            for o in (node.left, *node.comparators):
                o = _device_operand(o)
                if type(o) is ast.Name and o.id in names:
                    out.add(id(o))
    return frozenset(out)
