"""One walk over a module's syntax tree: scopes, bindings and candidate events.

The walk records what names are bound where (imports, simple constants,
parameters, instances of interesting classes) and collects the nodes that
some catalogue rule might care about. Nothing is resolved during the walk:
resolution needs every binding of a scope, so `resolve.py` does it afterwards,
and only for the few recorded events.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .device_picks import pick_literals
from .astwalk import _FIELDS, _fields, walk


class Binding:
    """One way a name is bound in a scope.

    kind: import (value = dotted module path), expr (value = the assigned
    expression: a constant, an alias like ``F = torch.nn.functional``, a
    conditional), instance (value = the constructor's callee expression),
    param (value = default expression or None), local (anything else).
    """

    __slots__ = ("kind", "value", "scope", "branch")

    def __init__(self, kind: str, value, scope: "Scope", branch: tuple | None = None):
        self.kind = kind
        self.value = value
        self.scope = scope
        # the if/else arms the assignment sits in, outermost first ((id(if), 0 body | 1 orelse, first line, last
        # line of the arm), ...); None when not recorded. resolve.py uses it to tell alternatives from reassignments.
        self.branch = branch


# Submodules a torch.nn base class's constructor makes, which a subclass calls without assigning them itself
# (`class StreamingLayer(nn.TransformerEncoderLayer)` then `self.self_attn(q, k, v, attn_mask=m)`): the
# attribute names are torch's public module structure.
_MHA = "torch.nn.MultiheadAttention"
_BASE_SUBMODULES = {
    "torch.nn.TransformerEncoderLayer": {"self_attn": _MHA},
    "torch.nn.TransformerDecoderLayer": {"self_attn": _MHA, "multihead_attn": _MHA},
}


def _is_super_call(func: ast.expr) -> bool:
    """`super().forward` / `super().__call__`: the base class's own call."""
    return type(func) is ast.Attribute and func.attr in ("forward", "__call__") and type(func.value) is ast.Call \
        and type(func.value.func) is ast.Name and func.value.func.id == "super"
_INHERITED_ATTRS = frozenset(a for made in _BASE_SUBMODULES.values() for a in made)


def _zip_rows(target: ast.expr, it: ast.expr, scope: "Scope", outer: "Scope") -> None:
    """`for w, m in zip(waves, masks)`: each name of the target takes the rows of the zipped value at its position,
    recorded on the scope binding it (read by masks.is_mask: a row of a mask is a mask)."""
    if type(target) is not ast.Tuple or type(it) is not ast.Call or type(it.func) is not ast.Name \
            or it.func.id != "zip" or len(it.args) != len(target.elts) or it.keywords:
        return
    for elt, arg in zip(target.elts, it.args):
        if type(elt) is ast.Name and type(arg) is not ast.Starred:
            if scope.rows is None:
                scope.rows = {}
            scope.rows[elt.id] = (arg, outer)


def _lines(stmts: list) -> tuple:
    """(first line, last line) of an if/else arm's statements; (0, 0) for an empty `else`."""
    if not stmts:
        return (0, 0)
    return (stmts[0].lineno, getattr(stmts[-1], "end_lineno", None) or stmts[-1].lineno)


class Scope:
    __slots__ = ("kind", "parent", "bindings", "stars", "globals", "self_name", "cls", "self_attrs", "bases", "rows",
                 "items", "loops")

    def __init__(self, kind: str, parent: "Scope | None"):
        self.kind = kind  # module | class | function | comprehension
        self.parent = parent
        self.bindings: dict[str, list[Binding]] = {}
        self.stars: list[str] = []
        self.globals: set[str] = set()
        self.self_name: str | None = None
        self.cls: Scope | None = None
        self.self_attrs: dict[str, list[Binding]] = {}
        self.bases: tuple = ()  # a class scope: its base expressions, read in the enclosing scope
        # `for w, m in zip(waves, masks)`: name -> (the zipped value it takes rows of, the scope that value is read in)
        self.rows: dict | None = None
        # `results[j] = np.concatenate(...)`: name -> the values its items are assigned in this scope (or None)
        self.items: dict | None = None
        # `for idx in range(n):` loops of this scope: (the names its target binds, first line, last line)
        self.loops: list | None = None

    def bind(self, name: str, binding: Binding) -> None:
        lst = self.bindings.get(name)
        if lst is None:
            self.bindings[name] = [binding]
        else:
            lst.append(binding)

    def module(self) -> "Scope":
        s = self
        while s.parent is not None:
            s = s.parent
        return s


_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_DOTTED_STRING = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}")  # torch.cuda.HalfTensor: three parts or more


@dataclass(frozen=True)
class Interest:
    """What the catalogue can match, reduced to cheap per-node checks."""

    call_tails: frozenset  # last component of any call/decorator/constructor name
    method_names: frozenset
    ctor_tails: frozenset  # classes whose instances' calls are matched (X.__call__)
    device_keywords: frozenset
    device_tails: frozenset  # callees with a device position (torch.device, .to)
    # name endings of callees whose device position a glob of `[device] positions` gives (`"*_device" = 0`)
    device_suffixes: tuple = ()
    keywords: frozenset = frozenset()  # keyword names some rule matches on any call
    # those some rule matches as a parameter default (`def f(backend="nccl")`, keyword matchers with `defaults =
    # true`): only their defaults are worth the walk that decides whether the function acts on the parameter
    # (None: every name of `keywords`)
    default_keywords: frozenset | None = None
    env_names: frozenset = frozenset()  # environment variable names some rule matches
    # name prefixes some rule matches (`NCCL_*` in the catalogue): any variable of that family, written as an
    # upper-case identifier (`"NCCL_IB_TC"`)
    env_prefixes: tuple = ()

    def env_known(self, name) -> bool:
        if name in self.env_names:
            return True
        return bool(self.env_prefixes) and type(name) is str and name.startswith(self.env_prefixes) \
            and _ENV_NAME.fullmatch(name) is not None and not name.endswith("_")
    subscripts: bool = False  # some rule matches indexing shapes (`x[mask]`, trnready/masks.py)
    shifts: bool = False  # some rule matches bit shifts (`x << 32`, trnready/shifts.py)
    cuda_asserts: bool = False  # some rule matches `assert x.is_cuda` (syntax form cuda-tensor-assert)
    cuda_host_copies: bool = False  # some rule matches `if x.is_cuda: x = x.cpu()` (syntax form cuda-only-host-copy)
    # other devices' names that make an `if` chain assigning "cuda" a device pick (trnready/device_picks.py)
    pick_alternatives: frozenset = frozenset()


@dataclass
class FileIndex:
    module: Scope
    calls: list = field(default_factory=list)  # (Call node, Scope)
    refs: list = field(default_factory=list)  # (Attribute|Name node, Scope)
    imports: list = field(default_factory=list)  # (node, candidates tuple)
    decorators: list = field(default_factory=list)  # (expr, Scope)
    env: list = field(default_factory=list)  # (node, variable name): string literals / keywords naming env vars
    # (Constant node, text): a dotted name written as a string and compared (`x.type() == "torch.cuda.HalfTensor"`)
    named_strings: list = field(default_factory=list)
    guarded: set = field(default_factory=set)  # import nodes inside try/except ImportError or `if is_x_available()`
    device_values: list = field(default_factory=list)  # (expr, Scope): values stored under a device-like name
    param_names: set = field(default_factory=set)  # every function parameter name defined in the file
    factories: dict = field(default_factory=dict)  # function name -> [(returned expr, function Scope)]
    outer_calls: dict = field(default_factory=dict)  # id(call) -> (func, Scope) of the call it is an argument of
    env_values: dict = field(default_factory=dict)  # id(env name node) -> literal strings it is compared with / set to
    keyword_stores: list = field(default_factory=list)  # (name, value expr, Scope): {"k": v}, x["k"] = v, x.k = v
    # (name, value expr, Scope): def f(k=v) parameter defaults and `assert k == v` requirements
    keyword_defaults: list = field(default_factory=list)
    # id(default expr) of the keyword_defaults a method hands only to `super().m(...)`: the match step keeps them
    # when the class's bases are another library's (the link step cannot follow the value there)
    base_defaults: set = field(default_factory=set)
    # (name, value expr, Scope): `if backend == "nccl":`, `if dist.get_backend() == Backend.NCCL:` (the test picks)
    keyword_compares: list = field(default_factory=list)
    keyword_asserts: list = field(default_factory=list)  # (name, value expr, Scope): `assert k == v` (asserted = true)
    cuda_asserts: list = field(default_factory=list)  # (`.is_cuda` Attribute, Scope): `assert x.is_cuda`
    cuda_host_copies: list = field(default_factory=list)  # (test node, Scope): `if x.is_cuda: x = x.cpu()`
    guarded_names: set = field(default_factory=set)  # local names bound by imports under an optional-import guard
    called_refs: set = field(default_factory=set)  # ids of attribute chains that are called (x.f(...))
    subscripts: list = field(default_factory=list)  # (Subscript node, Scope): loads indexed by a non-literal
    negated: dict = field(default_factory=dict)  # id(Scope) -> names negated with `~name` there (mask evidence)
    stored: dict = field(default_factory=dict)  # id(Subscript target) -> value of `x[m] = value` (in subscripts)
    augmented: set = field(default_factory=set)  # ids of `x[m] += v` targets (in subscripts): a read of x[m] first
    # attribute name -> [(value, Scope)]: `obj.name = value` anywhere in the file, and `Cls(name=value)` for a
    # class the file defines (a dataclass field): what `meta.name` may hold (mask evidence, trnready/masks.py)
    mask_attrs: dict = field(default_factory=dict)
    shifts: list = field(default_factory=list)  # (BinOp node, Scope): `<<` / `>>` by a non-negative constant
    tree: object = None  # the module walked, for context predicates that look further (trnready/context/)
    every_call: list = field(default_factory=list)  # every Call node, in walk order
    every_compare: list = field(default_factory=list)  # every Compare node, in walk order (context predicates)
    every_import: list = field(default_factory=list)  # every Import / ImportFrom node (project summary)
    scopes: list = field(default_factory=list)  # every Scope of the file (see release)

    def release(self) -> None:
        """Break the scope <-> binding cycles once the file is matched. Without this the whole syntax
        tree (bindings hold its nodes) outlives the file until the cyclic GC finds it, and that GC pass
        over every node of every file cost ~10 % of a cold scan."""
        for s in self.scopes:
            s.bindings = {}
            s.self_attrs = {}
            s.cls = None
            s.bases = ()
        self.scopes = []
        self.mask_attrs = {}
        self.stored = {}


