"""host-built-value: an operation on tensors the function itself builds on the host, never moved to a device."""
from __future__ import annotations

import ast

from .base import (compiles, dotted, enclosing_function, imported_name, is_cpu, outermost_function, parent_of,
                   places_on_device, predicate, value_bound_once)
from ..astwalk import own_statements, walk

# torch functions that build a tensor from Python values (shapes, lists, NumPy arrays) on the default device,
# the CPU unless a default device is set. `torch.tensor(x)` is Python data by convention (a tensor argument is a
# copy construction torch warns about); `torch.as_tensor(x)` keeps a tensor where it is, so only literal data counts.
_FACTORIES = frozenset({
    "tensor", "zeros", "ones", "empty", "full", "arange", "range", "linspace", "logspace", "eye", "rand", "randn",
    "randint", "randperm", "from_numpy", "tril_indices", "triu_indices", "Tensor", "DoubleTensor", "FloatTensor",
    "LongTensor", "IntTensor", "BoolTensor", "HalfTensor", "ByteTensor", "ShortTensor", "CharTensor"})
_LITERAL_DATA = (ast.List, ast.Tuple, ast.ListComp, ast.Constant)
# Methods that leave the tensor's world: their result is a Python value (or a NumPy array) on the host.
_TO_PYTHON = frozenset({"item", "tolist", "numpy", "numel", "size", "dim", "ndimension", "element_size",
                        "data_ptr", "stride", "nelement"})
# Attributes that are Python values whatever the tensor: shapes, dtypes, counts.
# Methods whose result is a host value whatever is known of the receiver: a device tensor has no `.numpy()`.
_LEAVES_TORCH = frozenset({"numpy", "tolist", "item"})
# Casts that leave float64 (and sparse) storage behind: by method name, and by the dtype given to `.to` / `.type`.
_CAST_AWAY = frozenset({"numpy", "float", "half", "bfloat16", "int", "bool", "tolist", "item", "to_dense"})
_NARROW = frozenset({"float32", "float", "float16", "half", "bfloat16", "int32", "int", "int16", "int8", "uint8",
                     "bool"})
# Libraries whose operations run where their tensor arguments are, as torch's own functions do.
_FOLLOWING_LIBRARIES = ("torchvision.ops.",)
# How often one expression may be followed again under the assumption that a loop-carried name is a host tensor.
_RETRIES = 8
_PY_ATTRS = frozenset({"shape", "ndim", "dtype", "layout", "is_sparse", "is_nested", "requires_grad"})
# Builtins and modules whose results are Python or NumPy values.
_PY_CALLS = frozenset({"len", "int", "float", "bool", "round", "range", "enumerate", "zip", "list", "tuple",
                       "sorted", "reversed", "abs", "min", "max", "sum", "divmod", "pow", "str", "set", "dict"})
# Builtins whose argument is turned into a Python value (`self.num_timesteps = int(timesteps)`).
_TO_PYTHON_CALLS = frozenset({"int", "float", "bool", "len", "round", "str"})
_PY_MODULES = ("math.", "np.", "numpy.", "random.", "itertools.")
# Anything in the file that makes factories build on a device: a default device, a device context.
_DEFAULT_DEVICE = frozenset({"set_default_device", "set_default_tensor_type", "set_default_dtype_and_device"})

HOST, PY = "host", "py"  # a tensor on the host; a Python / NumPy value
# Checkpoint readers that load onto the CPU unless given another device (their `device` argument, second).
_HOST_READERS = frozenset({"safetensors.torch.load_file", "safetensors.torch.load"})


def _torch_name(ctx, func) -> str:
    """`torch.zeros`, also through `import torch as th` or `from torch import zeros` (the file's own imports)."""
    name, bound = imported_name(ctx, func)
    return name if bound or name.partition(".")[0] == "torch" else ""


def _sets_default_device(ctx) -> bool:
    def compute(c) -> bool:
        for call in c.calls():
            f = call.func
            tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if tail in _DEFAULT_DEVICE:
                return True
        for w in c.nodes(ast.With) + c.nodes(ast.AsyncWith):
            for item in w.items:
                e = item.context_expr
                if type(e) is ast.Call and dotted(e.func).endswith("device") and not (e.args and is_cpu(e.args[0])):
                    return True
        return False
    return ctx.fact("host-built-value:default-device", compute)


def _moves_to_device(ctx) -> bool:
    return ctx.fact("host-data-code:device", lambda c: any(places_on_device(call) for call in c.calls()))


class _Function:
    """The names one function binds (outside its nested functions), and what each binding assigns."""

    def __init__(self, fn, walrus: bool = True):
        """walrus: False when the file holds no `:=` (one token, never split), so no walk for its targets."""
        self.fn = fn
        self.params: set = set()
        self.bound: dict = {}  # name -> [value expression, or None when unknown]
        args = getattr(fn, "args", None)  # None: the module's top level (a script's statements)
        if args is not None:
            self.params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            for extra in (args.vararg, args.kwarg):
                if extra is not None:
                    self.params.add(extra.arg)
        self._walk(fn.body)
        for n in walk(fn) if walrus else ():  # walrus targets anywhere in the function's expressions
            if type(n) is ast.NamedExpr and type(n.target) is ast.Name:
                self.bound.setdefault(n.target.id, []).append(n.value)
        if args is None:
            # a function that declares a module name `global` may assign it anything, at any time
            for n in walk(fn):
                if type(n) is ast.Global:
                    for name in n.names:
                        self.bound.setdefault(name, []).append(None)

    def _bind(self, target, value) -> None:
        t = type(target)
        if t is ast.Name:
            self.bound.setdefault(target.id, []).append(value)
        elif t in (ast.Tuple, ast.List):
            for elt in target.elts:  # each part of an unpacked value has the kind of the whole
                self._bind(elt, value)
        elif t is ast.Starred:
            self._bind(target.value, value)

    def _bind_loop(self, target, it) -> None:
        """`for a, b in zip(xs, ys)`: each name has the kind of its own sequence (`for i, x in enumerate(xs)`: the
        index is a Python int); any other loop binds its target to the whole iterable."""
        if type(it) is ast.Call and type(it.func) is ast.Name and not it.keywords \
                and type(target) in (ast.Tuple, ast.List) and not any(type(a) is ast.Starred for a in it.args):
            if it.func.id == "zip" and len(it.args) == len(target.elts) \
                    and not any(type(e) is ast.Starred for e in target.elts):
                for elt, seq in zip(target.elts, it.args):
                    self._bind_loop(elt, seq)
                return
            if it.func.id == "enumerate" and len(it.args) == 1 and len(target.elts) == 2:
                self._bind(target.elts[0], it)  # the count: bound to the call, as before (a real node)
                self._bind_loop(target.elts[1], it.args[0])
                return
        self._bind(target, it)

    def _walk(self, stmts) -> None:
        for s in stmts:
            k = type(s)
            if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                self.bound.setdefault(getattr(s, "name", ""), []).append(None)
                continue
            if k is ast.Assign:
                for t in s.targets:
                    self._bind(t, s.value)
            elif k is ast.AnnAssign and s.value is not None:
                self._bind(s.target, s.value)
            elif k is ast.AugAssign:
                self._bind(s.target, s.value)  # x += y: x keeps its kind only if y has it too
            elif k in (ast.For, ast.AsyncFor):
                self._bind_loop(s.target, s.iter)
            elif k in (ast.With, ast.AsyncWith):
                for item in s.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
            elif k in (ast.Global, ast.Nonlocal):
                for n in s.names:
                    self.bound.setdefault(n, []).append(None)
            elif k is ast.Try or k.__name__ == "TryStar":
                for h in s.handlers:
                    if h.name:
                        self.bound.setdefault(h.name, []).append(None)
            elif k is ast.Import or k is ast.ImportFrom:
                for a in s.names:
                    self.bound.setdefault((a.asname or a.name).split(".")[0], []).append(None)
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(s, name, None)
                if inner and k not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                    self._walk(inner)
            for h in getattr(s, "handlers", None) or ():
                self._walk(h.body)
            for c in getattr(s, "cases", None) or ():
                self._walk(c.body)


