"""host-data-code: dataset, loader and transform code that builds host-side data on the CPU."""
from __future__ import annotations

import ast
import re

from .base import (dotted, enclosing_function, host_or_dtype, name_globs, parent_of, placements, places_on_device,
                   predicate)
from ..astwalk import walk


# Receivers whose `.device` is a configured choice rather than where an input tensor lies: `self`, `args`,
# `train_cfg`, `opts`, `model`. Matched at the start of a word of the name (`targets`, `margin` hold "arg" inside
# a word and are tensors).
_CONFIGURED = re.compile(r"^(self|cls)$|(^|_)(arg|cfg|conf|opt|param|setting|model|module|trainer|accelerator)",
                         re.I)


def _input_devices(ctx) -> frozenset:
    """Names every binding of which in the file is another value's device (`device = labels.device`), or a
    parameter of a module-level function every call of which in the file passes such a device (torchvision's
    `_perspective_grid(coeffs, ow, oh, dtype=dtype, device=img.device)`, copied into detectron2 forks)."""
    def compute(c) -> frozenset:
        follow: set = set()
        other: set = set()
        for st in c.nodes(ast.Assign):
            for t in st.targets:
                if type(t) is ast.Name:
                    (follow if _follows_input(st.value, frozenset()) else other).add(t.id)
        passed = _params_passed_devices(c)
        judged: set = set()  # ids of the parameters of named functions, judged by their calls
        for fn in c.nodes(ast.FunctionDef):
            for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
                judged.add(id(a))
                (follow if (fn.name, a.arg) in passed else other).add(a.arg)
        other.update(a.arg for a in c.nodes(ast.arg) if id(a) not in judged)
        return frozenset(follow - other)
    return ctx.fact("host-data-code:input-devices", compute)


def _params_passed_devices(c) -> set:
    """(function, parameter) for the device-named parameters of the file's module-level functions that every call
    in the file, at least one, fills with another value's device (`device=img.device`)."""
    top = {fn.name: fn for fn in (c.tree.body if c.tree is not None else ()) if type(fn) is ast.FunctionDef}
    wanted: dict = {(name, a.arg): i for name, fn in top.items() for i, a in enumerate(fn.args.args)
                    if "device" in a.arg}
    wanted.update({(name, a.arg): None for name, fn in top.items() for a in fn.args.kwonlyargs if "device" in a.arg})
    if not wanted:
        return set()
    seen: dict = {}
    for call in c.calls():
        f = call.func
        if type(f) is not ast.Name or f.id not in top:
            continue
        for (name, param), pos in wanted.items():
            if name != f.id:
                continue
            given = next((k.value for k in call.keywords if k.arg == param), None)
            if given is None and pos is not None and pos < len(call.args):
                given = call.args[pos]
            ok = given is not None and _follows_input(given, frozenset())
            seen[(name, param)] = seen.get((name, param), True) and ok
    return {k for k, ok in seen.items() if ok}


def _follows_input(e, names: frozenset) -> bool:
    """A placement that keeps a value where its inputs are (`device=clip.device`, `.to(first_item.device)`, a name
    holding such a device) or a dtype by name (`.to(dtype)`): it moves nothing to an accelerator by itself."""
    if type(e) is ast.Attribute and e.attr == "device":
        # `labels.device` follows a tensor; `self.device`, `args.device`, `cfg.device` are a device the code chose
        return type(e.value) is ast.Name and not _CONFIGURED.search(e.value.id)
    return type(e) is ast.Name and (e.id in names or "dtype" in e.id.lower())


def _moves(call, names: frozenset) -> bool:
    if not places_on_device(call):
        return False
    f = call.func
    if type(f) is ast.Attribute and f.attr == "cuda":
        return True
    return not all(host_or_dtype(a) or _follows_input(a, names) for a in placements(call))