# Containers of modules: `nn.ModuleList([nn.MultiheadAttention(...) for _ in range(n)])`.
CONTAINER_TAILS = frozenset({"ModuleList", "Sequential", "ModuleDict", "list", "tuple"})
_SEQ_VALUE = (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)

_SIMPLE_VALUE = (ast.Constant, ast.IfExp, ast.JoinedStr, ast.Name, ast.Attribute, ast.BinOp,
                 ast.List, ast.Tuple, ast.UnaryOp, ast.Dict, ast.Subscript, ast.Compare)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


_MASK_INDEX = (ast.Name, ast.UnaryOp, ast.Compare, ast.Call, ast.BinOp, ast.Subscript, ast.Attribute)


def _maybe_mask_index(index: ast.expr) -> bool:
    """An index that may be a mask: not a literal or a slice (`x[0]`, `x[:, 1:]`), or a tuple with such a part;
    or a slice bounded by a tensor-only cast (`x[:, :n.long()]`, masks.tensor_slice_bound)."""
    if type(index) is ast.Tuple:
        return any(type(e) in _MASK_INDEX or type(e) is ast.Slice and _cast_bound(e) for e in index.elts)
    return type(index) in _MASK_INDEX or type(index) is ast.Slice and _cast_bound(index)


_BOUND_CASTS = frozenset({"long", "int"})


def _cast_bound(s: ast.Slice) -> bool:
    """A slice bound written as a tensor-only cast with no arguments (`n.long()`, `k.int()`), or one that may hold
    a number read out of tensor data (a name or a call: `x[:n]` after `n = keep.sum().item()`;
    masks.tensor_slice_bound decides)."""
    return any(type(b) is ast.Call and type(b.func) is ast.Attribute and b.func.attr in _BOUND_CASTS
               and not b.args and not b.keywords or type(b) in _SIZE_BOUNDS for b in (s.lower, s.upper))


_SIZE_BOUNDS = (ast.Name, ast.Call)


def _two_index_parts(index: ast.expr) -> bool:
    """`H[dead, dead] = 1`: two parts that may be masks; a scalar written through two masks is still a finding
    (masks.paired_masks)."""
    return type(index) is ast.Tuple and sum(type(e) in _MASK_INDEX for e in index.elts) >= 2


def _literal_scalar(value: ast.expr) -> bool:
    """`0`, `-1`, `-1e9`, `float("-inf")`: one value broadcast to every selected element."""
    while type(value) is ast.UnaryOp:
        value = value.operand
    if type(value) is ast.Constant:
        return True
    return type(value) is ast.Call and type(value.func) is ast.Name and value.func.id in ("float", "int", "bool") \
        and all(type(a) is ast.Constant for a in value.args)


def _declared_scope(scope: Scope, name: str) -> Scope:
    """The scope a `global`/`nonlocal` name really binds in."""
    if scope.kind == "function" and name in scope.globals:
        # `nonlocal` names are bound in the nearest enclosing function that binds them.
        s = scope.parent
        while s is not None and s.kind == "function":
            if name in s.bindings:
                return s
            s = s.parent
        return scope.module()
    return scope


_DEVICE_LIKE: dict = {}
# A string that can only be a CUDA device: "cuda", "cuda:0" (the default of an option named for the GPU)
_CUDA_DEVICE_STRING = re.compile(r"cuda(?::\d+)?", re.I)
# Words of an option name that say it chooses the GPU (`--gpu_type`, `--gpu-backend`, `--cuda_kind`)
_GPU_OPTION_WORDS = frozenset({"gpu", "gpus", "cuda"})


def _gpu_named(option: str) -> bool:
    """`--gpu_type`, `--gpu-backend`: one of the option name's words (split at `-` and `_`) names the GPU."""
    return any(w in _GPU_OPTION_WORDS for w in re.split(r"[-_]+", option.lstrip("-").lower()))


def _option_name(call: ast.Call) -> str | None:
    """The option an `add_argument` call defines, as argparse names its destination: the first long option
    (`add_argument("-d", "--device")` is `--device`), else the first string (`"-d"`, or a positional `"device"`)."""
    names = [a.value for a in call.args if type(a) is ast.Constant and type(a.value) is str]
    if not names:
        return None
    return next((n for n in names if n.startswith("--")), names[0])


# Lookups whose second argument is the value a missing key stands for
_DEFAULTED_LOOKUPS = frozenset({"get", "pop", "setdefault", "getenv"})


def device_like(name: str, keywords) -> bool:
    """`device`, `DEVICE`, `train_device`, `MODEL.DEVICE` (last part), `--device` for a device keyword."""
    key = (name, keywords)
    hit = _DEVICE_LIKE.get(key)
    if hit is None:  # names repeat across a codebase: answer each once
        n = name.lstrip("-").replace("-", "_").lower()
        hit = any(n == k or n.endswith("_" + k) for k in keywords)
        if len(_DEVICE_LIKE) < 100_000:
            _DEVICE_LIKE[key] = hit
    return hit


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException", "OSError"}


def _imports_by_name(func, imported: set) -> bool:
    """The callee imports a module named by its first argument: `importlib.import_module`, `import_module` (from
    importlib) or the builtin `__import__`."""
    if type(func) is ast.Attribute:
        return func.attr == "import_module" and type(func.value) is ast.Name and func.value.id == "importlib"
    return type(func) is ast.Name and (func.id == "__import__" or (func.id == "import_module" and func.id in imported))


def _catches_import_error(expr: ast.expr) -> bool:
    if type(expr) is ast.Tuple:
        return any(_catches_import_error(e) for e in expr.elts)
    return _tail(expr) in _IMPORT_ERRORS


def _reraises(handler: ast.ExceptHandler) -> bool:
    # `except ImportError: raise ImportError("pip install x")`: the package is required, not optional.
    return any(type(st) is ast.Raise for st in handler.body)


def optional_import_try(node: ast.Try) -> bool:
    """`try: import flash_attn` / `except ImportError: ...` that goes on without it: a handler catching ImportError
    (by name, in a tuple, as Exception, or bare) that does not raise. Its imports are optional dependencies."""
    return any((h.type is None or _catches_import_error(h.type)) and not _reraises(h) for h in node.handlers)


def _is_availability_test(test: ast.expr) -> bool:
    """is_flash_attn_available(), is_torch_xla_available(), importlib.util.find_spec("x"), HAS_APEX, _xla_ok,
    SETTINGS.xla_required."""
    t = type(test)
    if t is ast.BoolOp:
        return any(_is_availability_test(v) for v in test.values)
    if t is ast.UnaryOp:
        return False
    if t is ast.Call:
        name = _tail(test.func) or ""
        return name == "find_spec" or (name.startswith("is_") and name.endswith("available"))
    if t in (ast.Name, ast.Attribute):
        name = (_tail(test) or "").lower()
        # `SETTINGS.xla_required`: a settings flag computed from the package's availability (catalyst)
        return name.startswith(("has_", "_has_")) or name.endswith(("_available", "_installed", "_required"))
    return False


_ENV_GETTERS = frozenset({"get", "getenv", "setdefault", "pop"})