def _built_on_host(value) -> bool:
    """A value made on the host where it is written: a NumPy call (`np.array(rows)`, `numpy.zeros(n)`), a constant
    or a list of constants. Only such a first value lets a name later turned into a tensor and narrowed in place
    count as host data; a value that is Python by some longer reading (a loop's target, an attribute, a call's
    result, an empty list filled later) may hold device tensors (`top = preds.squeeze(-1)`, then `top =
    top.masked_select(keep)`; `parts = []`, appends, then `parts = torch.cat(parts)`)."""
    if value is None:
        return False
    if type(value) is ast.Constant:
        return True
    if type(value) in (ast.List, ast.Tuple):  # written out in full; an empty list is filled later, with anything
        return bool(value.elts) and all(_built_on_host(e) for e in value.elts)
    if type(value) is ast.Call:
        f = value.func
        while type(f) is ast.Attribute:
            f = f.value
        return type(f) is ast.Name and f.id in ("np", "numpy")
    return False


class _Kinds:
    """Whether an expression is a tensor built on the host (HOST), a Python value (PY) or unknown (None), by what
    the enclosing functions assign; names of the module, parameters and attributes are unknown."""

    def __init__(self, ctx, node):
        self.ctx = ctx
        self.functions = []  # innermost first
        fn = enclosing_function(ctx, node)
        while fn is not None:
            self.functions.append(_function(ctx, fn))
            fn = enclosing_function(ctx, fn)
        if not self.functions and _top_level(ctx, node):
            self.functions.append(_function(ctx, ctx.tree))  # a script's own statements bind its names
        self.comprehensions: dict = {}
        p = parent_of(ctx, node)
        while p is not None and not isinstance(p, ast.stmt):
            if type(p) in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
                for gen in p.generators:
                    self._comp_target(gen.target, gen.iter)
            p = parent_of(ctx, p)
        self.busy: dict = {}  # (function, name) being followed -> the kind assumed for it meanwhile
        self.retries = 0
        self.answers: dict = {}  # _bound_kind's answers, by what they depend on
        self.assuming = 0  # inside a second look that assumes a loop-carried name is a host tensor

    def _comp_target(self, target, it) -> None:
        if type(target) is ast.Name:
            self.comprehensions.setdefault(target.id, it)
        elif type(target) in (ast.Tuple, ast.List):
            for elt in target.elts:
                self._comp_target(elt, it)

    def of(self, e, depth: int = 0):
        if depth > 12 or e is None:
            return None
        k = type(e)
        if k in (ast.Constant, ast.JoinedStr):
            return PY
        if k in (ast.List, ast.Tuple, ast.Set):
            return self._mix(e.elts, depth)
        if k in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.Dict):
            return PY
        if k is ast.Starred:
            return self.of(e.value, depth + 1)
        if k is ast.Name:
            return self._name(e.id, depth, e)
        if k is ast.Attribute:
            if e.attr in _PY_ATTRS:
                return PY
            if dotted(e).startswith("torch.") or _torch_name(self.ctx, e):
                return PY  # torch.float64, torch.int32: a dtype
            if e.attr in ("T", "mT", "H", "real", "imag", "data", "grad"):
                return self.of(e.value, depth + 1)
            if type(e.value) is ast.Name and e.value.id == "self":
                return _attribute_kind(self.ctx, e.attr)
            return None
        if k is ast.Subscript:
            base = self.of(e.value, depth + 1)
            if base == HOST:
                return HOST  # a host tensor indexed by anything: a device index would not run
            if base is None:
                return None
            return self._mix([e.slice], depth)
        if k is ast.Slice:
            return self._combine([self.of(x, depth + 1) for x in (e.lower, e.upper, e.step) if x is not None], PY)
        if k is ast.BinOp:
            return self._mix([e.left, e.right], depth)
        if k is ast.UnaryOp:
            return self.of(e.operand, depth + 1)
        if k is ast.BoolOp:
            return self._combine([self.of(v, depth + 1) for v in e.values], PY)
        if k is ast.Compare:
            return self._mix([e.left, *e.comparators], depth)
        if k is ast.IfExp:
            return self._combine([self.of(e.body, depth + 1), self.of(e.orelse, depth + 1)], PY)
        if k is ast.Call:
            return self._call(e, depth)
        return None

    def _mix(self, operands, depth: int):
        """The operands of one operation: a host tensor among them makes the result a host tensor, whatever the
        other names, attributes, items and arithmetic of those are (`host >= self.size - 1`: a tensor on a device
        next to it would not run; 0-dim host tensors are Python values here). The result of a call nobody can see
        into (`make(n) + host`) stays unknown."""
        kinds = [self.of(x, depth + 1) for x in operands]
        if HOST in kinds and all(k is not None or not any(type(n) is ast.Call for n in walk(x))
                                 for k, x in zip(kinds, operands)):
            return HOST
        return None if None in kinds else PY

    @staticmethod
    def _combine(kinds, empty):
        if any(x is None for x in kinds):
            return None
        return HOST if HOST in kinds else empty

    def _name(self, name: str, depth: int, use=None):
        if name in self.comprehensions:
            return self.of(self.comprehensions[name], depth + 1)
        for fn in self.functions:
            if name in fn.bound:
                if self.assuming and name in fn.params and not _replaced_first(self.ctx, fn.fn, name):
                    return None  # a re-bound parameter: what the caller passed may be anything
                key = (id(fn), name)
                if key in self.busy:
                    return self.busy[key]  # a loop-carried name: its other assignments decide
                values = fn.bound[name]
                if use is not None:
                    values = [v for v in values if v is None or not _other_arm(self.ctx, v, use)]
                return self._bound_kind(key, values, depth)
            if name in fn.params:
                return None
        return None

    def _bound_kind(self, key, values, depth: int):
        """The kind of a name from all its assignments. A name assigned from itself (`x = x[x.max(1)[0] > t]`, a
        filter that narrows a host tensor) is first followed as a Python value; when that leaves it unknown it is
        followed again as a host tensor, and kept as one if every assignment then is one (the only consistent
        answer: a device tensor would make the first assignment unknown, not a host tensor). A loop over
        `enumerate(batch)` binds Python values by this reading, so it never agrees.
        The answer depends only on the values, the assumptions in force and whether a second look is under way, so
        it is kept under those: a name read many times (a size computed once and used in every line of a script)
        is followed once, and the second looks are left for the names that need them."""
        memo = (key, tuple(id(v) for v in values), tuple(sorted(self.busy.items())), self.assuming)
        if memo in self.answers:
            return self.answers[memo]
        found = self.answers[memo] = self._follow(key, values, depth)
        return found

    def _follow(self, key, values, depth: int):
        self.busy[key] = PY
        try:
            found = self._combine([self.of(v, depth + 1) for v in values], PY)
            if found is None and self.retries < _RETRIES and any(
                    type(n) is ast.Name and n.id == key[1] for v in values if v is not None for n in walk(v)):
                self.retries += 1
                self.busy[key] = HOST
                self.assuming += 1
                try:
                    # a Python or NumPy value assigned first (`table = np.array(rows)`, then `table =
                    # torch.tensor(table)`, `table = table.reshape(...)`) is host data too; a loop's target is not
                    # (`for i, x in enumerate(batch)` reads as Python values whatever the batch holds)
                    kinds = [self.of(v, depth + 1) for v in values]
                    if HOST in kinds and all(k == HOST or k == PY and _built_on_host(v)
                                             for k, v in zip(kinds, values)):
                        found = HOST
                finally:
                    self.assuming -= 1
            return found
        finally:
            del self.busy[key]


    @staticmethod
    def _arg_nodes(call):
        return list(call.args) + [kw.value for kw in call.keywords if kw.arg not in ("dtype", "out")]

    def _call(self, call, depth: int):
        f = call.func
        if type(f) is ast.Attribute and f.attr == "to" and _to_cpu(self.ctx, call):
            return HOST  # `device = torch.device("cpu")`, then `pred = pred.to(device=device)`
        if any(kw.arg is None or kw.arg == "device" and not is_cpu(kw.value) for kw in call.keywords):
            return None  # `**factory_kwargs` may carry a device
        if type(f) is ast.Name and f.id in _PY_CALLS and not _torch_name(self.ctx, f):
            return PY
        name = dotted(f)
        if name.startswith(_PY_MODULES):
            return PY
        if name in ("OrderedDict", "collections.OrderedDict") and not call.args and not call.keywords:
            return PY  # an empty mapping, as `{}` and `dict()` are: its items are not followed (state-dict renames)
        torch_name = _torch_name(self.ctx, f)
        if torch_name in _HOST_READERS:
            # safetensors reads a file onto `device`, the CPU unless another is named
            where = next((kw.value for kw in call.keywords if kw.arg == "device"),
                         call.args[1] if len(call.args) > 1 else None)
            return HOST if where is None or is_cpu(where) else None
        if not torch_name.startswith("torch.") and any(kw.arg == "map_location" for kw in call.keywords):
            # another library's checkpoint reader loading onto the CPU (`_load_checkpoint(path, map_location="cpu")`
            # of mmengine, a project's `load_checkpoint`): `map_location` is torch.load's, handed through
            where = next(kw.value for kw in call.keywords if kw.arg == "map_location")
            return HOST if is_cpu(where) else None
        if torch_name.startswith(_FOLLOWING_LIBRARIES):
            # torchvision's box ops compute where their tensors are (`nms(torch.from_numpy(boxes),
            # torch.from_numpy(scores), 0.3)` in a demo: suppression on the CPU)
            if not call.args or self.of(call.args[0], depth + 1) is None:
                return None
            return self._mix(self._arg_nodes(call), depth)
        if torch_name.startswith("torch."):
            tail = torch_name.rsplit(".", 1)[-1]
            if tail in ("iinfo", "finfo", "Size", "dtype", "is_tensor", "numel"):
                return PY
            if tail in ("device", "cuda", "get_default_device"):
                return None
            if tail == "as_tensor":
                # literal data, or a NumPy / Python value (`torch.as_tensor(labels.numpy())`): built on the host
                return HOST if call.args and (type(call.args[0]) in _LITERAL_DATA
                                              or self.of(call.args[0], depth + 1) == PY) else None
            if tail in ("load", "load_state_dict_from_url"):
                # a checkpoint loaded onto the CPU (`torch.load(path, map_location="cpu")`): its tensors stay there
                # until something moves them (weights reshaped while loading: a position-embedding resize)
                where = next((kw.value for kw in call.keywords if kw.arg == "map_location"),
                             call.args[1] if len(call.args) > 1 else None)
                return HOST if where is not None and is_cpu(where) else None
            if tail == "scalar_tensor" or tail == "tensor" and call.args and type(call.args[0]) is ast.Constant:
                return PY  # a 0-dim tensor goes to the device of the tensors it meets
            if tail in _FACTORIES:
                # torch.tensor's data is Python values, the legacy constructors build on the CPU by type, and the
                # other factories take sizes and ranges: all build on the default device, the CPU
                return HOST
            listed = _joined_list(self.ctx, call) if tail in _JOINS else None
            if listed is not None:
                # a list of the function (or script) started empty and filled only with `x.detach().cpu()`:
                # `z0_list.append(z0.detach().cpu())` in a loop, then `torch.cat(z0_list)` (manifold-contrastive)
                owner = next((fn.fn for fn in self.functions if listed.id in fn.bound), None)
                if owner is not None and _joined_on_host(self.ctx, owner, call):
                    return HOST
            if call.args and self.of(call.args[0], depth + 1) is None:
                return None  # the tensor the function works on (`torch.repeat_interleave(x, counts)`): like a receiver
            return self._mix(self._arg_nodes(call), depth)
        if _returns_host(self.ctx, call, 0):
            return HOST  # `boxes, iou = self.optimize_boxes(...)`, which returns `boxes.cpu(), iou.cpu()`
        if type(f) is ast.Attribute:
            if f.attr in ("cuda", "to", "pin_memory") and places_on_device(call):
                return None
            if f.attr == "cpu":
                return HOST
            if f.attr in _LEAVES_TORCH and not call.args:
                return PY  # only a host tensor has them; the result is a NumPy array or Python values
            receiver = self.of(f.value, depth + 1)
            if receiver is None:
                return None
            if receiver == HOST:
                return PY if f.attr in _TO_PYTHON else HOST
            return self._mix(self._arg_nodes(call), depth)
        return None


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _own_def(ctx, call):
    """The definition a call of `self.m(...)` (a method of the enclosing class) or `f(...)` (a function of the
    module, defined once) reaches in this file, or None."""
    f = call.func
    if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id == "self":
        p = parent_of(ctx, call)
        while p is not None and type(p) is not ast.ClassDef:
            p = parent_of(ctx, p)
        found = [d for d in p.body if isinstance(d, _DEFS) and d.name == f.attr] if p is not None else []
    elif type(f) is ast.Name and ctx.tree is not None:
        found = [d for d in getattr(ctx.tree, "body", ()) if isinstance(d, _DEFS) and d.name == f.id]
    else:
        return None
    return found[0] if len(found) == 1 else None