def _moves_to_device(ctx) -> bool:
    """The file puts something on a device: `.cuda()`, `.to(x)` with anything but a dtype or "cpu",
    or a `device=` keyword other than "cpu". Such a file may run the matched code on the device. Following
    the device of an input (`device=x.device`) is not a move: host inputs give host outputs."""
    return ctx.fact("host-data-code:device",
                    lambda c: any(_moves(call, _input_devices(c)) for call in c.calls()))


def _function_moves(ctx, func) -> bool:
    """The function itself names a device: a placement, even one following an input (`inc.to(value.device)`: its
    inputs may already be on the device, as a collate of device graphs), or a `device` parameter."""
    a = func.args
    if any("device" in p.arg for p in a.posonlyargs + a.args + a.kwonlyargs):
        return True
    return any(type(n) is ast.Call and places_on_device(n) for n in walk(func))


def _in_host_path(ctx) -> bool:
    """Under a directory named in `host-data-dirs` or `host-data-dirs-only`, or in a file whose name holds one of
    `host-data-dirs` as a word (`scheduled_sampler.py`, `transforms.py`, `collate.py`). Not below a directory of
    `host-data-dirs-not-under`: mmdet's `core/bbox/samplers/` and `core/bbox/transforms.py` pick and encode boxes
    on the device in the training step."""
    parts = ctx.path.lower().split("/")
    dirs, name = set(parts[:-1]), parts[-1]
    if dirs & set(ctx.values.get("host-data-dirs-not-under", ())):
        return False
    known = set(ctx.values.get("host-data-dirs", ()))
    words = set(name.rsplit(".", 1)[0].split("_"))
    return bool(dirs & known) or bool(dirs & set(ctx.values.get("host-data-dirs-only", ()))) \
        or bool(words & known) or name.startswith("collate")


def _in_output_path(ctx) -> bool:
    """Under a directory named in `host-output-dirs` (`loggers/`, `plots/`, `visualization/`), or in a file whose
    name holds one as a word (`plots.py`, `vis_utils.py`): code that logs, plots or draws results."""
    known = set(ctx.values.get("host-output-dirs", ()))
    if not known:
        return False
    parts = ctx.path.lower().split("/")
    return bool(set(parts[:-1]) & known) or bool(set(parts[-1].rsplit(".", 1)[0].split("_")) & known)


def _in_module_class(ctx, node) -> bool:
    """Inside a class deriving from a `Module` (`torch.nn.Module`, `nn.Module`): model code kept beside a visualiser
    (a detection head's `predict` in `result_visualizer.py`) runs on the device."""
    p = parent_of(ctx, node)
    while p is not None:
        if type(p) is ast.ClassDef and any(dotted(b).rsplit(".", 1)[-1] == "Module" for b in p.bases):
            return True
        p = parent_of(ctx, p)
    return False


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


def _takes_checkpoint(ctx, func) -> bool:
    """A parameter named as checkpoint weights (`state_dict`, `pos_embed_checkpoint`; globs of
    `checkpoint-parameters`, minus `checkpoint-parameter-not`: `use_checkpoint` is a switch of the forward): the
    function reshapes weights while they load, whoever calls it."""
    if func.name in ("forward", "__call__"):
        return False
    want, unwanted = name_globs(ctx, "checkpoint-parameters"), name_globs(ctx, "checkpoint-parameter-not")
    if want is None:
        return False
    a = func.args
    return any(want.match(p.arg) and not (unwanted is not None and unwanted.match(p.arg))
               for p in a.posonlyargs + a.args + a.kwonlyargs)


# Operator methods: a class defining them is a tensor type of the project (a sparse tensor, a batch of boxes), and
# its `__getitem__` indexes device data, not a dataset's samples.
_OPERATORS = frozenset({"__add__", "__sub__", "__mul__", "__matmul__", "__truediv__", "__radd__", "__rmul__",
                        "__rtruediv__", "__neg__", "__iadd__", "__torch_function__"})


def _tensor_type(ctx, func) -> bool:
    cls = ctx.parent(func)
    return isinstance(cls, ast.ClassDef) and any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in _OPERATORS for s in cls.body)