def _env_read(expr: ast.expr):
    """The string node naming the variable in os.environ["X"], os.environ.get("X", d), os.getenv("X"),
    optionally followed by .lower()/.upper()/.strip(); else None."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in ("lower", "upper", "strip") \
            and not expr.args:
        expr = expr.func.value
    if type(expr) is ast.Subscript and type(expr.slice) is ast.Constant and type(expr.slice.value) is str:
        return expr.slice
    if type(expr) is ast.Call and _tail(expr.func) in _ENV_GETTERS and expr.args \
            and type(expr.args[0]) is ast.Constant and type(expr.args[0].value) is str:
        return expr.args[0]
    return None


def _maybe_factory(value: ast.Call) -> bool:
    """A call that may hand back a module instance: a project helper (`make_attn(d)`, `self._build(d)`) or a
    container of modules (`nn.ModuleList([...])`)."""
    func = value.func
    if type(func) is ast.Name:
        return True
    if type(func) is ast.Attribute:
        return func.attr in CONTAINER_TAILS or (type(func.value) is ast.Name and func.value.id in ("self", "cls"))
    return False


def _tail(func: ast.expr) -> str | None:
    if type(func) is ast.Attribute:
        return func.attr
    if type(func) is ast.Name:
        return func.id
    return None


class Indexer:
    def __init__(self, interest: Interest):
        self.interest = interest
        self.instance_names: set[str] = set()
        self.imported: set[str] = set()
        self.index: FileIndex | None = None
        self.guard = 0  # > 0 while inside an optional-import guard
        self.type_checking = 0  # > 0 inside `if TYPE_CHECKING:`
        # While the test of an `if` comparing something is walked: its arm, and whether that arm moves a value
        # to a device (None: not asked yet; see _test_picks_device)
        self.pick_arm: list | None = None
        self.picks: bool | None = None
        self.call_stack: list = []  # (func, Scope) of the calls whose arguments are being walked
        self.functions: list[tuple[str, Scope]] = []  # enclosing function definitions (name, inner scope)
        self.branch: tuple = ()  # the if/else arms being walked (see Binding.branch)
        self.attr_values: dict = {}  # attribute name -> [(value, Scope, class called or None)] (mask evidence)
        self.class_names: set[str] = set()
        self.picked: set[int] = set()  # ids of the "cuda" literals of statement-form device picks already indexed
        self.enum_strings: dict = {}  # "TorchDevice.CUDA" -> its "cuda" constant, for device enums of the file
        self._compared: set = set()  # ids of calls that are an operand of a comparison (v_compare)

    # -- entry -------------------------------------------------------------
    def run(self, tree: ast.Module) -> FileIndex:
        module = Scope("module", None)
        self.index = FileIndex(module, tree=tree, scopes=[module])
        self._body(tree.body, module)
        if self.attr_values:
            classes = self.class_names
            for name, stored in self.attr_values.items():
                kept = [(v, sc) for v, sc, cls in stored if cls is None or cls in classes]
                if kept:
                    self.index.mask_attrs[name] = kept
        return self.index

    def _scope(self, kind: str, parent: Scope) -> Scope:
        inner = Scope(kind, parent)
        self.index.scopes.append(inner)
        return inner

    def _body(self, stmts, scope: Scope) -> None:
        visit = self.visit
        picks = self.interest.pick_alternatives if self.interest.device_keywords else None
        for i, s in enumerate(stmts):
            if picks and type(s) is ast.If:
                # if torch.cuda.is_available(): device_type = "cuda" / else: device_type = "cpu": a device pick
                following = stmts[i + 1] if i + 1 < len(stmts) else None
                for value in pick_literals(s, following, picks):
                    if id(value) not in self.picked:  # (an `elif` is an `if` of its own too)
                        self.picked.add(id(value))
                        self.index.device_values.append((value, scope))
            visit(s, scope)

    def visit(self, node: ast.AST, scope: Scope) -> None:
        handler = _DISPATCH.get(type(node))
        if handler is not None:
            handler(self, node, scope)
            return
        # Inlined ast.iter_child_nodes: this loop runs for most nodes of every file. Only the fields that can hold a
        # node with something to record are read (not names and flags, nor contexts and operators: _skip).
        visit = self.visit
        fields = _CHILD_FIELDS.get(type(node))
        if fields is None:
            fields = _child_fields(type(node))
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item, scope)
            elif isinstance(value, ast.AST):
                visit(value, scope)

    # -- binding helpers ---------------------------------------------------
    def _bind_target(self, target: ast.expr, scope: Scope, value: ast.expr | None) -> None:
        t = type(target)
        branch = self.branch
        if t is ast.Name and scope.globals and target.id in scope.globals:
            scope = _declared_scope(scope, target.id)
            branch = None  # `global x; x = ...` in a function may run at any time: not ordered with the rest
        if t is ast.Name:
            if value is None:
                scope.bind(target.id, Binding("local", None, scope, branch))
            elif type(value) is ast.Call:
                tail = _tail(value.func)
                if tail is not None and tail in self.interest.ctor_tails:
                    self.instance_names.add(target.id)
                    scope.bind(target.id, Binding("instance", value.func, scope, branch))
                else:
                    # Remember the producing call: `a = np.zeros(3)` makes `a.nonzero()` a NumPy method,
                    # and `attn = make_attention(d)` may be an instance built by a helper.
                    if _maybe_factory(value):
                        self.instance_names.add(target.id)
                    scope.bind(target.id, Binding("call", value, scope, branch))
            elif isinstance(value, _SIMPLE_VALUE):
                scope.bind(target.id, Binding("expr", value, scope, branch))
                if type(value) in (ast.List, ast.Tuple) and any(type(e) is ast.Call for e in value.elts):
                    self.instance_names.add(target.id)  # blocks = [nn.MultiheadAttention(...), ...]
                if type(value) in (ast.Name, ast.Attribute) or (
                        type(value) is ast.IfExp and type(value.body) in (ast.Name, ast.Attribute)
                        and type(value.orelse) in (ast.Name, ast.Attribute)):
                    # an alias such as F = torch.nn.functional, or one picked against a stand-in
                    # (`precision_scope = autocast if ... else nullcontext`, resolve.py)
                    self.imported.add(target.id)
            else:
                scope.bind(target.id, Binding("local", None, scope, branch))
        elif t is ast.Attribute:
            base = target.value
            if (type(base) is ast.Name and scope.self_name is not None and base.id == scope.self_name
                    and scope.cls is not None):
                if type(value) is ast.Call:
                    tail = _tail(value.func)
                    if tail is not None and tail in self.interest.ctor_tails:
                        self.instance_names.add(target.attr)
                        scope.cls.self_attrs.setdefault(target.attr, []).append(
                            Binding("instance", value.func, scope))
                        self.visit(target, scope)
                        return
                    if _maybe_factory(value):
                        # self.attn = build_attention(d) / nn.ModuleList([nn.MultiheadAttention(...)])
                        self.instance_names.add(target.attr)
                    kind = "call"
                elif value is not None and isinstance(value, _SIMPLE_VALUE):
                    # self.mode = mode / self.mode = "bilinear": followed by constant propagation
                    kind = "expr"
                    if type(value) in (ast.List, ast.Tuple) and any(type(e) is ast.Call for e in value.elts):
                        self.instance_names.add(target.attr)  # self.blocks = [nn.MultiheadAttention(...)]
                elif value is not None and type(value) in (ast.ListComp, ast.GeneratorExp):
                    kind = "seq"  # self.blocks = [nn.MultiheadAttention(...) for _ in range(n)]
                    self.instance_names.add(target.attr)
                else:
                    kind = "local"
                scope.cls.self_attrs.setdefault(target.attr, []).append(
                    Binding(kind, value if kind != "local" else None, scope))
            self.visit(target, scope)
        elif t in (ast.Tuple, ast.List):
            if type(value) in (ast.Tuple, ast.List) and len(value.elts) == len(target.elts) and not any(
                    type(e) is ast.Starred for e in (*target.elts, *value.elts)):
                # `boxes, scores = result["boxes"], result["scores"]`: each name is bound to its own part (a bare
                # name or attribute part is no alias: `a, b = b, a` swaps values)
                for elt, part in zip(target.elts, value.elts):
                    self._bind_target(elt, scope, None if type(part) in (ast.Name, ast.Attribute) else part)
                return
            for elt in target.elts:
                if type(value) is ast.Call and type(elt) is ast.Name:
                    # `_, labels, stats, c = cv2.connectedComponentsWithStats(m)`: each part comes from that call
                    # (ordered like any assignment, so `U = torch.as_tensor(U)` after `D, U = eigsh(...)` replaces it)
                    declared = bool(scope.globals) and elt.id in scope.globals
                    s2 = _declared_scope(scope, elt.id) if scope.globals else scope
                    s2.bind(elt.id, Binding("call", value, s2, None if declared else self.branch))
                else:
                    self._bind_target(elt, scope, None)
        elif t is ast.Starred:
            self._bind_target(target.value, scope, None)
        else:
            self.visit(target, scope)

    # -- statements --------------------------------------------------------
    def v_try(self, node, scope: Scope) -> None:
        # `try: import flash_attn / except ImportError: ...` is an optional dependency.
        catches = optional_import_try(node)
        self.guard += catches
        self._body(node.body, scope)
        self.guard -= catches
        for h in node.handlers:
            self.visit(h, scope)
        self._body(node.orelse, scope)
        self._body(node.finalbody, scope)

    def v_if(self, node: ast.If, scope: Scope) -> None:
        if self.interest.cuda_asserts:
            # `if not input.is_cuda: raise NotImplementedError`: the same gate as `assert input.is_cuda`
            at = _refuses_off_cuda(node)
            if at is not None:
                self.index.cuda_asserts.append((at, scope))
        if self.interest.cuda_host_copies:
            # `if x.is_cuda: x = x.cpu()` then `x.numpy()`: on Neuron the copy is skipped and the host-only use fails
            at = _cuda_only_host_copy(node)
            if at is not None:
                self.index.cuda_host_copies.append((at, scope))
        # `if 'cuda' in str(device): model.to(device)`: a device-type test whose arm moves onto that device gates
        # the placement; once the port picks the neuron device the test is False and the model stays on the host
        if self.interest.device_keywords:
            for value in _device_gate_literals(node):
                self.index.device_values.append((value, scope))
        if self.interest.keywords and "device_dispatch" in self.interest.keywords:
            # `if device_type == "cuda": ... elif device_type == "cpu": ... else: raise ValueError(...)`: the device
            # names a dispatch handles, any other raising, read as a list of device choices at its "cuda"
            handled = _device_dispatch_names(node)
            if handled is not None:
                self.index.keyword_stores.append(("device_dispatch", handled, scope))
        if self.interest.device_keywords or self.interest.keywords:
            # `if device.type != "cuda": raise RuntimeError("CUDA is required")`: the same gate as
            # `assert device.type == "cuda"`, read as that assert
            asserted = _refusal_test(node)
            if asserted is not None:
                self._asserted(asserted, scope)
        # `if is_torch_xla_available(): import torch_xla...` (the transformers/diffusers idiom).
        if self.interest.keywords:
            # if backend == "nccl": device = torch.device("cuda"): the value the test asks for picks the arm
            for name, value in _compared_settings(node.test):
                if name in self.interest.keywords:
                    self.index.keyword_compares.append((name, value, scope))
        # `if attr.device != torch.device("cuda"): attr = attr.to(torch.device("cuda"))`: a check of where a
        # tensor is, whose arm moves it there, is the device pick itself (its arm folds into it)
        self.pick_arm, self.picks = (node.body if type(node.test) is ast.Compare else None), None
        self.visit(node.test, scope)
        self.pick_arm = None
        optional = _is_availability_test(node.test)
        if _tail(node.test) == "TYPE_CHECKING":
            # `if TYPE_CHECKING: from torchao.float8 import Float8LinearConfig` never runs: names are bound
            # (so annotations resolve) but the imports are not events.
            self.type_checking += 1
            self._body(node.body, scope)
            self.type_checking -= 1
            self._body(node.orelse, scope)
            return
        outer = self.branch
        self.guard += optional
        self.branch = outer + ((id(node), 0) + _lines(node.body),)
        self._body(node.body, scope)
        self.guard -= optional
        self.branch = outer + ((id(node), 1) + _lines(node.orelse),)
        self._body(node.orelse, scope)
        self.branch = outer

    def v_import(self, node: ast.Import, scope: Scope) -> None:
        self.index.every_import.append(node)
        if self.guard:
            self.index.guarded.add(node)
            for alias in node.names:
                self.index.guarded_names.add(alias.asname or alias.name.split(".", 1)[0])
        for alias in node.names:
            name = alias.name
            if alias.asname:
                scope.bind(alias.asname, Binding("import", name, scope))
                self.imported.add(alias.asname)
            else:
                first = name.split(".", 1)[0]
                scope.bind(first, Binding("import", first, scope))
                self.imported.add(first)
            if not self.type_checking:
                self.index.imports.append((node, (name,)))

    def _computed_import(self, call: ast.Call) -> None:
        """`importlib.import_module("flash_attn")`, `__import__("fused_adam_cuda")`: an import of a literal name is an
        import. It is indexed as a stand-in `import NAME` statement placed at the call (its `trnready_call`, which
        FileContext.parent answers as the stand-in's holder); the name is bound to nothing."""
        name = call.args[0].value
        if not isinstance(name, str) or not name or name.startswith(".") or len(call.args) > 1 \
                or any(k.arg == "package" for k in call.keywords) \
                or not all(p.isidentifier() for p in name.split(".")) or self.type_checking:
            return
        stand_in = ast.copy_location(ast.Import(names=[ast.alias(name=name)]), call)
        stand_in.trnready_call = call
        self.index.every_import.append(stand_in)
        if self.guard:
            self.index.guarded.add(stand_in)
        self.index.imports.append((stand_in, (name,)))

    def v_importfrom(self, node: ast.ImportFrom, scope: Scope) -> None:
        self.index.every_import.append(node)
        if self.guard:
            self.index.guarded.add(node)
            for alias in node.names:
                self.index.guarded_names.add(alias.asname or alias.name)
        if node.level:  # relative import: the project's own module, never a library
            for alias in node.names:
                if alias.name != "*":
                    scope.bind(alias.asname or alias.name, Binding("local", None, scope))
                else:
                    # `from .quant_linear import *` brings that module's `import torch` as surely as an absolute
                    # star does; the leading dots keep its names from ever reading as a library's
                    scope.module().stars.append("." * node.level + (node.module or ""))
            return
        mod = node.module or ""
        for alias in node.names:
            if alias.name == "*":
                scope.module().stars.append(mod)
                self.index.imports.append((node, (mod,)))
                continue
            local = alias.asname or alias.name
            full = f"{mod}.{alias.name}"
            scope.bind(local, Binding("import", full, scope))
            self.imported.add(local)
            if not self.type_checking:
                self.index.imports.append((node, (mod, full)))

    def v_functiondef(self, node, scope: Scope) -> None:
        for d in node.decorator_list:
            self.index.decorators.append((d, scope))
            self.visit(d, scope)
        scope.bind(node.name, Binding("local", None, scope))
        args = node.args
        for d in args.defaults:
            self.visit(d, scope)
        for d in args.kw_defaults:
            if d is not None:
                self.visit(d, scope)
        if self.interest.keywords or self.interest.device_keywords:
            # def __init__(self, backend="nccl"), def f(x, device="cuda"): the default is the value every call
            # that omits the argument passes
            positional = args.posonlyargs + args.args
            pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            decides = None  # the function's parameter reads, gathered in one walk when first asked
            wanted = self.interest.keywords if self.interest.default_keywords is None \
                else self.interest.default_keywords
            for a, d in pairs:
                if a.arg in wanted:
                    if decides is None:
                        decides = _ParamReads(node)
                    if decides(a.arg):
                        self.index.keyword_defaults.append((a.arg, d, scope))
                    elif scope.kind == "class" and decides.only_to_super(a.arg):
                        self.index.keyword_defaults.append((a.arg, d, scope))
                        self.index.base_defaults.add(id(d))
                if type(d) is ast.Constant and self.interest.device_keywords \
                        and device_like(a.arg, self.interest.device_keywords):
                    self.index.device_values.append((d, scope))
        # The return annotation (-> torch.cuda.Stream) names a type; it uses nothing, so it is not walked.
        inner = self._scope("function", scope)
        self._bind_params(args, inner, scope)
        if scope.kind == "class":
            positional = args.posonlyargs + args.args
            is_static = any(_tail(d) == "staticmethod" for d in node.decorator_list)
            if positional and not is_static:
                inner.self_name = positional[0].arg
                inner.cls = scope
        elif scope.kind == "function" and scope.cls is not None:
            inner.self_name, inner.cls = scope.self_name, scope.cls  # a closure inside a method sees `self`
        self.functions.append((node.name, inner))
        self._body(node.body, inner)
        self.functions.pop()

    def v_return(self, node: ast.Return, scope: Scope) -> None:
        if node.value is not None:
            self.visit(node.value, scope)
            if self.functions and type(node.value) is ast.Constant and type(node.value.value) is str \
                    and self.interest.device_keywords and id(node.value) not in self.picked \
                    and device_like(self.functions[-1][0], self.interest.device_keywords):
                # `@property def device(self): return "cuda"`: what the function answers is a device, as a value
                # stored under that name would be (llm-awq's lm_eval adaptor)
                self.picked.add(id(node.value))
                self.index.device_values.append((node.value, scope))
            if self.functions and self.interest.keywords:
                # `def get_nccl_backend(): ... return "nccl"`: a getter named for a setting answers its value, as
                # a parameter default of that name would (keyword matchers with `defaults = true`); so does each
                # arm of a conditional it returns (`return "nccl" if torch.cuda.is_available() else "gloo"`)
                answers = [v for v in ((node.value.body, node.value.orelse) if type(node.value) is ast.IfExp
                                       else (node.value,)) if type(v) is ast.Constant and type(v.value) is str]
                if answers:
                    for setting in _getter_settings(self.functions[-1][0], self.interest.keywords
                                                    if self.interest.default_keywords is None
                                                    else self.interest.default_keywords):
                        self.index.keyword_defaults.extend((setting, v, scope) for v in answers)
            if self.functions and type(node.value) in (ast.Call, ast.Name):
                name, inner = self.functions[-1]
                self.index.factories.setdefault(name, []).append((node.value, scope))

    def _bind_params(self, args: ast.arguments, inner: Scope, outer: Scope) -> None:
        names = self.index.param_names
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            names.add(a.arg)
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for a, d in zip(positional, defaults):
            inner.bind(a.arg, Binding("param", (d, outer), inner))
        for a, d in zip(args.kwonlyargs, args.kw_defaults):
            inner.bind(a.arg, Binding("param", (d, outer), inner))
        if args.vararg:
            inner.bind(args.vararg.arg, Binding("param", (None, outer), inner))
        if args.kwarg:
            inner.bind(args.kwarg.arg, Binding("param", (None, outer), inner))

    def v_lambda(self, node: ast.Lambda, scope: Scope) -> None:
        for d in node.args.defaults:
            self.visit(d, scope)
        inner = self._scope("function", scope)
        if scope.kind == "function" and scope.cls is not None:
            inner.self_name, inner.cls = scope.self_name, scope.cls  # a lambda inside a method sees `self`
        self._bind_params(node.args, inner, scope)
        self.visit(node.body, inner)

    def v_classdef(self, node: ast.ClassDef, scope: Scope) -> None:
        for d in node.decorator_list:
            self.index.decorators.append((d, scope))
            self.visit(d, scope)
        for b in node.bases:
            self.visit(b, scope)
        for k in node.keywords:
            self.visit(k.value, scope)
        scope.bind(node.name, Binding("local", None, scope))
        self.class_names.add(node.name)
        members = _device_enum_members(node)
        if members:
            self.enum_strings.update({f"{node.name}.{k}": v for k, v in members.items()})
            if self.interest.keywords and "device_choices" in self.interest.keywords:
                # class TorchDevice(str, Enum): CUDA = "cuda"; CPU = "cpu": the devices the program accepts
                # (`TorchDevice(cfg["device"])` raises ValueError for "neuron"), read as a list of device choices
                # reported at its "cuda" member
                choices = getattr(node, "trnready_device_choices", None)  # the same node for every index
                if choices is None:
                    at = next(v for v in members.values() if v.value == "cuda")
                    choices = ast.copy_location(ast.List(elts=list(members.values()), ctx=ast.Load()), at)
                    choices.end_lineno, choices.end_col_offset = at.end_lineno, at.end_col_offset
                    node.trnready_device_choices = choices
                self.index.keyword_stores.append(("device_choices", choices, scope))
        inner = self._scope("class", scope)
        inner.bases = tuple(node.bases)
        self._body(node.body, inner)

    def v_assign(self, node: ast.Assign, scope: Scope) -> None:
        if self.interest.env_names and type(node.value) is ast.Constant and type(node.value.value) is str:
            for t in node.targets:
                key = _env_read(t)
                if key is not None:  # os.environ["PJRT_DEVICE"] = "TPU"
                    self.index.env_values[id(key)] = (node.value.value,)
        self.visit(node.value, scope)
        value = node.value if len(node.targets) == 1 else None
        if self.interest.subscripts and value is not None:
            t = node.targets[0]
            if type(t) is ast.Subscript and type(t.value) is ast.Name:
                if scope.items is None:
                    scope.items = {}
                scope.items.setdefault(t.value.id, []).append((t.slice, value))
            if type(t) is ast.Subscript and _maybe_mask_index(t.slice) and (not _literal_scalar(value)
                                                                    or _two_index_parts(t.slice)):
                # x[m] = rows: a write through a mask whose value has one row per True value (masks.rows_written)
                self.index.subscripts.append((t, scope))
                self.index.stored[id(t)] = value
            elif type(t) is ast.Attribute:
                self.attr_values.setdefault(t.attr, []).append((value, scope, None))
        for t in node.targets:
            self._bind_target(t, scope, value)
        if self.interest.device_keywords:
            for t in node.targets:
                self._device_store(t, node.value, scope)
        if self.interest.keywords:
            for t in node.targets:
                self._keyword_store(t, node.value, scope)

    def _device_store(self, target: ast.expr, value: ast.expr, scope: Scope) -> None:
        # `cfg.MODEL.DEVICE = "cuda"`, `self.device = "cuda:0"`, `args["device"] = "cuda"`: a device
        # string stored under a device-like name is a device position too.
        name = _held_name(target)
        if name is None:
            return
        if type(value) in (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp):
            return  # supported_device = ("cuda", "xpu", ...): a collection of names, not a device
        if device_like(name, self.interest.device_keywords):
            self.index.device_values.append((value, scope))

    def _keyword_store(self, target: ast.expr, value: ast.expr, scope: Scope) -> None:
        # config._attn_implementation = "flash_attention_2", kwargs["load_in_8bit"] = True
        t = type(target)
        if t is ast.Attribute:
            name = target.attr.lstrip("_")
        elif t is ast.Subscript and type(target.slice) is ast.Constant and type(target.slice.value) is str:
            name = target.slice.value
        elif t is ast.Name and scope.kind != "function" and type(value) in (ast.List, ast.Tuple, ast.Set):
            # a module or class constant holding a vocabulary: _VALID_DEVICES = ["cpu", "cuda"]
            name = target.id.lstrip("_").lower()
        else:
            return
        if name in self.interest.keywords:
            self.index.keyword_stores.append((name, value, scope))

    def v_annassign(self, node: ast.AnnAssign, scope: Scope) -> None:
        if node.value is not None:
            self.visit(node.value, scope)
            self._bind_target(node.target, scope, node.value)
            if self.interest.device_keywords:
                self._device_store(node.target, node.value, scope)
            if scope.kind == "class" and type(node.target) is ast.Name and self.interest.keywords \
                    and node.target.id.lstrip("_") in self.interest.keywords:
                # a dataclass field `_attn_implementation: str = "flash_attention_2"`: the default of the
                # constructor's parameter of that name
                self.index.keyword_defaults.append((node.target.id.lstrip("_"), node.value, scope))
        elif type(node.target) is not ast.Name:
            self.visit(node.target, scope)

    def v_augassign(self, node: ast.AugAssign, scope: Scope) -> None:
        self.visit(node.value, scope)
        t = node.target
        if self.interest.subscripts and type(t) is ast.Subscript and _maybe_mask_index(t.slice):
            # `x[m] -= v` reads x[m] (one row per True value) before writing the result back
            self.index.subscripts.append((t, scope))
            self.index.augmented.add(id(t))
        self._bind_target(node.target, scope, None)

    def v_for(self, node, scope: Scope) -> None:
        self.visit(node.iter, scope)
        target, it = node.target, node.iter
        names = tuple(n.id for n in ast.walk(target) if type(n) is ast.Name)
        if names:
            if scope.loops is None:
                scope.loops = []
            scope.loops.append((names, node.lineno, node.end_lineno or node.lineno))
        if (type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "enumerate" and it.args
                and type(target) is ast.Tuple and len(target.elts) == 2):
            self._bind_target(target.elts[0], scope, None)
            target, it = target.elts[1], it.args[0]
        if type(target) is ast.Name and self._holds_instances(it, scope):
            # for layer in self.layers: layer(q, k, v, key_padding_mask=m)
            self.instance_names.add(target.id)
            s2 = _declared_scope(scope, target.id) if scope.globals else scope
            s2.bind(target.id, Binding("elem", it, s2))
        else:
            self._bind_target(target, scope, None)
            _zip_rows(target, it, scope, scope)
        self._body(node.body, scope)
        self._body(node.orelse, scope)

    def _holds_instances(self, it: ast.expr, scope: Scope) -> bool:
        if type(it) is ast.Name:
            return it.id in self.instance_names
        if type(it) is ast.Attribute and type(it.value) is ast.Name and it.value.id == scope.self_name:
            return it.attr in self.instance_names
        if type(it) is ast.Call and type(it.func) is ast.Attribute and it.func.attr in ("values", "children", "modules"):
            return self._holds_instances(it.func.value, scope)  # self.blocks.values() of a ModuleDict
        return False

    def v_with(self, node, scope: Scope) -> None:
        for item in node.items:
            self.visit(item.context_expr, scope)
            if item.optional_vars is not None:
                self._bind_target(item.optional_vars, scope, None)
        self._body(node.body, scope)

    def v_excepthandler(self, node: ast.ExceptHandler, scope: Scope) -> None:
        if node.type is not None:
            self.visit(node.type, scope)
        if node.name:
            scope.bind(node.name, Binding("local", None, scope))
        self._body(node.body, scope)

    def v_global(self, node, scope: Scope) -> None:
        scope.globals.update(node.names)

    def v_namedexpr(self, node: ast.NamedExpr, scope: Scope) -> None:
        self.visit(node.value, scope)
        s = scope
        while s.kind == "comprehension" and s.parent is not None:
            s = s.parent
        s.bind(node.target.id, Binding("local", None, s))

    def v_comprehension_expr(self, node, scope: Scope) -> None:
        inner = self._scope("comprehension", scope)
        for i, gen in enumerate(node.generators):
            # The first iterable is evaluated in the enclosing scope.
            self.visit(gen.iter, scope if i == 0 else inner)
            self._bind_target(gen.target, inner, None)
            _zip_rows(gen.target, gen.iter, inner, scope if i == 0 else inner)
            for cond in gen.ifs:
                self.visit(cond, inner)
        if type(node) is ast.DictComp:
            self.visit(node.key, inner)
            self.visit(node.value, inner)
        else:
            self.visit(node.elt, inner)

    def v_match_name(self, node, scope: Scope) -> None:
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        if name:
            scope.bind(name, Binding("local", None, scope))
        for child in ast.iter_child_nodes(node):
            self.visit(child, scope)

    # -- expressions -------------------------------------------------------
    def v_call(self, node: ast.Call, scope: Scope) -> None:
        func = node.func
        interest = self.interest
        keep = False
        self.index.every_call.append(node)  # for the project summary (project/summary.py): no second walk
        if node.args and type(node.args[0]) is ast.Constant and _imports_by_name(func, self.imported):
            self._computed_import(node)
        ft = type(func)
        if ft is ast.Attribute:
            tail = func.attr
            if tail in interest.call_tails or tail in interest.method_names or tail in interest.device_tails \
                    or interest.device_suffixes and tail.endswith(interest.device_suffixes):
                keep = True
            elif (tail in self.instance_names and type(func.value) is ast.Name
                  and func.value.id == scope.self_name):
                keep = True
            elif scope.cls is not None and scope.cls.bases and (
                    _is_super_call(func) or tail in _INHERITED_ATTRS and type(func.value) is ast.Name
                    and func.value.id == scope.self_name):
                keep = True  # the base class's call, or a submodule its constructor made (resolve.instance_class)
            if tail in _DEFAULTED_LOOKUPS and interest.device_keywords and len(node.args) == 2 \
                    and id(node) not in self._compared \
                    and type(node.args[0]) is ast.Constant and type(node.args[0].value) is str \
                    and device_like(node.args[0].value, interest.device_keywords):
                # cfg.get("device", "cuda"), options.pop("device", "cuda"), os.environ.get("DEVICE", "cuda"): the
                # default of a device setting is a device string
                self.index.device_values.append((node.args[1], scope))
            option = _option_name(node) if tail == "add_argument" else None
            if option and interest.device_keywords and device_like(option, interest.device_keywords):
                # parser.add_argument("--device", default="cuda"): the default is a device string
                for kw in node.keywords:
                    if kw.arg == "default":
                        self.index.device_values.append((kw.value, scope))
            elif option and interest.device_keywords and _gpu_named(option) and any(
                    kw.arg == "default" and type(kw.value) is ast.Constant and type(kw.value.value) is str
                    and _CUDA_DEVICE_STRING.fullmatch(kw.value.value) for kw in node.keywords):
                # parser.add_argument("--gpu_type", default="cuda"): an option named for the GPU whose default is a
                # CUDA device string selects the NVIDIA device on every run that does not pass it, as the default
                # of `--device` does; a default of another shape ("0", "mps") is no device string, and an option
                # named otherwise (`--model_type`, `--accelerator`) is judged by the `[device]` keywords alone
                self.index.device_values.extend((kw.value, scope) for kw in node.keywords if kw.arg == "default")
            elif option and interest.device_keywords and option.endswith("s") \
                    and device_like(option[:-1], interest.device_keywords):
                # parser.add_argument("--devices", nargs="+", default=["cuda:0"]): the option of several devices;
                # each string of a list default is a device (a count, `default=1`, or "auto" is not a device string)
                for kw in node.keywords:
                    if kw.arg == "default" and type(kw.value) in (ast.List, ast.Tuple):
                        self.index.device_values.extend((e, scope) for e in kw.value.elts
                                                        if type(e) is ast.Constant and type(e.value) is str)
            if option and interest.keywords:
                # parser.add_argument("--attn_implementation", default="flash_attention_2")
                name = option.lstrip("-").replace("-", "_")
                if name in interest.keywords:
                    for kw in node.keywords:
                        if kw.arg == "default":
                            self.index.keyword_stores.append((name, kw.value, scope))
        elif ft is ast.Name:
            tail = func.id
            if tail in interest.call_tails or tail in interest.device_tails or tail in self.instance_names \
                    or tail in self.imported or interest.device_suffixes and tail.endswith(interest.device_suffixes):
                keep = True
        elif ft is ast.Subscript:
            # self.layers[0](q, k, v, ...) on a container of modules
            base = func.value
            if (type(base) is ast.Attribute and type(base.value) is ast.Name and base.value.id == scope.self_name
                    and base.attr in self.instance_names) or (type(base) is ast.Name and base.id in self.instance_names):
                keep = True
        if ft is ast.Attribute or ft is ast.Name:
            self.index.called_refs.add(id(func))
            # functools.partial(f, ...) calls f whenever its result is called
            if tail == "partial" and node.args and type(node.args[0]) in (ast.Attribute, ast.Name):
                self.index.called_refs.add(id(node.args[0]))
        if interest.subscripts and ft is ast.Name and node.keywords:
            for kw in node.keywords:  # Meta(keep=keep): kept when the file defines class Meta (see run)
                if kw.arg:
                    self.attr_values.setdefault(kw.arg, []).append((kw.value, scope, func.id))
        if node.keywords and (interest.device_keywords or interest.keywords or interest.env_names):
            for kw in node.keywords:
                arg = kw.arg
                if arg in interest.device_keywords or arg in interest.keywords:
                    keep = True
                elif arg in interest.env_names or arg and arg.startswith(interest.env_prefixes) \
                        and interest.env_known(arg):  # os.environ.update(XLA_USE_BF16="1")
                    self.index.env.append((kw.value, arg))
                elif arg and interest.device_keywords and device_like(arg, interest.device_keywords):
                    keep = True  # compute_device="cuda": a device-named keyword, as for stored values
        if (ft is ast.Attribute and func.attr == "setdefault" and len(node.args) == 2 and interest.env_names
                and type(node.args[1]) is ast.Constant and type(node.args[1].value) is str):
            key = _env_read(node)
            if key is not None:  # os.environ.setdefault("PJRT_DEVICE", "TPU")
                self.index.env_values[id(key)] = (node.args[1].value,)
        if keep:
            self.index.calls.append((node, scope))
            if self.call_stack:
                # np.median(mask.nonzero(), axis=1): what the result is handed to says what the receiver is
                self.index.outer_calls[id(node)] = self.call_stack[-1]
        self.visit(func, scope)
        if node.args or node.keywords:
            self.call_stack.append((func, scope))
            for a in node.args:
                self.visit(a, scope)
            for k in node.keywords:
                self.visit(k.value, scope)
            self.call_stack.pop()

    def v_compare(self, node: ast.Compare, scope: Scope) -> None:
        self.index.every_compare.append(node)  # for pinned_cuda_devices: no walk of every node of the file
        # `settings.get("device", "cuda") == "xla"`: a default only compared places nothing (v_call)
        self._compared.update(id(o) for o in (node.left, *node.comparators) if type(o) is ast.Call)
        if self.interest.env_names:
            # os.environ.get("PJRT_DEVICE") == "TPU": remember what the variable is compared with
            operands = [node.left, *node.comparators]
            literals = []
            for o in operands:
                for e in (o.elts if type(o) in (ast.Tuple, ast.List, ast.Set) else (o,)):
                    if type(e) is ast.Constant and type(e.value) is str:
                        literals.append(e.value)
            literals = tuple(literals)
            if literals:
                for o in operands:
                    key = _env_read(o)
                    if key is not None:
                        self.index.env_values[id(key)] = literals
        self._compare_operands(node, scope)

    def _compare_operands(self, node: ast.Compare, scope: Scope) -> None:
        # `x.dtype == torch.float64`, `qscheme in (torch.per_channel_affine, ...)`: a name that is only
        # compared against reads the value; it does not use the feature, so it is not a reference.
        for operand in [node.left, *node.comparators]:
            t = type(operand)
            # `x.type() == "torch.cuda.HalfTensor"`, `p.type() in ["torch.cuda.HalfTensor", ...]`: the type string
            # names the API as its object does; match.py reports it only if a `reference` matcher names it exactly
            for e in (operand.elts if t in (ast.Tuple, ast.List, ast.Set) else (operand,)):
                if type(e) is ast.Constant and type(e.value) is str and _DOTTED_STRING.fullmatch(e.value):
                    self.index.named_strings.append((e, e.value))
            if t is ast.Attribute and operand.attr == "type" and _literal_device_call(operand.value) \
                    and not self._test_picks_device():
                # device.type == torch.device("cuda").type: the type of a literal device is the string "cuda"
                # compared, a check of where something is (as `device.type == "cuda"`), not a device to port
                continue
            if t in (ast.Name, ast.Attribute):
                self._visit_unrecorded(operand, scope)
            elif (t is ast.Call and _tail(operand.func) == "device" and not operand.keywords
                  and all(type(a) is ast.Constant for a in operand.args) and not self._test_picks_device()):
                # x.device == torch.device("cuda", 0): a check of where a tensor is, like x.device.type == "cuda"
                continue
            elif t in (ast.Tuple, ast.List, ast.Set):
                for elt in operand.elts:
                    if type(elt) in (ast.Name, ast.Attribute):
                        self._visit_unrecorded(elt, scope)
                    else:
                        self.visit(elt, scope)
            else:
                self.visit(operand, scope)

    def _test_picks_device(self) -> bool:
        """Whether the `if` whose test is being walked moves a value to a device in its arm. Asked only for a
        `device(...)` call compared in the test, so the arm, often long and nested, is searched for few `if`s."""
        if self.pick_arm is None:
            return False
        if self.picks is None:
            self.picks = _moves_to_device(self.pick_arm)
        return self.picks

    def v_assert(self, node: ast.Assert, scope: Scope) -> None:
        if self.interest.cuda_asserts:
            # assert grad_output.is_cuda: the code insists on a CUDA tensor; on Neuron the assert fails
            at = _requires_cuda_tensor(node.test)
            if at is not None:
                self.index.cuda_asserts.append((at, scope))
        self._asserted(node.test, scope)
        self.visit(node.test, scope)
        if node.msg is not None:
            self.visit(node.msg, scope)

    def _asserted(self, test: ast.expr, scope: Scope) -> None:
        """What an `assert test` (or a block that raises unless `test`) insists on."""
        # assert x.device.type == "cuda": the string is the device the code insists on; on Neuron the assert fails
        if self.interest.device_keywords:
            for value in _device_type_literals(test):
                self.index.device_values.append((value, scope))
        if self.interest.keywords:
            # assert backend == "nccl": the code accepts that one value of the setting
            for name, value in _asserted_settings(_enum_members_read(test, self.enum_strings)):
                if name in self.interest.keywords:
                    self.index.keyword_defaults.append((name, value, scope))
                    self.index.keyword_asserts.append((name, value, scope))

    def v_ifexp(self, node: ast.IfExp, scope: Scope) -> None:
        # torch.float16 if x.device.type == "cuda" else torch.float32: the device type picks the precision, so on
        # any other device the model silently runs in float32
        if self.interest.device_keywords and _precision_pick(node.body, node.orelse):
            for value in _device_type_literals(node.test):
                self.index.device_values.append((value, scope))
        self.visit(node.test, scope)
        self.visit(node.body, scope)
        self.visit(node.orelse, scope)

    def _visit_unrecorded(self, node: ast.expr, scope: Scope) -> None:
        root = node
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) not in (ast.Name, ast.Attribute):
            self.visit(root, scope)

    def v_dict(self, node: ast.Dict, scope: Scope) -> None:
        kws = self.interest.device_keywords
        for k, v in zip(node.keys, node.values):
            if k is not None:
                if type(k) in (ast.Name, ast.Attribute):
                    # {torch.float64: 8, torch.float32: 4}: a lookup table keyed by the object, not a use of it
                    self._visit_unrecorded(k, scope)
                else:
                    self.visit(k, scope)
                if kws and type(k) is ast.Constant and type(k.value) is str and device_like(k.value, kws):
                    self.index.device_values.append((v, scope))
                if type(k) is ast.Constant and type(k.value) is str and k.value in self.interest.keywords:
                    self.index.keyword_stores.append((k.value, v, scope))
            self.visit(v, scope)

    def v_attribute(self, node: ast.Attribute, scope: Scope) -> None:
        # Only the outermost attribute of a chain is recorded; inner ones are skipped.
        root = node.value
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is ast.Name:
            self.index.refs.append((node, scope))
        else:
            self.visit(root, scope)

    def v_constant(self, node: ast.Constant, scope: Scope) -> None:
        # Strings match on their own only when they are exactly an environment
        # variable name the catalogue knows ("XLA_USE_BF16", or "XLA_USE_BF16=1"),
        # so docstrings and prose never do.
        v = node.value
        if type(v) is str and self.interest.env_names:
            name = v.split("=", 1)[0] if "=" in v else v
            # the set lookup first: this runs for every string of the file
            if name in self.interest.env_names or name.startswith(self.interest.env_prefixes) \
                    and self.interest.env_known(name):
                self.index.env.append((node, name))

    def v_subscript(self, node: ast.Subscript, scope: Scope) -> None:
        if self.interest.subscripts and type(node.ctx) is ast.Load and _maybe_mask_index(node.slice):
            self.index.subscripts.append((node, scope))
        self.visit(node.value, scope)
        self.visit(node.slice, scope)

    def v_binop(self, node: ast.BinOp, scope: Scope) -> None:
        if self.interest.shifts and type(node.op) in (ast.LShift, ast.RShift) \
                and type(node.left) in (ast.Call, ast.Name):  # a literal on the left is Python int arithmetic
            self.index.shifts.append((node, scope))
        self.visit(node.left, scope)
        self.visit(node.right, scope)

    def v_unaryop(self, node: ast.UnaryOp, scope: Scope) -> None:
        if self.interest.subscripts and type(node.op) is ast.Invert and type(node.operand) is ast.Name:
            self.index.negated.setdefault(id(scope), set()).add(node.operand.id)
        self.visit(node.operand, scope)

    def v_name(self, node: ast.Name, scope: Scope) -> None:
        # A bare name can only mean a library object if something imported or
        # aliased it, or a star import could have brought it in.
        if type(node.ctx) is ast.Load and (node.id in self.imported or self.index.module.stars):
            self.index.refs.append((node, scope))