def _returns_host(ctx, call, depth: int) -> bool:
    """The function a call reaches in this file returns only values moved to the host: every `return` hands back
    `x.cpu()` (or a method of it: `.cpu().numpy()`), a tuple of such values, or a call of another such function
    of the file (pytracking's `optimize_boxes`: `return output_boxes.view(-1, 4).cpu(), outputs.view(-1).cpu()`)."""
    if depth > 2 or type(call) is not ast.Call:
        return False
    fn = _own_def(ctx, call)
    if fn is None:
        return False
    returns = [st.value for st in own_statements(fn.body) if type(st) is ast.Return]
    if not returns:
        return False
    for v in returns:
        if v is None:
            return False
        # a mapping written out (`return {"logits": torch.cat(all_logits), ...}`) hands back its values
        parts = v.elts if type(v) is ast.Tuple else list(v.values) if type(v) is ast.Dict and None not in v.keys \
            else [v]
        if not parts or not all(_moved_to_host(e) or _joined_on_host(ctx, fn, e)
                                or _returns_host(ctx, e, depth + 1) for e in parts):
            return False
    return True


_JOINS = ("cat", "concat", "concatenate", "stack")


def _joined_list(ctx, e):
    """The list name a torch join reads (`torch.cat(parts)`, `torch.stack(c_save[-n:])`: its last entries), or None
    when `e` is no such call."""
    if type(e) is not ast.Call or not e.args or not _torch_name(ctx, e.func).endswith(tuple("." + j for j in _JOINS)):
        return None
    listed = e.args[0]
    if type(listed) is ast.Subscript and type(listed.slice) is ast.Slice:
        listed = listed.value
    return listed if type(listed) is ast.Name else None