def _is_host(ctx, func, depth: int) -> bool:
    pat = name_globs(ctx, "host-data-functions")
    while func is not None:
        if pat is not None and pat.match(func.name) and not (func.name.startswith("__getitem")
                                                               and _tensor_type(ctx, func)) \
                or _takes_checkpoint(ctx, func):
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
    """Inside a host function (or a helper only host functions call) that itself moves nothing to a device: a
    collate function runs in the loader even when a batch-moving helper of the same module does not."""
    func = enclosing_function(ctx, node)
    return _is_host(ctx, func, 2) and not _function_moves(ctx, func)


@predicate("host-data-code", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def host_data_code(ctx, hit) -> bool:
    """Data preparation that runs on the host CPU: a match in a module under a directory named in
    `host-data-dirs` (`io/`, `datasets/`, `transforms/`, ...), in a `collate*.py` file, or inside a
    function whose name matches `host-data-functions` (`__getitem__`, `*collate*`, checkpoint filters and
    state-dict load hooks that reshape weights once while loading), or inside a helper every caller of
    which in the file is such a function (two levels), for rules of the categories in
    `host-data-categories` (dynamic shapes, float64, sparse and nested tensors, ...). Such code builds
    the batches the loader hands over; it is not the model on the device. A module guarded by its path must
    move nothing to a device (`.cuda()`, `.to(device)`, `device=` other than "cpu"): a file that does can run
    the same code on the device and stays reported. A function guarded by its name is judged by its own
    body, which must name no device at all (a collate function next to a batch-moving helper). Following an
    input's device (`device=x.device`, `.to(labels.device)`; not `self.device` or `args.device`, which are
    chosen) is not a move, and a file name counts by its words (`scheduled_sampler.py`). A function taking
    checkpoint weights (`checkpoint-parameters`: `resize_pos_embed(state_dict, model)`) is load-time work
    wherever it is called from. The `__getitem__` of a class defining operator methods (`__add__`,
    `__torch_function__`: a tensor type of the project) indexes device data and is no dataset's. For the categories of
    `host-output-categories` (dynamic shapes), a module under a directory of `host-output-dirs` (`loggers/`,
    `plots/`, `visualization/`, or a file named with one as a word) that moves nothing to a device is host code too:
    it logs, plots or draws results on their way out."""
    if hit.rule.category in ctx.values.get("host-output-categories", ()) and _in_output_path(ctx) \
            and not _moves_to_device(ctx) and not _in_module_class(ctx, hit.node):
        return True  # logging, plotting, drawing: results on their way out, never a compiled step
    if hit.rule.category not in ctx.values.get("host-data-categories", ()):
        return False
    if _in_host_path(ctx) and not _moves_to_device(ctx):
        return True
    return _in_host_function(ctx, hit.node)


class _TreeView:
    """The parts of a FileContext `_moves_to_device` reads, over a parsed module (for the link step)."""

    def __init__(self, tree, path: str = "", values: dict | None = None):
        self._all = list(walk(tree)) if tree is not None else []
        self.tree = tree
        self.memo: dict = {}
        self.path, self.values = path, values or {}

    def nodes(self, kind: type) -> list:
        return [n for n in self._all if type(n) is kind]

    def calls(self) -> list:
        return self.nodes(ast.Call)

    def fact(self, key: str, compute):
        if key not in self.memo:
            self.memo[key] = compute(self)
        return self.memo[key]


def host_module(rel: str, text: str, values: dict) -> bool:
    """The module is host data code by its path, as this predicate judges it: under a directory of
    `host-data-dirs` (or named with one as a word) and moving nothing to a device. For the link step, whose
    findings reach a call through a chain of project calls (`ResizeVideo(interpolation_mode="bilinear")` in a
    video processor down to `F.interpolate` in its functional helpers) and are judged on a snippet without a
    path."""
    if not _in_host_path(_TreeView(None, rel, values)):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return not _moves_to_device(_TreeView(tree))