_DISPATCH = {
    ast.Import: Indexer.v_import,
    ast.ImportFrom: Indexer.v_importfrom,
    ast.FunctionDef: Indexer.v_functiondef,
    ast.AsyncFunctionDef: Indexer.v_functiondef,
    ast.Lambda: Indexer.v_lambda,
    ast.ClassDef: Indexer.v_classdef,
    ast.Assign: Indexer.v_assign,
    ast.AnnAssign: Indexer.v_annassign,
    ast.AugAssign: Indexer.v_augassign,
    ast.For: Indexer.v_for,
    ast.AsyncFor: Indexer.v_for,
    ast.With: Indexer.v_with,
    ast.AsyncWith: Indexer.v_with,
    ast.ExceptHandler: Indexer.v_excepthandler,
    ast.Global: Indexer.v_global,
    ast.Nonlocal: Indexer.v_global,
    ast.NamedExpr: Indexer.v_namedexpr,
    ast.ListComp: Indexer.v_comprehension_expr,
    ast.SetComp: Indexer.v_comprehension_expr,
    ast.DictComp: Indexer.v_comprehension_expr,
    ast.GeneratorExp: Indexer.v_comprehension_expr,
    ast.MatchAs: Indexer.v_match_name,
    ast.MatchStar: Indexer.v_match_name,
    ast.MatchMapping: Indexer.v_match_name,
    ast.Call: Indexer.v_call,
    ast.Attribute: Indexer.v_attribute,
    ast.Dict: Indexer.v_dict,
    ast.Name: Indexer.v_name,
    ast.Constant: Indexer.v_constant,
    ast.Compare: Indexer.v_compare,
    ast.Try: Indexer.v_try,
    ast.Return: Indexer.v_return,
    ast.Subscript: Indexer.v_subscript,
    ast.BinOp: Indexer.v_binop,
    ast.UnaryOp: Indexer.v_unaryop,
    ast.If: Indexer.v_if,
    ast.Assert: Indexer.v_assert,
    ast.IfExp: Indexer.v_ifexp,
}
if hasattr(ast, "TryStar"):
    _DISPATCH[ast.TryStar] = Indexer.v_try