def _joined_on_host(ctx, fn, e) -> bool:
    """`torch.cat(parts)` (`stack`, ...) of a list the function starts empty and fills only with values moved to the
    host: `all_logits.append(logits.cpu())` in the loop of an evaluation helper that collects predictions
    (TIDAL's `collect_predictions`, fresh82), then joins them on the CPU."""
    listed = _joined_list(ctx, e)
    if listed is None:
        return False
    name = listed.id
    up = parent_of(ctx, e)
    # `z0_list = torch.concat(z0_list)`: after that statement the name is the joined tensor, whatever reads it
    rebound = getattr(up, "end_lineno", None) if type(up) is ast.Assign and up.value is e and any(
        type(t) is ast.Name and t.id == name for t in up.targets) else None
    filled = False
    for n in walk(fn):
        if type(n) is ast.Name and n.id == name and n is not listed:
            if rebound is not None and type(n.ctx) is ast.Load and n.lineno > rebound:
                continue
            up = parent_of(ctx, n)
            if type(up) is ast.Assign and n in up.targets:
                joined = _joined_list(ctx, up.value)
                if joined is not None and joined.id == name:
                    continue  # the list's name re-bound to the joined tensor: `z0_list = torch.concat(z0_list)`
                if not (type(up.value) is ast.List and not up.value.elts):
                    return False
                continue
            call = parent_of(ctx, up) if isinstance(up, ast.Attribute) and up.value is n else None
            if isinstance(call, ast.Call) and isinstance(up, ast.Attribute) and call.func is up \
                    and up.attr == "append" and len(call.args) == 1 and _moved_to_host(call.args[0]):
                filled = True
                continue
            return False
        if isinstance(n, (ast.Tuple, ast.List)) and type(n.ctx) is ast.Store \
                and any(type(t) is ast.Name and t.id == name for t in n.elts):
            return False  # `a, b = [], []`: bound by unpacking, not followed
    return filled