_HALF_DTYPES = frozenset({"float16", "half", "bfloat16"})
_FULL_DTYPES = frozenset({"float32", "float"})


def _literal_device_call(e: ast.expr) -> bool:
    """`torch.device("cuda")`, `th.device("cuda", 0)`: a device built from literals only."""
    return type(e) is ast.Call and _tail(e.func) == "device" and not e.keywords and bool(e.args) \
        and all(type(a) is ast.Constant for a in e.args)


def _moves_to_device(stmts) -> bool:
    """An `if` arm that moves a value to a device: `.cuda()`, or `.to(x)` with anything but "cpu"."""
    for top in stmts:
        for n in walk(top):
            if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in ("cuda", "to"):
                if n.func.attr == "cuda" or (n.args and not (type(n.args[0]) is ast.Constant
                                                             and n.args[0].value == "cpu")):
                    return True
    return False


# Names of device types a dispatch compares a device (or its type) with (context/neuron_guarded.py reads them too)
DEVICE_TYPE_NAMES = frozenset({"cpu", "cuda", "mps", "xpu", "gpu", "tpu", "npu", "hpu", "xla", "neuron", "meta"})


def _device_dispatch_names(node: ast.If):
    """An if/elif chain comparing one operand with device names (`== "cuda"`, `in ("cpu", "mps")`) whose last arm
    raises: an `ast.List` of the names it handles, placed at its "cuda" literal (None when the chain is no such
    dispatch, or `node` is an `elif` of one, which its head answers for)."""
    if getattr(node, "trnready_in_dispatch", False):
        return None
    names: list = []
    operand = None
    cur, chain = node, []
    while True:
        t = cur.test
        if type(t) is not ast.Compare or len(t.ops) != 1 or type(t.ops[0]) not in (ast.Eq, ast.In):
            return None
        side = ast.dump(t.left)
        if operand is not None and side != operand:
            return None
        operand = side
        right = t.comparators[0]
        lits = right.elts if type(t.ops[0]) is ast.In and type(right) in (ast.Tuple, ast.List, ast.Set) else [right]
        for lit in lits:
            if type(lit) is not ast.Constant or not isinstance(lit.value, str) \
                    or lit.value.split(":")[0].lower() not in DEVICE_TYPE_NAMES:
                return None
            names.append(lit)
        chain.append(cur)
        if len(cur.orelse) == 1 and type(cur.orelse[0]) is ast.If:
            cur = cur.orelse[0]
            continue
        if not cur.orelse or type(cur.orelse[-1]) is not ast.Raise:
            return None
        break
    for arm in chain[1:]:
        arm.trnready_in_dispatch = True
    at = next((lit for lit in names if lit.value.split(":")[0].lower() == "cuda"), None)
    if at is None or len(chain) < 2:
        return None
    out = ast.copy_location(ast.List(elts=list(names), ctx=ast.Load()), at)
    out.end_lineno, out.end_col_offset = at.end_lineno, at.end_col_offset
    return out