def _replaced_first(ctx, fn, name: str) -> bool:
    """The parameter `name` is re-bound by a statement of the function's own body (not under an `if`, loop or `try`)
    before anything else reads it, to a value that does not carry the caller's tensor over (one that does not read
    the name, or one moved to the CPU: `pred = pred.squeeze().to(device=device)` with a CPU `device`), then
    `pred = pred[~mask]`: what the caller passed is never seen after that, so only the function's own assignments
    decide the name. (`y = y.repeat(n, 1)[mask]` keeps the caller's tensor, wherever it lives: pytorch-adapt.)"""
    for st in getattr(fn, "body", ()):
        if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == name for t in st.targets):
            v = st.value
            if not any(type(n) is ast.Name and n.id == name for n in walk(v)):
                return True
            return type(v) is ast.Call and type(v.func) is ast.Attribute and (
                v.func.attr == "cpu" and not v.args or v.func.attr == "to" and _to_cpu(ctx, v))
        if any(type(n) is ast.Name and n.id == name for n in walk(st)):
            return False
    return False


def _to_cpu(ctx, call) -> bool:
    """`.to("cpu")`, `.to(device=torch.device("cpu"))`, or `.to(device=device)` with `device` bound once in the
    function, to such a value (pytorch_retrieve's metrics move their inputs to `device = torch.device("cpu")` before
    masking them)."""
    where = list(call.args[:1]) + [k.value for k in call.keywords if k.arg == "device"]
    if not where:
        return False
    for w in where:
        if type(w) is ast.Name:
            fn = enclosing_function(ctx, call)
            w = value_bound_once(fn, w.id) if fn is not None else None
        if w is None or not is_cpu(w):
            return False
    return True


def _moved_to_host(e) -> bool:
    """`x.cpu()`, `x.detach().view(-1).cpu()`, `x.cpu().numpy()`."""
    while type(e) is ast.Call and type(e.func) is ast.Attribute:
        if e.func.attr == "cpu" and not e.args:
            return True
        e = e.func.value
    return False


def _arms(ctx, node) -> list:
    """(if statement, arm list) for every `if` around `node` up to its function, innermost first; None when a loop
    lies in between (a value bound in one arm reaches the other on the next iteration)."""
    out = []
    child, up = node, parent_of(ctx, node)
    while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        if type(up) in (ast.For, ast.AsyncFor, ast.While):
            return []
        if type(up) is ast.If and isinstance(child, ast.stmt):
            out.append((up, "body" if any(x is child for x in up.body) else "orelse"))
        child, up = up, parent_of(ctx, up)
    return out


def _loop_holds(ctx, use, value) -> bool:
    """Whether a loop around `use` inside its function also holds `value`."""
    up = parent_of(ctx, use)
    while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        if type(up) in (ast.For, ast.AsyncFor, ast.While) and \
                up.lineno <= value.lineno <= (up.end_lineno or up.lineno):
            return True
        up = parent_of(ctx, up)
    return False


def _other_arm(ctx, value, use) -> bool:
    """Whether the assignment of `value` cannot reach `use`: it sits in one arm of an `if` and `use` in its other
    arm (the `elif` branch's `tokens = model.pos_embed` never reaches the `if` branch's `interpolate(tokens)`), with
    no loop around that `if` inside the function, or it comes after `use` and no loop around `use` inside the
    function holds it (a later block re-using the name for the model's own embedding)."""
    if value.lineno > (use.end_lineno or use.lineno) and not _loop_holds(ctx, use, value) \
            and enclosing_function(ctx, value) is enclosing_function(ctx, use):  # a closure runs later
        return True
    mine = {id(i): arm for i, arm in _arms(ctx, value)}
    return any(id(i) in mine and mine[id(i)] != arm for i, arm in _arms(ctx, use))


def _top_level(ctx, node) -> bool:
    """`node` is in a statement of the module's top level (also inside its `if`, `try`, `with` and loops, a
    script's `if __name__ == "__main__":` block), not in a function or a class body."""
    up = parent_of(ctx, node)
    while up is not None:
        if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if type(up) is ast.Module:
            return True
        up = parent_of(ctx, up)
    return False


def _function(ctx, fn) -> _Function:
    key = "host-built-value:fn:%d" % id(fn)
    found = ctx.memo.get(key)
    if found is None:
        text = getattr(ctx.tree, "trnready_text", None)
        found = ctx.memo[key] = _Function(fn, text is None or ":=" in text)
    return found


def _self_attribute(e) -> str:
    return e.attr if type(e) is ast.Attribute and type(e.value) is ast.Name and e.value.id == "self" else ""


def _attribute_bindings(ctx) -> dict:
    """`self.<name>` -> every value the file assigns to it (None: one nobody can follow), and None for a name
    that something in the file may put on a device: a placement of `self.x` itself (`self.x.to(device)`,
    `self.x.cuda()`), or the name handed to `register_buffer` / `setattr` (a buffer moves with its module)."""
    def compute(c) -> dict:
        found: dict = {}
        lost: set = set()

        def bind(target, value) -> None:
            if type(target) in (ast.Tuple, ast.List):
                paired = type(value) in (ast.Tuple, ast.List) and len(value.elts) == len(target.elts)
                for i, elt in enumerate(target.elts):
                    bind(elt, value.elts[i] if paired else None)
            elif type(target) is ast.Starred:
                bind(target.value, None)
            elif _self_attribute(target):
                found.setdefault(target.attr, []).append(value)

        for st in c.statements():
            k = type(st)
            if k is ast.Assign:
                for t in st.targets:
                    bind(t, st.value)
            elif k in (ast.AnnAssign, ast.AugAssign) and st.value is not None:
                bind(st.target, st.value)
            elif k in (ast.For, ast.AsyncFor):
                bind(st.target, None)
            elif k in (ast.With, ast.AsyncWith):
                for item in st.items:
                    if item.optional_vars is not None:
                        bind(item.optional_vars, None)
        for call in c.calls():
            f = call.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) and _self_attribute(f.value) \
                    and places_on_device(call):
                lost.add(f.value.attr)
            tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if tail in ("register_buffer", "setattr", "register_parameter"):
                lost.update(a.value for a in call.args[:2] if type(a) is ast.Constant and type(a.value) is str)
        return {name: None if name in lost else values for name, values in found.items()}
    return ctx.fact("host-built-value:attributes", compute)


def _module_state(value) -> bool:
    """`nn.Parameter(...)`, `nn.Buffer(...)`: state that moves with its module."""
    return type(value) is ast.Call and dotted(value.func).rsplit(".", 1)[-1] in ("Parameter", "Buffer")


def _attribute_kind(ctx, name: str):
    """The kind of `self.<name>` in every method: the kinds of all values the file assigns to it, each followed in
    its own function (`self.ids = torch.full((n,), -1, device="cpu", pin_memory=True)` in `__init__`,
    `self.grid = torch.arange(world).view(dp, tp)`), unknown when one of them is, when nothing assigns it here (a
    base class may), or when the file may move it to a device. A plain tensor attribute is not a module's buffer:
    `model.to(device)` leaves it where it is."""
    key = "host-built-value:attr:" + name
    if key in ctx.memo:
        return ctx.memo[key]
    ctx.memo[key] = None  # an attribute assigned from itself stays unknown
    values = _attribute_bindings(ctx).get(name)
    kind = None
    if values and all(v is not None and not _module_state(v) for v in values):
        kind = _Kinds._combine([_Kinds(ctx, v).of(v) for v in values], PY)
    ctx.memo[key] = kind
    return kind


def _casts_away(call) -> bool:
    """A method that turns a tensor into a value without float64 or sparse storage: `.numpy()` (the caller
    decides again what to make of the array), `.float()`, `.to(torch.float32)`, `.to(dtype=torch.float16)`."""
    f = call.func
    if type(f) is not ast.Attribute:
        return False
    if f.attr in _CAST_AWAY and not call.args and not call.keywords:
        return True
    if f.attr in ("to", "type"):
        given = [a for a in call.args[:1]] + [k.value for k in call.keywords if k.arg == "dtype"]
        return bool(given) and all(dotted(a).startswith("torch.") and dotted(a).rsplit(".", 1)[-1] in _NARROW
                                   for a in given)
    return False


def _cast_away(ctx, n, top) -> bool:
    """`n` reaches `top` only through a cast away (`weights.to(dtype=torch.float32).unsqueeze(0)`,
    `(betas * 2).numpy()`, `np.clip(betas, 0, 1)`), followed up through operators, indexing and receivers of
    methods; an argument of any other call is where the chain stops."""
    e = n
    while e is not top:
        up = parent_of(ctx, e)
        if up is None:
            return False
        if type(up) is ast.Attribute and up.value is e:
            if up.attr in _PY_ATTRS:
                return True  # `steps, = betas.shape`: a Python value
            call = parent_of(ctx, up)
            if type(call) is ast.Call and call.func is up:
                if _casts_away(call):
                    return True
                e = call
                continue
            e = up
            continue
        if type(up) in (ast.BinOp, ast.UnaryOp) or type(up) is ast.Subscript and up.value is e:
            e = up
            continue
        if type(up) is ast.keyword:
            up = parent_of(ctx, up)
        if type(up) is ast.Call and type(up.func) is ast.Name and up.func.id in _TO_PYTHON_CALLS:
            return True  # int(steps), len(betas): a Python value
        return type(up) is ast.Call and up.func is not e and _host_library_call(ctx, up)
    return False


def _casting_helper(ctx, fn, call, holds) -> bool:
    """`call` goes to a lambda the function binds once (`register_buffer = lambda name, val:
    self.register_buffer(name, val.to(torch.float32))`) and every argument holding the value lands on a parameter
    the lambda only uses cast away: the value is stored as float32."""
    f = call.func
    if type(f) is not ast.Name or call.keywords:
        return False
    lam = None
    for n in walk(fn):
        if type(n) is ast.Assign and any(type(t) is ast.Name and t.id == f.id for t in n.targets):
            if lam is not None or type(n.value) is not ast.Lambda:
                return False
            lam = n.value
    if lam is None or lam.args.vararg is not None or len(call.args) != len(lam.args.args):
        return False
    for arg, param in zip(call.args, lam.args.args):
        if not holds(arg):
            continue
        uses = [n for n in walk(lam.body) if type(n) is ast.Name and n.id == param.arg]
        if not uses or not all(_cast_away(ctx, n, lam.body) for n in uses):
            return False
    return True


def _callers(ctx, fn) -> list:
    """The calls of a top-level function of the file, when the file defines that name once: by its name, and
    through a local name it is assigned to (`schedule_fn = cosine_beta_schedule` ... `schedule_fn(steps)`). Any
    other use of the name (handed over, stored, exported in a table) leaves the callers unknown: []."""
    tree = ctx.tree
    if tree is None or fn not in tree.body:
        return []
    if sum(1 for st in tree.body if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef) and st.name == fn.name) != 1:
        return []
    calls = ctx.calls()
    direct = {id(c.func) for c in calls if type(c.func) is ast.Name and c.func.id == fn.name}
    found = [c for c in calls if id(c.func) in direct]
    for n in ctx.nodes(ast.Name):
        if n.id != fn.name or id(n) in direct or type(n.ctx) is not ast.Load:
            continue
        up = parent_of(ctx, n)
        if type(up) is not ast.Assign or len(up.targets) != 1 or type(up.targets[0]) is not ast.Name:
            return []
        holder = enclosing_function(ctx, up)
        if holder is None:
            return []
        alias = up.targets[0].id
        found += [c for c in calls if type(c.func) is ast.Name and c.func.id == alias
                  and enclosing_function(ctx, c) is holder]
    return found


def _host_library_call(ctx, call) -> bool:
    """A call into a library of `host-libraries` (`np.clip(betas, 0, 0.999)`): it returns a host array."""
    return _library_root(ctx, call.func) in frozenset(ctx.values.get("host-libraries", ()))


def _keeps_nothing(ctx, name: str) -> bool:
    """`name` is a function the module defines at its top level (once) that stores nothing: no attribute or item
    assignment, no `global`, no yield. A value handed to it leaves only through what it returns."""
    def compute(c) -> frozenset:
        found: dict = {}
        for st in c.tree.body if c.tree is not None else ():
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef):
                found[st.name] = None if st.name in found else st
        pure = set()
        for fname, fn in found.items():
            if fn is None:
                continue
            stores = False
            for n in walk(fn):
                if type(n) in (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom) or \
                        isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, ast.Store):
                    stores = True
                    break
            if not stores:
                pure.add(fname)
        return frozenset(pure)
    return name in ctx.fact("host-built-value:keeps-nothing", compute)