def _device_gate_literals(node: ast.If) -> list:
    """The "cuda" literal of an `if` that asks whether a device is CUDA and whose arm moves a value onto that same
    device with `.to(...)`: `if 'cuda' in str(device): model.to(device)`, `if device.type == "cuda": x =
    x.to(device)` (audioset_tagging_cnn's main.py and inference.py, blind56), with or without an else. After the
    port picks the neuron device the test is False and the move is skipped: the test is the item, like the device
    string of a pick. An arm moving with `.cuda()` is a finding of its own, and one that only does CUDA-only work
    (a synchronize, a memory statistic, a fused kernel) is no gate: both stay as they were."""
    test = node.test
    if type(test) is not ast.Compare or len(test.ops) != 1:
        return []
    op, left, right = test.ops[0], test.left, test.comparators[0]
    subject = literal = None
    if type(op) is ast.In and type(left) is ast.Constant and left.value == "cuda" and type(right) is ast.Call \
            and type(right.func) is ast.Name and right.func.id == "str" and len(right.args) == 1:
        subject, literal = right.args[0], left  # 'cuda' in str(device)
    elif type(op) is ast.Eq:
        for a, b in ((left, right), (right, left)):
            if type(b) is ast.Constant and b.value == "cuda":
                if _is_device_type(a):
                    subject, literal = a.value, b  # device.type == "cuda"; x.device.type == "cuda"
                elif type(a) is ast.Call and type(a.func) is ast.Name and a.func.id == "str" and len(a.args) == 1:
                    subject, literal = a.args[0], b  # str(device) == "cuda"
    if subject is None or type(subject) not in (ast.Name, ast.Attribute):
        return []
    want = ast.dump(subject)
    for top in node.body:
        for n in walk(top):
            if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "to":
                target = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "device"), None)
                if target is not None and ast.dump(target) == want:
                    return [literal]
    return []