def _escapes(ctx, subject, exits: list | None = None, depth: int = 0) -> bool:
    """The value built at `subject` may leave its function: it, or a name bound from it (followed through the
    function's later assignments), is returned, yielded, stored in an attribute or a container
    (`self.freqs = ...`, `register_buffer`), or handed to a function that is not torch's (`solve(memory)`). A
    module's buffer is moved to the device with the module, so a float64 value kept there is the device's."""
    fn = enclosing_function(ctx, subject)
    stmt = subject
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = parent_of(ctx, stmt)
    if fn is None or stmt is None:
        return True
    tainted: set = set()

    def held(e) -> list:
        return [n for n in walk(e) if n is subject or type(n) is ast.Name and n.id in tainted]

    def holds(e) -> bool:
        return any(not _cast_away(ctx, n, e) for n in held(e))

    def handed_over(e) -> bool:
        for n in walk(e):
            if type(n) is ast.Call and any(holds(a) for a in [*n.args, *(k.value for k in n.keywords)]):
                f = n.func
                if _torch_name(ctx, f).startswith("torch.") or type(f) is ast.Name and f.id in _PY_CALLS:
                    continue
                if type(f) is ast.Name and _keeps_nothing(ctx, f.id):
                    continue  # a helper of the file that only computes: what it returns is followed here
                if _host_library_call(ctx, n):
                    continue  # NumPy, SciPy: the result is a host array, never a device tensor
                if type(f) is ast.Attribute and holds(f.value):
                    continue  # a method of the value itself (`x.masked_fill_(m, 0)`)
                if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id in tainted | {"math"}:
                    continue
                if type(f) is ast.Name and f.id in ("print", "isinstance", "repr"):
                    continue
                return True
        return False

    started = False
    for st in ctx.statements():
        if not (fn.lineno <= st.lineno <= (fn.end_lineno or st.lineno)) or st is fn:
            continue
        if st is stmt:
            started = True
        if not started:
            continue
        k = type(st)
        if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            continue
        parts = [getattr(st, f) for f in st._fields if f not in ("body", "orelse", "finalbody", "handlers", "cases")]
        exprs = [p for p in parts if isinstance(p, ast.AST)] + [x for p in parts if type(p) is list for x in p
                                                                  if isinstance(x, ast.AST)]
        if not any(holds(e) for e in exprs):
            if exits is not None and (k is ast.Return or k in (ast.Assign, ast.AnnAssign, ast.AugAssign)) and \
                    any(held(e) for e in exprs):
                exits.append(st)  # the value leaves or is kept here, cast away
            continue
        if any(type(n) in (ast.Yield, ast.YieldFrom) for e in exprs for n in walk(e)):
            return True
        if k is ast.Return:
            # A schedule helper returning its float64 tensor: followed into the file's calls of it, each of which
            # must keep the value as only a cast away copy (one level deep).
            callers = _callers(ctx, fn) if depth == 0 else []
            kept = exits is not None and callers and all(
                enclosing_function(ctx, c) is not None and not _escapes(ctx, c, exits, depth + 1) for c in callers)
            if kept and exits is not None:
                exits.append(st)
                continue
            return True
        cast = [n for e in exprs for n in walk(e) if type(n) is ast.Call and _casting_helper(ctx, fn, n, holds)]
        if cast and exits is not None:
            exits.append(st)  # stored through a helper that casts it away
            continue
        if any(handed_over(e) for e in exprs):
            return True
        if k in (ast.Assign, ast.AnnAssign, ast.AugAssign):
            targets = st.targets if k is ast.Assign else [st.target]
            value = st.value
            if value is not None and holds(value):
                for t in targets:
                    names = [t] if type(t) is ast.Name else list(getattr(t, "elts", ()))
                    if not names or any(type(n) is not ast.Name for n in names):
                        return True  # self.x = value, cache[k] = value
                    tainted.update(n.id for n in names)
    return False



def _names_device(fn) -> bool:
    """The function places something on a device, reads a `.device`, or takes a `device` parameter."""
    a = fn.args
    if any("device" in p.arg for p in a.posonlyargs + a.args + a.kwonlyargs):
        return True
    return any(type(n) is ast.Call and places_on_device(n) or type(n) is ast.Attribute and n.attr == "device"
               for n in walk(fn))


def _compiled(ctx, node) -> bool:
    """The code may be traced by a compiler, where a host tensor's data-dependent shape breaks the graph all the
    same: the match is inside a `forward`, or the file calls `torch.compile` itself."""
    fn = enclosing_function(ctx, node)
    while fn is not None:
        if fn.name == "forward":
            return True
        fn = enclosing_function(ctx, fn)
    return compiles(ctx)


def _library_root(ctx, func) -> str:
    """The top package a called name comes from by the file's imports (`sk_confusion_matrix` imported from
    `sklearn.metrics` -> "sklearn"), or ""."""
    name = dotted(func)
    if not name:
        return ""
    root = name.split(".", 1)[0]
    for st in ctx.statements():  # imports anywhere in the file (also inside the function)
        if type(st) is ast.Import:
            for a in st.names:
                if (a.asname or a.name.split(".", 1)[0]) == root:
                    return a.name.split(".", 1)[0]
        elif type(st) is ast.ImportFrom and st.module and not st.level:
            for a in st.names:
                if (a.asname or a.name) == root:
                    return st.module.split(".", 1)[0]
    return ""


# Methods that bring a device tensor to the host: a selection made before them may have run on the device.
_MOVES_TO_HOST = frozenset({"cpu", "tolist", "item"})


def _handed_to_host_library(ctx, subject) -> bool:
    """The operation's result is assigned to a name that the same function then hands to a library of
    `host-libraries` (scikit-learn, SciPy, NumPy, pandas): those take host arrays only, so in a program that runs
    the value is on the CPU (`true = true[~idx]` then `sk_confusion_matrix(true, pred)` in a reference metric).
    The result may pass through comparisons, arithmetic and argument-free methods first, and may be the library
    call's argument itself: `roc_auc_score(y_true[labeled, i], y_pred[labeled, i])`, `correct = y_true[labeled, i]
    == y_pred[labeled, i]` then `np.sum(correct)` in an evaluator that takes NumPy arrays."""
    libraries = frozenset(ctx.values.get("host-libraries", ()))
    if not libraries:
        return False
    stmt = parent_of(ctx, subject)
    while True:  # up through the operations whose result is of the same kind as their operand
        if type(stmt) in (ast.Compare, ast.BinOp, ast.UnaryOp):
            subject, stmt = stmt, parent_of(ctx, stmt)
        elif type(stmt) is ast.Attribute and stmt.value is subject and type(up := parent_of(ctx, stmt)) is ast.Call \
                and up.func is stmt and not up.args and not up.keywords and stmt.attr not in _MOVES_TO_HOST:
            subject, stmt = up, parent_of(ctx, up)
        else:
            break
    if type(stmt) is ast.Call and subject is not stmt.func and _library_root(ctx, stmt.func) in libraries:
        return True
    if type(stmt) is not ast.Assign or stmt.value is not subject or len(stmt.targets) != 1 \
            or type(stmt.targets[0]) is not ast.Name:
        return False
    name = stmt.targets[0].id
    fn = enclosing_function(ctx, stmt)
    if fn is None:
        return False  # a script's top level: its names may be read by any function of the file
    for st in ctx.statements():
        if st.lineno <= stmt.lineno or not (fn.lineno <= st.lineno <= (fn.end_lineno or 0)):
            continue
        for e in (n for n in walk(st) if type(n) is ast.Call):
            if any(type(a) is ast.Name and a.id == name for a in [*e.args, *(k.value for k in e.keywords)]) \
                    and _library_root(ctx, e.func) in libraries:
                return True
    return False


def _subject(ctx, node):
    """The expression whose value the finding is about: the matched call or subscript itself, else the nearest
    call holding the match (`torch.zeros(n, dtype=torch.float64)` for its dtype argument)."""
    for _ in range(4):
        if type(node) in (ast.Call, ast.Subscript):
            return node
        up = parent_of(ctx, node)
        if up is None or isinstance(up, (ast.stmt, ast.Lambda, ast.comprehension)):
            return None
        node = up
    return None


_HOST_EXITS = frozenset({"cpu", "numpy", "tolist", "item"})
_METADATA = frozenset({"dtype", "shape", "ndim", "device"})


def _host_operand(e, name: str) -> bool:
    """An operand explicitly brought to the host (`fid_mu1.cpu().to(dtype=mu1.dtype)`, `pred.numpy()`) that is not
    the name itself."""
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in _HOST_EXITS
               and not (type(n.func.value) is ast.Name and n.func.value.id == name) for n in walk(e))


def _met_on_host(ctx, subject) -> bool:
    """The value is bound to a name that its function reads only next to an operand brought to the host
    (`mu1 = train_samples.mean(dtype=torch.float64)` then `assert torch.allclose(mu1, fid_mu1.cpu().to(
    dtype=mu1.dtype))`: the expected value of a test, compared on the CPU) or for its metadata (`mu1.dtype`). It
    never meets a device tensor, whatever device the rest of the function names."""
    stmt = parent_of(ctx, subject)
    if type(stmt) is not ast.Assign or stmt.value is not subject or len(stmt.targets) != 1 \
            or type(stmt.targets[0]) is not ast.Name:
        return False
    name, fn = stmt.targets[0].id, enclosing_function(ctx, stmt)
    if fn is None:
        return False
    uses = [n for n in walk(fn) if type(n) is ast.Name and n.id == name and n is not stmt.targets[0]]
    if not uses:
        return False
    for n in uses:
        if type(n.ctx) is not ast.Load or (n.lineno, n.col_offset) < (stmt.lineno, stmt.col_offset):
            return False  # re-bound, or read before (in a loop)
        up = parent_of(ctx, n)
        if type(up) is ast.Attribute and up.attr in _METADATA:
            continue
        if type(up) is not ast.Call or n not in up.args:
            return False
        if not any(_host_operand(a, name) for a in up.args if a is not n):
            return False
    return True


@predicate("host-built-value", kinds=("call", "method", "reference", "keyword", "subscript"), effect="guard")
def host_built_value(ctx, hit) -> bool:
    """The operation works on tensors its own function builds on the host from Python values and never moves to a
    device: `tokens = torch.tensor(result.tokens)` then `tokens[mask.nonzero()]`, `torch.arange(n)` then
    `torch.unique(keys)`, `expected = torch.tensor([1], dtype=torch.double)` compared in a test. The value is
    followed through the function's assignments (and those of the functions around it): factories without a
    `device=` argument, `torch.from_numpy`, `.cpu()`, torch functions and methods of such tensors, Python and NumPy
    values mixed in. An attribute `self.x` is host in every method when every assignment the file makes to it is a
    host tensor and nothing in the file moves it (`self.ids = torch.full(..., device="cpu", pin_memory=True)`). A
    parameter, another object's attribute, a module name or a `.to(device)` / `.cuda()` on the way makes it
    unknown, and unknown is never guarded. A result the function then hands to a library of
    `host-libraries` (scikit-learn, SciPy, NumPy, pandas take host arrays only) is host data too. For rules of the
    categories in `host-built-categories`; for those in `host-kept-categories` (a float64 or sparse value that could
    reach the device later) nothing in the file may move anything to a device either, and the value may not leave
    its function (returned, stored in an attribute or a buffer, handed to a function that is not torch's) unless
    cast away on its way out (`.numpy()`, `.to(torch.float32)`); a file moving tensors elsewhere is then allowed
    when the function itself names no device, or when the value is bound to a name read only beside an operand
    brought to the host (`torch.allclose(expected, result.cpu())`) or for its dtype or shape. A file
    that sets a default device (`torch.set_default_device`, `with torch.device(...)`) builds its tensors there and
    is never guarded, nor is a match in a `forward` or in a file that calls `torch.compile`: compiled code breaks
    its graph on a host tensor's data-dependent shape too."""
    category = hit.rule.category
    if category not in ctx.values.get("host-built-categories", ()):
        return False
    subject = _subject(ctx, hit.node)
    if subject is None or enclosing_function(ctx, subject) is None and not _top_level(ctx, subject):
        return False
    if _sets_default_device(ctx) or _compiled(ctx, subject):
        return False
    if _Kinds(ctx, subject).of(subject) != HOST and not _handed_to_host_library(ctx, subject):
        return False
    if category in ctx.values.get("host-kept-categories", ()):
        exits: list = []
        if _escapes(ctx, subject, exits):
            return False
        # In a file that moves tensors to a device the value must leave its function only cast away (returned
        # as `.numpy()`, stored as float32), from a function that names no device itself.
        # A value compared only with operands brought to the host (a test's expected value) stays there too.
        return not _moves_to_device(ctx) or bool(exits) and not _names_device(outermost_function(ctx, subject)) \
            or _met_on_host(ctx, subject)
    return True