def _device_type_literals(test: ast.expr) -> list:
    """The string literals a condition compares a device type with for equality: `x.device.type == "cuda"`,
    `"cuda" == dev.type`, also inside `and` (`use_fp16 and x.device.type == "cuda"`)."""
    out = []
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        for v in test.values:
            out.extend(_device_type_literals(v))
        return out
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return out
    left, right = test.left, test.comparators[0]
    for a, b in ((left, right), (right, left)):
        if type(b) is ast.Constant and type(b.value) is str and _is_device_type(a):
            out.append(b)
    return out


def _getter_settings(func_name: str, wanted) -> list:
    """The settings a function's name says it answers: the name itself or its last words that some rule reads
    (`get_nccl_backend`, `infer_comm_backend` -> backend; `get_dist_backend` -> dist_backend and backend)."""
    parts = func_name.lstrip("_").split("_")
    return [name for name in ("_".join(parts[i:]) for i in range(len(parts))) if name in wanted]


class _ParamReads:
    """Whether the function itself acts on a parameter (`assert backend == "nccl"`, `self.backend = backend`):
    it is read, never handed on as a call argument (the link step follows forwarded defaults to the API they
    reach) and not only formatted into text (`print(f"backend: {backend}")`). One walk of the function answers
    for all its parameters (a function often has several a rule reads)."""

    __slots__ = ("passed", "reads", "formatted", "to_super")

    def __init__(self, fn):
        passed: set = set()
        to_super: dict = {}  # name -> whether every call it is handed to is `super().m(...)`
        reads: dict = {}
        formatted: dict = {}
        AST, Call, Name, Starred, FormattedValue, Load = ast.AST, ast.Call, ast.Name, ast.Starred, \
            ast.FormattedValue, ast.Load
        stack = [fn]
        while stack:
            node = stack.pop()
            k = type(node)
            if k is Call:
                f = node.func
                up = type(f) is ast.Attribute and type(f.value) is Call and type(f.value.func) is Name \
                    and f.value.func.id == "super"
                for arg in node.args:
                    if type(arg) is Starred:
                        arg = arg.value
                    if type(arg) is Name:
                        passed.add(arg.id)
                        to_super[arg.id] = to_super.get(arg.id, True) and up
                for kw in node.keywords:
                    arg = kw.value
                    if type(arg) is Name:
                        passed.add(arg.id)
                        # by keyword (`super().__init__(backend=backend)`), the keyword matcher already reports
                        # the call with the default's value
                        to_super[arg.id] = False
            elif k is Name:
                if type(node.ctx) is Load:
                    reads[node.id] = reads.get(node.id, 0) + 1
            elif k is FormattedValue:
                # every name under the formatted value (a nested f-string's names count once per level)
                inner = [node.value]
                while inner:
                    n = inner.pop()
                    if type(n) is Name:
                        formatted[n.id] = formatted.get(n.id, 0) + 1
                    _push_children(n, inner, AST)
            _push_children(node, stack, AST)
        self.passed, self.reads, self.formatted, self.to_super = passed, reads, formatted, to_super

    def only_to_super(self, name: str) -> bool:
        """Handed on, as it is and by position, only to the base class's method (`super()._setup(launcher,
        backend)`)."""
        return self.to_super.get(name, False)

    def __call__(self, name: str) -> bool:
        if name in self.passed:
            return False
        reads = self.reads.get(name, 0)
        return reads > 0 and reads > self.formatted.get(name, 0)


def _push_children(node, stack: list, AST) -> None:
    for name in node._fields:
        value = getattr(node, name, None)
        if type(value) is list:
            stack.extend(v for v in value if isinstance(v, AST))
        elif isinstance(value, AST):
            stack.append(value)


# Values of a device-type vocabulary: an Enum whose members all hold one of these (and "cuda") lists devices
_DEVICE_TYPES = frozenset({"cpu", "cuda", "mps", "xpu", "hip", "gpu", "tpu", "xla", "meta", "neuron", "npu", "mlu",
                           "hpu", "auto"})


def _device_enum_members(node: ast.ClassDef) -> dict:
    """MEMBER -> its string constant, for a class deriving from an Enum whose name holds "device" and whose members
    are all device types, "cuda" among them and "neuron" not (`class TorchDevice(str, Enum): CUDA = "cuda"; ...`);
    {} for any other class."""
    if "device" not in node.name.lower() or not any(
            (b.id if type(b) is ast.Name else b.attr if type(b) is ast.Attribute else "").endswith("Enum")
            for b in node.bases):
        return {}
    members = {}
    for stmt in node.body:
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name:
            v = stmt.value
            if type(v) is not ast.Constant or type(v.value) is not str or v.value.lower() not in _DEVICE_TYPES:
                return {}
            members[stmt.targets[0].id] = v
    values = {v.value.lower() for v in members.values()}
    return members if "cuda" in values and not values & _NEURON_VALUES_LOWER else {}


def _enum_members_read(test: ast.expr, members: dict) -> ast.expr:
    """`device in [TorchDevice.CPU, TorchDevice.CUDA]` read with the members' strings, when every element of the
    allow-list is a member of a device enum of the file, or of an imported one whose member names are all device
    types (`CPU`, `CUDA`, `MPS`: the enum's values are not in this file, its names say them); the test unchanged
    otherwise."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.In \
            or type(test.comparators[0]) not in (ast.Set, ast.Tuple, ast.List):
        return test
    # kept on the test: every index of the tree reads the same nodes (the matches compare them by identity)
    done = getattr(test, "trnready_enum_read", None)
    if done is None:
        done = _enum_members_read_new(test, members)
        try:
            test.trnready_enum_read = done
        except AttributeError:
            pass
    return done


def _enum_members_read_new(test: ast.Compare, members: dict) -> ast.expr:
    coll = test.comparators[0]
    keys = [f"{e.value.id}.{e.attr}" if type(e) is ast.Attribute and type(e.value) is ast.Name else None
            for e in coll.elts]
    if not keys or None in keys:
        return test
    if all(k in members for k in keys):
        values = [members[k].value for k in keys]
    else:
        values = [k.rsplit(".", 1)[1].lower() for k in keys]
        if not all(v in _DEVICE_TYPES for v in values) or "cuda" not in values:
            return test
    elts: list[ast.expr] = [ast.copy_location(ast.Constant(value=v), e) for v, e in zip(values, coll.elts)]
    for new, e in zip(elts, coll.elts):
        new.end_lineno, new.end_col_offset = e.end_lineno, e.end_col_offset
    return ast.Compare(left=test.left, ops=test.ops, comparators=[ast.List(elts=elts, ctx=ast.Load())])


def _asserted_settings(test: ast.expr) -> list:
    """(name, literal) for each `name == "literal"` an assert requires (`backend == "nccl"`, `cfg.backend == ...`),
    also inside `and`."""
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        return [pair for v in test.values for pair in _asserted_settings(v)]
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.In \
            and type(test.comparators[0]) in (ast.Set, ast.Tuple, ast.List) and _closed_to_neuron(test.comparators[0]):
        # `assert device_type in {'cuda'}` (llm.c), `assert backend in ["gloo", "nccl"]` (a gather helper that then
        # picks its device by the backend): a fixed list of accepted values without Neuron's stops the port there,
        # so each value in it is required as `==` requires one; a list that names Neuron's value
        # (`in ("cuda", "neuron")`) accepts the port
        return [pair for v in test.comparators[0].elts
                for pair in _asserted_settings(ast.Compare(left=test.left, ops=[ast.Eq()], comparators=[v]))]
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return []
    out = []
    for a, b in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if type(b) is ast.Constant and type(b.value) is str:
            name = a.id if type(a) is ast.Name else a.attr if type(a) is ast.Attribute else None
            if name is None and type(a) is ast.Call and not a.keywords and (_tail(a.func) or "").startswith("get_"):
                name = (_tail(a.func) or "")[4:]  # assert dist.get_backend(group) in (...): the getter names it
            if name is not None:
                out.append((name, b))
    return out


# The values a setting takes on Trainium (device type, distributed backend, PJRT device): an assert listing one of
# them accepts the port
_NEURON_VALUES = frozenset({"neuron", "xla", "NEURON", "XLA"})
_NEURON_VALUES_LOWER = frozenset({"neuron", "xla"})


def _closed_to_neuron(coll: ast.expr) -> bool:
    """A literal collection of strings only, none of them Neuron's (`["gloo", "nccl"]`, `{"cuda"}`)."""
    elts = coll.elts
    return bool(elts) and all(type(e) is ast.Constant and type(e.value) is str for e in elts) \
        and not any(e.value in _NEURON_VALUES for e in elts)


def _compared_settings(test: ast.expr) -> list:
    """(name, value) for each `name == value` / `name != value` of an `if` test, also inside `and` / `or`: the
    name of a variable or attribute (`backend`, `cfg.trainer.accelerator`), of a key (`cfg["accelerator"]`) or
    of a getter (`dist.get_backend(group)` -> backend), compared with a string or an attribute (`Backend.NCCL`)."""
    if type(test) is ast.BoolOp:
        return [pair for v in test.values for pair in _compared_settings(v)]
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) not in (ast.Eq, ast.NotEq):
        return []
    out = []
    for a, b in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if not (type(b) is ast.Constant and type(b.value) is str or type(b) is ast.Attribute):
            continue
        name = _held_name(a)
        if name is None and type(a) is ast.Call and not a.keywords and (_tail(a.func) or "").startswith("get_"):
            name = (_tail(a.func) or "")[4:]
        if name is not None:
            out.append((name, b))
    return out


def _held_name(node: ast.expr) -> str | None:
    """The name a value is held under: `x` -> x, `cfg.x` -> x, `args["x"]` -> x; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def _is_device_type(expr: ast.expr) -> bool:
    """`<x>.device.type`, `<x>.device_type`, or the type of a name that holds a device (`device.type`, `dev.type`,
    `train_device.type`)."""
    if type(expr) is not ast.Attribute:
        return False
    if expr.attr == "device_type":
        return True
    if expr.attr != "type":
        return False
    v = expr.value
    return (type(v) is ast.Attribute and v.attr == "device") or (
        type(v) is ast.Name and (v.id in ("device", "dev") or v.id.endswith("_device")))


def _precision_pick(a: ast.expr, b: ast.expr) -> bool:
    """One arm names a half-precision dtype and the other float32 (`torch.float16 ... else torch.float32`)."""
    ta = a.attr if type(a) is ast.Attribute else None
    tb = b.attr if type(b) is ast.Attribute else None
    return (ta in _HALF_DTYPES and tb in _FULL_DTYPES) or (tb in _HALF_DTYPES and ta in _FULL_DTYPES)


def _skip(self, node, scope) -> None:
    return None


# Leaf nodes with nothing to record (contexts and operators) are not walked at all.
for _base in (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop):
    for _cls in _base.__subclasses__():
        _DISPATCH[_cls] = _skip

# node type -> the fields Indexer.visit walks for a type without a handler: every field but those that hold only
# names and flags (astwalk's table) and the context and operator fields, whose nodes are _skip'ped anyway
_CHILD_FIELDS: dict = {}
_LEAF_FIELDS = frozenset(("ctx", "op", "ops"))


def _child_fields(cls: type) -> tuple:
    fields = tuple(f for f in (_FIELDS.get(cls) or _fields(cls)) if f not in _LEAF_FIELDS)
    _CHILD_FIELDS[cls] = fields
    return fields


def _requires_cuda_tensor(test):
    """The first `.is_cuda` read an assert's test requires to be true: the test itself, a conjunct of an `and`,
    `x.is_cuda == True`, or the element of `all([t.is_cuda for t in ...])`; never under `not`, `or`, `== False`."""
    t = type(test)
    if t is ast.Attribute and test.attr == "is_cuda":
        return test
    if t is ast.BoolOp and type(test.op) is ast.And:
        for v in test.values:
            got = _requires_cuda_tensor(v)
            if got is not None:
                return got
        return None
    if t is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Eq, ast.Is) \
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is True:
        return _requires_cuda_tensor(test.left)
    if t is ast.Call and type(test.func) is ast.Name and test.func.id == "all" and len(test.args) == 1:
        arg = test.args[0]
        if type(arg) in (ast.ListComp, ast.GeneratorExp, ast.SetComp):
            return _requires_cuda_tensor(arg.elt)
        if type(arg) is ast.Call and type(arg.func) is ast.Name and arg.func.id == "map" and len(arg.args) == 2 \
                and type(arg.args[0]) is ast.Lambda:
            return _requires_cuda_tensor(arg.args[0].body)
    return None


def _raises_only(body: list) -> bool:
    """The block only raises (a docstring-free `raise ...`, perhaps after a print)."""
    stmts = [st for st in body if not (type(st) is ast.Expr and type(st.value) is ast.Call)]
    return len(stmts) == 1 and type(stmts[0]) is ast.Raise


def _cuda_tensor_test(test):
    """The node of a test that a tensor is on CUDA: `x.is_cuda`, `x.device.type == "cuda"` (and the receiver x), also
    as a part of an `and` (`torch.is_tensor(x) and x.is_cuda`)."""
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        for part in test.values:
            at, receiver = _cuda_tensor_test(part)
            if at is not None:
                return at, receiver
        return None, None
    if type(test) is ast.Attribute and test.attr == "is_cuda":
        return test, test.value
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.Eq \
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value == "cuda" \
            and type(test.left) is ast.Attribute and test.left.attr == "type" \
            and type(test.left.value) is ast.Attribute and test.left.value.attr == "device":
        return test, test.left.value.value
    return None, None


def _host_copy_of(value, receiver: str) -> bool:
    """`x.cpu()`, `x.detach().cpu()`, `x.to("cpu")` for the receiver written `receiver`."""
    node = value
    seen_host = False
    while type(node) is ast.Call and type(node.func) is ast.Attribute:
        f = node.func
        if f.attr == "cpu" or (f.attr == "to" and node.args and type(node.args[0]) is ast.Constant
                                     and node.args[0].value == "cpu"):
            seen_host = True
        node = f.value
    return seen_host and ast.unparse(node) == receiver


def _cuda_only_host_copy(node: ast.If):
    """The test of `if x.is_cuda: x = x.cpu()` (or `x.device.type == "cuda"`, `x.detach().cpu()`, `.to("cpu")`)
    with no `else`: a copy to the host made only for a CUDA tensor, so a tensor on another accelerator reaches the
    host-only code after it (`.numpy()`, `np.asarray(x)`) still on the device."""
    if node.orelse:
        return None
    at, receiver = _cuda_tensor_test(node.test)
    if at is None:
        return None
    want = ast.unparse(receiver)
    for st in node.body:
        if type(st) is ast.Assign and len(st.targets) == 1 and ast.unparse(st.targets[0]) == want \
                and _host_copy_of(st.value, want):
            return at
    return None


def _refusal_test(node: ast.If):
    """The test a block that only refuses to go on (`raise ...`, `parser.error(...)`, `sys.exit(...)`) asserts, written
    as `assert` would take it: `if device.type != "cuda": raise ...` asserts `device.type == "cuda"`; `if a != "x" or
    b: raise` asserts `a == "x"` (and more). None for any other block."""
    if node.orelse or not (_raises_only(node.body) or _exits_only(node.body)):
        return None
    return _negated(node.test)


_EXIT_CALLS = frozenset({"sys.exit", "exit", "quit", "os._exit"})


def _exits_only(body: list) -> bool:
    """The block is one call that ends the program: `sys.exit(...)`, or an argument parser's `error(...)`
    (`parser.error`, `ap.error`; a logger's `error` only logs and the program goes on)."""
    if len(body) != 1 or type(body[0]) is not ast.Expr or type(body[0].value) is not ast.Call:
        return False
    f = body[0].value.func
    name = f.id if type(f) is ast.Name else (
        f"{f.value.id}.{f.attr}" if type(f) is ast.Attribute and type(f.value) is ast.Name else None)
    if name is None:
        return False
    receiver, _, attr = name.rpartition(".")
    return name in _EXIT_CALLS or (attr == "error" and ("parser" in receiver.lower() or receiver == "ap"))


def _negated(test):
    """`test` negated where that is plain (`!=` -> `==`, `not in` -> `in`, `not x` -> `x`, an `or` of such parts ->
    their `and`, parts that cannot be negated plainly left out), or None."""
    t = type(test)
    if t is ast.UnaryOp and type(test.op) is ast.Not:
        return test.operand
    if t is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.NotEq, ast.NotIn):
        op = ast.Eq() if type(test.ops[0]) is ast.NotEq else ast.In()
        return ast.Compare(left=test.left, ops=[op], comparators=test.comparators)
    if t is ast.BoolOp and type(test.op) is ast.Or:
        parts = [p for p in map(_negated, test.values) if p is not None]
        return ast.BoolOp(op=ast.And(), values=parts) if parts else None
    return None


def _refuses_off_cuda(node: ast.If):
    """The `.is_cuda` read of `if not x.is_cuda: raise ...` (or `x.is_cuda == False`, `x.is_cuda is False`): a block
    that only raises for a tensor off CUDA, which every tensor on Neuron is. (Asked of every `if` of a file: the
    test's shape is looked at before the block.)"""
    t = node.test
    at = None
    if type(t) is ast.UnaryOp and type(t.op) is ast.Not:
        at = _requires_cuda_tensor(t.operand)
    elif type(t) is ast.Compare and len(t.ops) == 1 and type(t.ops[0]) in (ast.Eq, ast.Is) \
            and type(t.comparators[0]) is ast.Constant and t.comparators[0].value is False \
            and type(t.left) is ast.Attribute and t.left.attr == "is_cuda":
        at = t.left
    return at if at is not None and _raises_only(node.body) else None
