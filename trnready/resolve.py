"""Name resolution and constant propagation over the scopes `index.py` built.

`qualname` answers "which library object does this expression name?"
(``F.interpolate`` -> ``torch.nn.functional.interpolate``); `values` answers
"which literal values can this argument hold?" (``mode=MODE`` with
``MODE = "bilinear"`` -> ``("bilinear",)``), keeping the node each value came
from so a finding can point at the literal itself.
"""
from __future__ import annotations

import ast
import fnmatch
import re

from .index import _BASE_SUBMODULES, CONTAINER_TAILS, Binding, Scope, _is_super_call, _tail
from .values import UNKNOWN, Drawn, QName

_MAX_DEPTH = 12

_INT_OPS = {ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.Mult: lambda a, b: a * b,
            ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b}
FOLLOWED_KINDS = frozenset({"expr", "call", "local", "instance"})
# Host random draws of an integer: whether the upper bound (the second argument, or the only one) is exclusive;
# None for a count of bits. The draw can be as large as that bound (a seed from random.randint(0, sys.maxsize)).
_DRAWS = {"random.randint": False, "random.randrange": True, "numpy.random.randint": True,
          "random.getrandbits": None}
# Integer constants of the standard library that bound such draws.
_INT_CONSTANTS = {"sys.maxsize": (1 << 63) - 1}


def env_default(call: ast.Call):
    """The default expression of os.environ.get("X", d) / os.getenv("X", d) (also after .lower() & co), and the
    string default of a mapping read by a string key (`cfg.get("backend", "nccl")`) or of an object's attribute read
    by its name (`getattr(opts, "ddp.backend", "nccl")`)."""
    while (type(call.func) is ast.Attribute and call.func.attr in ("lower", "upper", "strip") and not call.args
           and type(call.func.value) is ast.Call):
        call = call.func.value
    func = call.func
    if len(call.args) == 3:
        return getattr_default(call)
    if len(call.args) != 2:
        return None
    if type(func) is ast.Attribute and func.attr == "get" and _tail(func.value) == "environ":
        return call.args[1]
    if type(func) is ast.Attribute and func.attr == "get" and _str_literal(call.args[0]) and _str_literal(call.args[1]):
        # a settings mapping read with a written default (`override_config.get("attn_implementation",
        # "flash_attention_2")`): the default is what runs unless the settings name the key, as for the environment
        return call.args[1]
    if _tail(func) == "getenv":
        return call.args[1]
    return None


def getattr_default(call: ast.Call):
    """The string default of `getattr(opts, "ddp.backend", "nccl")`: an options object read by a string name with a
    written default, which runs whenever the options do not set that name (as `cfg.get("backend", "nccl")` does)."""
    if (type(call.func) is ast.Name and call.func.id == "getattr" and len(call.args) == 3 and not call.keywords
            and _str_literal(call.args[1]) and _str_literal(call.args[2])):
        return call.args[2]
    return None


def _str_literal(node: ast.expr) -> bool:
    return type(node) is ast.Constant and type(node.value) is str


def _field_default(call: ast.Call):
    """The `default=` of dataclasses.field(...) / pydantic's Field(...) (not default_factory: a call at run time)."""
    func = call.func
    name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None
    if name not in ("field", "Field"):
        return None
    return next((k.value for k in call.keywords if k.arg == "default"), None)


def formatted_literal(call) -> bool:
    """`"cuda:{}".format(rank)`: a string literal's format call, whose value is read like an f-string's."""
    return type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "format" \
        and type(call.func.value) is ast.Constant and type(call.func.value.value) is str


def _followed(b: Binding) -> bool:
    return b.kind == "expr" or (b.kind == "call" and (env_default(b.value) is not None or formatted_literal(b.value)
                                                      or chosen_literals(b.value) is not None))


# path joins a value can be built with under another name (`from os.path import join as pjoin`)
_PATH_JOINS = frozenset({"os.path.join", "posixpath.join"})
# `random.choice(["area", "bilinear", "bicubic"])`: a host draw of one element of a literal list
_CHOICES = frozenset({"random.choice", "np.random.choice", "numpy.random.choice"})


def chosen_literals(call) -> list | None:
    """The elements of the literal list or tuple a `random.choice` call draws from (any of them is possible), else
    None. Only literal elements: a list of names or calls stays unknown."""
    if type(call) is not ast.Call or len(call.args) != 1 or call.keywords:
        return None
    func = call.func
    parts = []
    while type(func) is ast.Attribute:
        parts.append(func.attr)
        func = func.value
    if type(func) is not ast.Name or ".".join([func.id, *reversed(parts)]) not in _CHOICES:
        return None
    seq = call.args[0]
    if type(seq) not in (ast.List, ast.Tuple) or not seq.elts or not all(type(e) is ast.Constant for e in seq.elts):
        return None
    return list(seq.elts)


def filled_parameter(bindings: list, scope: Scope | None) -> bool:
    """One parameter of `scope` and, beside it, only assignments in arms of an `if` of that function (`if backend
    is None: backend = "nccl"`): the shape of a parameter the function fills in when the caller passes none."""
    params = [b for b in bindings if b.kind == "param"]
    rest = [b for b in bindings if b.kind != "param"]
    return len(params) == 1 and bool(rest) and params[0].scope is scope and all(
        b.kind in ("expr", "call") and b.branch and b.scope is scope for b in rest)


def overwritten_parameter(bindings: list, scope: Scope | None, use: ast.expr) -> bool:
    """One parameter of `scope` and assignments in that function only, one of them outside every `if` and before
    `use` (`def init(backend="nccl"):` then `backend = "nccl"` / `if cuda: ... else: backend = "gloo"`): the
    parameter's value never reaches `use`."""
    if sum(b.kind == "param" for b in bindings) != 1 or not all(
            b.kind == "param" or (b.kind in ("expr", "call") and b.scope is scope) for b in bindings):
        return False
    here = (use.lineno, use.col_offset)
    return any(b.kind != "param" and b.branch == () and (_position(b) or here) < here for b in bindings)


def _position(b: Binding):
    v = b.value
    return (v.lineno, v.col_offset) if isinstance(v, ast.AST) and hasattr(v, "lineno") else None


def _reaching(bindings: list, use: ast.expr, scope: Scope) -> list:
    """The assignments of one name that may hold its value at `use`.

    In the use's own scope an assignment written after the use does not reach it. An assignment is
    overridden by a later one in the same if/else arm or in an arm enclosing it (`x = "a"` then
    `x = "b"`), and by a later one whose arms all hold the use (`x = "a"`, then inside `if flip:` both
    `x = "b"` and the use: there only "b" reaches); assignments in different arms of an if/else are
    alternatives and all reach."""
    here = (use.lineno, use.col_offset)
    cands = []
    for b in bindings:
        pos = _position(b)
        if b.scope is scope and pos is not None and pos >= here:
            continue
        cands.append(b)
    live = []
    for i, b in enumerate(cands):
        if any(later.branch is not None and b.branch is not None
               and (b.branch[:len(later.branch)] == later.branch or _on_the_way(b, later, use.lineno))
               for later in cands[i + 1:]):
            continue
        live.append(b)
    return live


def _on_the_way(b, later, line: int) -> bool:
    """`later` is written after `b` in arms that all hold the use's line: every path to the use runs it."""
    if not later.branch or later.scope is not b.scope:
        return False
    pb, pl = _position(b), _position(later)
    return pb is not None and pl is not None and pl > pb and all(a[2] <= line <= a[3] for a in later.branch)


_TO_NUMPY = frozenset({"numpy", "to_numpy"})
LIST = object()  # marks "a list/tuple was passed" so is-not-none sees it


def _availability_pattern(packages) -> re.Pattern | None:
    """is_flash_attn_2_available(), is_xformers_available(), _is_triton_available for the listed packages."""
    if not packages:
        return None
    alts = "|".join(re.escape(p) for p in packages)
    return re.compile(rf"^_?(is_)?({alts})\w*_(available|installed)$")


def _cuda_library_available(test: ast.expr, pattern: re.Pattern | None) -> bool:
    """A test that a CUDA-only package (catalogue [context.values] cuda-only-packages) is present."""
    if pattern is None:
        return False
    if type(test) is ast.Call:
        test = test.func
    name = test.attr if type(test) is ast.Attribute else test.id if type(test) is ast.Name else ""
    return bool(pattern.match(name))


def _old_torch_fallback(test: ast.expr) -> bool:
    """hasattr(torch, "accelerator"): true on every PyTorch that TorchNeuron supports (2.13+)."""
    return (type(test) is ast.Call and type(test.func) is ast.Name and test.func.id == "hasattr"
            and len(test.args) == 2 and type(test.args[1]) is ast.Constant and test.args[1].value == "accelerator")


class IndexMakers(frozenset):
    """The names of `index-making-calls`: a callee's last name is one when it is listed or matches a listed glob
    (`*_nms`, `nms_*`: a project's own NMS wrappers and aliases, `keep = _box_nms(boxes, scores, t)`, `nms_func =
    nms_normal_bev`, return the kept boxes' positions as torchvision's `nms` does)."""

    globs: tuple

    def __new__(cls, names=()):
        self = super().__new__(cls, names)
        self.globs = tuple(n for n in self if any(ch in n for ch in "*?["))
        return self

    def __contains__(self, name) -> bool:
        if frozenset.__contains__(self, name):
            return True
        return isinstance(name, str) and any(fnmatch.fnmatchcase(name, g) for g in self.globs)


class Resolver:
    def __init__(self, aliases: dict[str, str] | None = None, cuda_only_packages=(), star_names=None,
                 index_makers=()):
        # Longest prefix first so "torch.cuda.amp" wins over "torch.cuda".
        self.aliases = sorted((aliases or {}).items(), key=lambda kv: -len(kv[0]))
        # conventional import names (`torch`, `F`, `nn`) a star import of a project module brings with it
        self.star_names = dict(star_names or {})
        self._canonical: dict[str, str] = {}
        self._cuda_only = _availability_pattern(cuda_only_packages)
        self.factories: dict = {}  # one file's helpers (function name -> [(returned expr, Scope)]); see for_file
        # calls whose result is integer positions, never a boolean mask ([context.values] index-making-calls)
        self.index_makers = IndexMakers(index_makers)
        # builtins a catalogue matcher names (`builtins.xrange`): an unbound name of this set means the builtin
        self.builtins: frozenset = frozenset()

    def for_file(self, factories: dict) -> "Resolver":
        """A view for one file: its own helper table, the shared alias table and name cache."""
        view = object.__new__(Resolver)
        view.aliases, view._canonical, view._cuda_only = self.aliases, self._canonical, self._cuda_only
        view.star_names, view.index_makers, view.builtins = self.star_names, self.index_makers, self.builtins
        view.factories = factories
        return view

    def canonical(self, name: str) -> str:
        done = self._canonical.get(name)
        if done is None:
            done = self._canonical[name] = self._canonicalise(name)
        return done

    def _canonicalise(self, name: str) -> str:
        # Applied until nothing changes (bounded), so chained aliases compose:
        # torch.quantization.observer.X -> torch.ao.quantization.observer.X -> torch.ao.quantization.X
        for _ in range(4):
            for old, new in self.aliases:
                if name == old or name.startswith(old + "."):
                    name = new + name[len(old):]
                    break
            else:
                return name
        return name

    # -- scopes ------------------------------------------------------------
    @staticmethod
    def lookup(scope: Scope, name: str) -> list[Binding] | None:
        s = scope
        start = True
        while s is not None:
            if name in s.globals:
                s = s.module()
                return s.bindings.get(name)
            if s.kind == "class" and not start:
                s = s.parent
                continue
            found = s.bindings.get(name)
            if found is not None:
                return found
            start = False
            s = s.parent
        return None

    # -- qualified names ---------------------------------------------------
    def qualnames(self, expr: ast.expr, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """Every dotted library path the expression may name (usually one)."""
        if depth > _MAX_DEPTH:
            return ()
        t = type(expr)
        if t is ast.Attribute:
            base = expr.value
            if type(base) is ast.Name and scope.cls is not None and base.id == scope.self_name:
                # `self.torch = torch` in __init__ (a module kept on the instance by a lazy import), then
                # `self.torch.nn.functional.interpolate(...)` in forward
                return self._self_alias(expr, scope, depth)
            return tuple(f"{base}.{expr.attr}" for base in self.qualnames(base, scope, depth + 1))
        if t is ast.Name:
            return self._name_qualnames(expr.id, scope, depth)
        return ()

    def _self_alias(self, expr: ast.Attribute, scope: Scope, depth: int) -> tuple[str, ...]:
        """The library path `self.<attr>` names when every assignment of the attribute in the class binds an imported
        name (`self.torch = torch` after `import torch`, `self.F = F`); () otherwise. A value read from a module
        (`self._dtype = torch.float64`) stays the value written there: its reads are not new uses of the API."""
        bindings = scope.cls.self_attrs.get(expr.attr)
        if not bindings or any(b.kind != "expr" or type(b.value) is not ast.Name for b in bindings):
            return ()
        out: list = []
        for b in bindings:
            named = self.lookup(b.scope, b.value.id)
            if not named or any(n.kind != "import" for n in named):
                return ()
            got = self.qualnames(b.value, b.scope, depth + 1)
            if not got:
                return ()
            out.extend(got)
        return tuple(dict.fromkeys(out))

    def _name_qualnames(self, name: str, scope: Scope, depth: int) -> tuple[str, ...]:
        bindings = self.lookup(scope, name)
        if bindings is None:
            stars = scope.module().stars
            if not stars:
                # a name the module never binds is a builtin: named only when a matcher asks for it
                return (f"builtins.{name}",) if name in self.builtins else ()
            # `from nerf.utils import *` then `torch.cuda.amp.autocast(...)`: the star brought the module's own
            # `import torch`; a name the file never binds that is a conventional import name means that library
            known = self.star_names.get(name)
            return ((known,) if known else ()) + tuple(f"{m}.{name}" for m in stars)
        imports = None
        for b in bindings:
            if b.kind == "param":
                return ()  # a parameter shadows whatever the name meant outside
            if b.kind == "import":
                imports = imports or []
                imports.append(b.value)
        if imports:
            # `try: import x except ImportError: x = None` still means the library.
            return tuple(dict.fromkeys(imports))
        if len(bindings) == 1 and bindings[0].kind == "expr":
            b = bindings[0]
            if type(b.value) in (ast.Name, ast.Attribute):
                return self.qualnames(b.value, b.scope, depth + 1)
            if type(b.value) is ast.IfExp:
                return self._picked_against_noop(b.value, b.scope, depth)
        elif len(bindings) > 1 and all(b.kind in ("expr", "local") and b.branch for b in bindings):
            # `if torch.__version__ >= "2.4": op = torch.library.custom_op` / `else: op = noop_custom_op` (a stand-in
            # of the project where the API is missing): the name means the library API, as an optional import does
            # Only one arm names a library API: two APIs (`ShardedGradScaler` / `GradScaler`) stay unknown, as before
            named = [qs for b in bindings if b.kind == "expr" and type(b.value) in (ast.Name, ast.Attribute)
                     for qs in (self.qualnames(b.value, b.scope, depth + 1),) if qs]
            return tuple(dict.fromkeys(named[0])) if len(named) == 1 else ()
        return ()

    def _picked_against_noop(self, pick: ast.IfExp, scope: Scope, depth: int) -> tuple[str, ...]:
        """`precision_scope = autocast if opt.precision == "autocast" else nullcontext`: one arm names a library API,
        the other `contextlib.nullcontext` (a stand-in that does nothing), so a call of the name is a call of the API
        when it does anything at all. Two APIs, or an arm that is neither, stay unknown."""
        arms = []
        for arm in (pick.body, pick.orelse):
            if type(arm) not in (ast.Name, ast.Attribute):
                return ()
            arms.append(self.qualnames(arm, scope, depth + 1))
        named = [qs for qs in arms if qs and "contextlib.nullcontext" not in qs]
        if len(named) != 1 or not any("contextlib.nullcontext" in qs for qs in arms):
            return ()
        return tuple(dict.fromkeys(named[0]))

    def instance_class(self, func: ast.expr, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """If `func` is a variable or self attribute holding an instance, its class names.

        Follows instances built by a helper in the same file (`self.attn = make_attn(d)` where `make_attn`
        returns `nn.MultiheadAttention(...)`), elements of module containers (`self.layers[0]`, `for layer in
        self.layers` over `nn.ModuleList([...])`) and loop variables over them."""
        if depth > _MAX_DEPTH:
            return ()
        if type(func) is ast.Subscript:
            return self.element_class(func.value, scope, depth + 1)
        if _is_super_call(func):
            # `super().forward(x, x, x, attn_mask=m)` in a subclass of nn.MultiheadAttention is that module's call
            cls = scope.cls
            return tuple(q for b in cls.bases for q in self.qualnames(b, cls.parent)) if cls is not None else ()
        bindings = self._holder_bindings(func, scope)
        if not bindings:
            return self._inherited_submodule(func, scope)
        out: list[str] = []
        for b in bindings:
            if b.kind == "instance":
                out.extend(self.qualnames(b.value, b.scope))
            elif b.kind == "call":
                out.extend(self.factory_class(b.value, b.scope, depth + 1))
            elif b.kind == "elem":
                out.extend(self.element_class(b.value, b.scope, depth + 1))
            elif b.kind == "param":
                return ()
        return tuple(dict.fromkeys(out))

    def _inherited_submodule(self, expr: ast.expr, scope: Scope) -> tuple[str, ...]:
        """`self.self_attn` in a subclass of nn.TransformerEncoderLayer that never assigns it: the submodule the
        torch base class's constructor made (`_BASE_SUBMODULES`)."""
        cls = scope.cls
        if cls is None or type(expr) is not ast.Attribute or type(expr.value) is not ast.Name \
                or expr.value.id != scope.self_name:
            return ()
        out: list[str] = []
        for b in cls.bases:
            for q in self.qualnames(b, cls.parent):
                made = _BASE_SUBMODULES.get(self.canonical(q), {}).get(expr.attr)
                if made:
                    out.append(made)
        return tuple(dict.fromkeys(out))

    def _holder_bindings(self, expr: ast.expr, scope: Scope):
        t = type(expr)
        if t is ast.Name:
            return self.lookup(scope, expr.id)
        if t is ast.Attribute and type(expr.value) is ast.Name and scope.cls is not None \
                and expr.value.id == scope.self_name:
            return scope.cls.self_attrs.get(expr.attr)
        return None

    def factory_class(self, call: ast.Call, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """Classes of the module a call hands back: a helper of this file that returns `X(...)`, or nothing."""
        if depth > _MAX_DEPTH or type(call) is not ast.Call:
            return ()
        func = call.func
        if type(func) is ast.Name:
            name = func.id
            bindings = self.lookup(scope, name)
            if bindings and any(b.kind in ("import", "param") for b in bindings):
                return ()
        elif type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id in ("self", "cls"):
            name = func.attr
        else:
            return ()
        returned = self.factories.get(name) if self.factories else None
        if not returned:
            return ()
        out: list[str] = []
        for expr, fscope in returned:
            if type(expr) is ast.Call:
                names = self.qualnames(expr.func, fscope)
                out.extend(names or self.factory_class(expr, fscope, depth + 1))
            else:
                out.extend(self.instance_class(expr, fscope, depth + 1))
        return tuple(dict.fromkeys(out))

    def element_class(self, container: ast.expr, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """Classes of the modules held by a container (`nn.ModuleList([...])`, `[X() for _ in ...]`)."""
        if depth > _MAX_DEPTH:
            return ()
        if type(container) is ast.Call and type(container.func) is ast.Attribute \
                and container.func.attr in ("values", "children", "modules") and not container.args:
            container = container.func.value
        bindings = self._holder_bindings(container, scope)
        if not bindings:
            return ()
        out: list[str] = []
        for b in bindings:
            if b.kind == "param":
                return ()
            if b.kind in ("call", "seq", "expr") and b.value is not None:
                out.extend(self._container_elements(b.value, b.scope, depth + 1))
        return tuple(dict.fromkeys(out))

    def _container_elements(self, expr: ast.expr, scope: Scope, depth: int) -> list[str]:
        t = type(expr)
        items: list = []
        if t is ast.Call:
            tail = _tail(expr.func)
            if tail not in CONTAINER_TAILS:
                return []
            for a in expr.args:
                ta = type(a)
                if ta in (ast.List, ast.Tuple):
                    items.extend(a.elts)
                elif ta in (ast.ListComp, ast.GeneratorExp):
                    items.append(a.elt)
                elif ta is ast.Dict:
                    items.extend(a.values)
                elif ta is ast.Call:
                    items.append(a)  # nn.Sequential(nn.MultiheadAttention(...), ...)
        elif t in (ast.List, ast.Tuple):
            items = list(expr.elts)
        elif t in (ast.ListComp, ast.GeneratorExp):
            items = [expr.elt]
        out: list[str] = []
        for item in items:
            if type(item) is ast.Call:
                names = self.qualnames(item.func, scope)
                out.extend(names or self.factory_class(item, scope, depth + 1))
        return out

    def origins(self, expr: ast.expr, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """The library calls a value was produced by: `np.zeros(3)[m].T` -> ("numpy.zeros",)."""
        if depth > _MAX_DEPTH:
            return ()
        t = type(expr)
        if t is ast.Call:
            names = self.qualnames(expr.func, scope)
            if names:
                return names
            if type(expr.func) is ast.Attribute:
                if expr.func.attr in _TO_NUMPY:  # t.cpu().numpy() is a NumPy array whatever t was
                    return ("numpy.ndarray",)
                return self.origins(expr.func.value, scope, depth + 1)  # a method chain: np.arange(9).reshape(3, 3)
            return ()
        if t is ast.Subscript:
            return self.origins(expr.value, scope, depth + 1)
        if t is ast.Compare:  # (arr > 0.5) is an array of the same library as arr
            return self.origins(expr.left, scope, depth + 1)
        if t is ast.BinOp:
            return self.origins(expr.left, scope, depth + 1) or self.origins(expr.right, scope, depth + 1)
        if t is ast.UnaryOp:
            return self.origins(expr.operand, scope, depth + 1)
        if t is ast.Attribute:
            names = self.qualnames(expr, scope)
            if names:
                return names
            if type(expr.value) is ast.Name and scope.cls is not None and expr.value.id == scope.self_name:
                # self.labels = np.zeros(n) in __init__, self.labels.nonzero() later
                bindings = scope.cls.self_attrs.get(expr.attr)
                if bindings and all(b.kind in ("call", "expr") and b.value is not None for b in bindings):
                    out: list[str] = []
                    for b in bindings:
                        out.extend(self.origins(b.value, b.scope, depth + 1))
                    return tuple(out)
                return ()
            return self.origins(expr.value, scope, depth + 1)
        if t is ast.Name:
            bindings = self.lookup(scope, expr.id)
            # Only the assignments that reach the use say what it holds: `img = np.float32(a)` then
            # `img = torch.from_numpy(img)` leaves a tensor, not a NumPy array
            if bindings and hasattr(expr, "lineno"):
                bindings = _reaching(bindings, expr, scope) or bindings
            if bindings and all(b.kind in ("call", "expr") for b in bindings):
                out: list[str] = []
                for b in bindings:
                    out.extend(self.origins(b.value, b.scope, depth + 1))
                return tuple(out)
        return ()

    # -- values ------------------------------------------------------------
    def values(self, expr: ast.expr, scope: Scope, depth: int = 0) -> list:
        """Possible values of `expr` as (value, origin node) pairs."""
        if depth > _MAX_DEPTH:
            return [(UNKNOWN, expr)]
        t = type(expr)
        if t is ast.Constant:
            return [(expr.value, expr)]
        if t is ast.Name:
            return self._name_values(expr, scope, depth)
        if t is ast.Attribute:
            names = self.qualnames(expr, scope, depth + 1)
            if names:
                return [(QName(self.canonical(n)), expr) for n in names]
            return self._self_attr_values(expr, scope, depth)
        if t is ast.IfExp:
            echoed = echoed_arm(expr)
            if echoed is not None:
                # `"cuda" if device.type == "cuda" else device.type`: the literal is the tested value itself
                return self.values(echoed, scope, depth + 1)
            if _cuda_library_available(expr.test, self._cuda_only):
                # `"flash_attention_2" if is_flash_attn_2_available() else "sdpa"`: flash-attn is never installed
                # on Trainium, so only the fallback can run there.
                return self.values(expr.orelse, scope, depth + 1)
            if _old_torch_fallback(expr.test):
                # `torch.accelerator...type if hasattr(torch, "accelerator") else "cuda"`: the fallback is for
                # PyTorch releases older than any TorchNeuron build, so it never runs there.
                return self.values(expr.body, scope, depth + 1)
            return self.values(expr.body, scope, depth + 1) + self.values(expr.orelse, scope, depth + 1)
        if t is ast.BoolOp and type(expr.op) is ast.Or:
            # `device or ("cuda" if torch.cuda.is_available() else "cpu")`, `mode or "bilinear"`: the value is one of
            # the operands (the first that is true), so each operand's values are possible
            return [v for operand in expr.values for v in self.values(operand, scope, depth + 1)]
        if t is ast.JoinedStr:
            parts = []
            for v in expr.values:
                parts.append(v.value if type(v) is ast.Constant and isinstance(v.value, str) else "*")
            return [("".join(parts), expr)]
        if t is ast.BinOp and type(expr.op) in _INT_OPS:
            folded = self._int_value(expr, scope, depth)
            if folded is not None:
                return [(folded, expr)]
        if t is ast.BinOp and type(expr.op) is ast.Add:
            left = self.values(expr.left, scope, depth + 1)
            right = self.values(expr.right, scope, depth + 1)
            if any(isinstance(v, str) for v, _ in left + right):
                out = []
                for lv, _ in left:
                    for rv, _ in right:
                        ls = lv if isinstance(lv, str) else "*"
                        rs = rv if isinstance(rv, str) else "*"
                        out.append((ls + rs, expr))
                return out
            return [(UNKNOWN, expr)]
        if t is ast.Subscript and type(expr.value) is ast.Name:
            # MODES[key] with MODES = {Image.BILINEAR: "bilinear", ...}: any of the table's values
            table = self.lookup(scope, expr.value.id)
            if table and len(table) == 1 and table[0].kind == "expr" and type(table[0].value) is ast.Dict:
                out = []
                for v in table[0].value.values:
                    out.extend(self.values(v, table[0].scope, depth + 1))
                return out + [(UNKNOWN, expr)]
        if t in (ast.List, ast.Tuple, ast.Set):
            out = [(LIST, expr)]
            for elt in expr.elts:
                out.extend(self.values(elt, scope, depth + 1))
            return out
        if (t is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr == "format"
                and type(expr.func.value) is ast.Constant and type(expr.func.value.value) is str):
            # "cuda:{}".format(rank) -> "cuda:*", like an f-string
            return [(re.sub(r"\{[^{}]*\}", "*", expr.func.value.value), expr)]
        if (t is ast.Call and expr.args and type(expr.args[-1]) is ast.Constant
                and type(expr.args[-1].value) is str and type(expr.func) in (ast.Attribute, ast.Name)
                and ((expr.func.attr if type(expr.func) is ast.Attribute else expr.func.id) == "join"
                     or (type(expr.func) is ast.Name and any(q in _PATH_JOINS for q in
                                                             self.qualnames(expr.func, scope, depth + 1))))):
            # (also `from os.path import join as pjoin`: PreciseRoIPooling's loader)
            # os.path.join(root, "kernel.cu") -> "*/kernel.cu": the file name is what rules look at
            return [("*/" + expr.args[-1].value, expr)]
        if (t is ast.BinOp and type(expr.op) is ast.Div and type(expr.right) is ast.Constant
                and type(expr.right.value) is str):
            # Path(__file__).parent / "kernel.cu" -> "*/kernel.cu"
            return [("*/" + expr.right.value, expr)]
        if (t is ast.BinOp and type(expr.op) is ast.Mod and type(expr.left) is ast.Constant
                and type(expr.left.value) is str):
            # "cuda:%d" % rank -> "cuda:*"
            return [(re.sub(r"%[-#0 +]*\d*(\.\d+)?[sdifr]", "*", expr.left.value), expr)]
        if t is ast.Call and (chosen := chosen_literals(expr)) is not None:
            # mode = random.choice(["area", "bilinear", "bicubic"]): each element is a value the call can take
            return [(e.value, e) for e in chosen]
        if t is ast.Call and _field_default(expr) is not None:
            # a dataclass field `load_in_4bit: bool = field(default=True)`: the constructor's default
            return self.values(_field_default(expr), scope, depth + 1)
        if t is ast.Call and env_default(expr) is not None:
            # os.environ.get("TORCH_COMPILE_BACKEND", "inductor"): the default when the variable is unset
            return self.values(env_default(expr), scope, depth + 1) + [(UNKNOWN, expr)]
        if t is ast.Call and expr.args and not expr.keywords and type(expr.func) in (ast.Attribute, ast.Name):
            drawn = self._drawn(expr, scope, depth)
            if drawn is not None:
                return [(drawn, expr)]
        if t is ast.UnaryOp and type(expr.op) is ast.USub and type(expr.operand) is ast.Constant:
            v = expr.operand.value
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return [(-v, expr)]
        return [(UNKNOWN, expr)]

    def _self_attr_values(self, expr: ast.Attribute, scope: Scope, depth: int) -> list:
        """`self.mode` inside a method: the values of every `self.mode = <simple expr>` in the class.

        Any other kind of assignment to the attribute (a call result, a tuple target, an augmented
        assignment) makes it unknown, and so does an attribute never assigned in the class body
        (it may come from a base class or from outside)."""
        base = expr.value
        if type(base) is not ast.Name or scope.cls is None or base.id != scope.self_name:
            return [(UNKNOWN, expr)]
        bindings = list(scope.cls.self_attrs.get(expr.attr, ()))
        # A class attribute (`DEVICE = "cuda"` in the class body) is what self.DEVICE reads unless reassigned.
        bindings += scope.cls.bindings.get(expr.attr, ())
        if not bindings or any(b.kind != "expr" for b in bindings):
            return [(UNKNOWN, expr)]
        out = []
        for b in bindings:
            out.extend(self.values(b.value, b.scope, depth + 1))
        return out

    def _name_values(self, expr: ast.Name, scope: Scope, depth: int) -> list:
        bindings = self.lookup(scope, expr.id)
        if bindings is None:
            names = self._name_qualnames(expr.id, scope, depth)
            return [(QName(self.canonical(n)), expr) for n in names] or [(UNKNOWN, expr)]
        if len(bindings) == 1:
            b = bindings[0]
            if _followed(b):  # (a variable holding `"cuda:{}".format(rank)` too: `loc = ...; map_location=loc`)
                return self.values(b.value, b.scope, depth + 1)
            if b.kind == "call" and type(b.value) is ast.Call:
                drawn = self._drawn(b.value, b.scope, depth + 1)  # seed = random.randint(0, sys.maxsize)
                if drawn is not None:
                    return [(drawn, b.value)]
            if b.kind == "param":
                # Callers may pass anything; the literal default is one of the values
                # (so `def f(x, mode="bilinear")` still counts as bilinear).
                default, outer = b.value
                if default is not None:
                    return self.values(default, outer, depth + 1) + [(UNKNOWN, expr)]
                return [(UNKNOWN, expr)]
        if all(b.kind in FOLLOWED_KINDS and b.branch is not None for b in bindings):
            # several assignments: the ones that can reach this use are the possible values
            live = _reaching(bindings, expr, scope)
            if any(_followed(b) for b in live):
                out = []
                for b in live:
                    if _followed(b):
                        out.extend(self.values(b.value, b.scope, depth + 1))
                    else:
                        out.append((UNKNOWN, expr))
                return out
        drawn = self._drawn_assignments(bindings, expr, scope, depth)
        if drawn:
            return drawn
        overwritten = self._overwritten_parameter(bindings, expr, scope, depth)
        if overwritten:
            return overwritten
        filled = self._filled_parameter(bindings, expr, scope, depth)
        if filled:
            return filled
        names = self._name_qualnames(expr.id, scope, depth)
        if names:
            return [(QName(self.canonical(n)), expr) for n in names]
        return [(UNKNOWN, expr)]

    def _filled_parameter(self, bindings: list, expr: ast.Name, scope: Scope, depth: int) -> list:
        """A parameter the function fills in when the caller passes none (`def init(backend=None):` then `if
        backend is None: backend = "nccl"`, or a value per accelerator in the arms of an `if`): the values assigned
        in the arms that reach the use, beside the parameter's own (its literal default and the caller's, unknown),
        as a literal default counts. Only one parameter and assignments in arms of its own function: anything else
        (a loop variable, an unconditional reassignment, a name of an enclosing scope) stays unknown."""
        if not filled_parameter(bindings, scope):
            return []
        params = [b for b in bindings if b.kind == "param"]
        live = _reaching([b for b in bindings if b.kind != "param"], expr, scope)
        if not live or not all(_followed(b) for b in live):
            return []
        out = [v for b in live for v in self.values(b.value, b.scope, depth + 1)]
        default, outer = params[0].value
        if default is not None:
            out += self.values(default, outer, depth + 1)
        return out + [(UNKNOWN, expr)]

    def _overwritten_parameter(self, bindings: list, expr: ast.Name, scope: Scope, depth: int) -> list:
        """A parameter the function assigns outside every `if` before this use (`def init(backend="nccl"):` then
        `backend = "nccl"` / `if cuda: ... else: backend = "gloo"`): neither its default nor the caller's value
        reaches the use, only the assignments do. Assignments in the function's own scope only, each followed."""
        if not overwritten_parameter(bindings, scope, expr):
            return []
        live = _reaching([b for b in bindings if b.kind != "param"], expr, scope)
        if not live or not all(_followed(b) for b in live):
            return []
        return [v for b in live for v in self.values(b.value, b.scope, depth + 1)]

    def _drawn_assignments(self, bindings: list, expr: ast.Name, scope: Scope, depth: int) -> list:
        """A parameter reassigned from a host random draw when the caller passed none (`seed = seed if seed >= 0
        else random.randint(0, sys.maxsize)`, `if seed is None: seed = random.randint(...)`): the draws that
        reach the use, with the caller's value unknown. Other values of such a name stay unknown."""
        if not any(b.kind == "param" for b in bindings) or not all(
                b.kind == "param" or (b.kind in FOLLOWED_KINDS and b.branch is not None) for b in bindings):
            return []
        live = _reaching([b for b in bindings if b.kind != "param"], expr, scope)
        out = [(v, o) for b in live if b.kind in ("expr", "call") and b.scope is scope
               for v, o in self.values(b.value, b.scope, depth + 1) if type(v) is Drawn]
        return out + [(UNKNOWN, expr)] if out else []

    def _drawn(self, call: ast.Call, scope: Scope, depth: int):
        """`random.randint(0, sys.maxsize)`, `random.randrange(2**32)`, `random.getrandbits(64)`: a Drawn value
        up to the bound, when the bound is one known integer; else None."""
        names = [self.canonical(n) for n in self.qualnames(call.func, scope, depth + 1)]
        known = [n for n in names if n in _DRAWS]
        if not known or any(type(a) is ast.Starred for a in call.args):
            return None
        exclusive = _DRAWS[known[0]]
        bound = self.values(call.args[min(1, len(call.args) - 1)], scope, depth + 1)
        if len(bound) != 1:
            return None
        high = bound[0][0]
        if isinstance(high, QName):
            high = _INT_CONSTANTS.get(str(high))
        if type(high) is not int:
            return None
        if exclusive is None:  # getrandbits(k): below 2**k
            return Drawn((1 << high) - 1) if 0 <= high <= 512 else None
        return Drawn(high - 1 if exclusive else high)

    def _int_value(self, expr: ast.BinOp, scope: Scope, depth: int):
        """2**40, 1 << 33, 4 * 2**30 + 1: the integer, when both operands are single known ints (bounded)."""
        left = self.values(expr.left, scope, depth + 1)
        right = self.values(expr.right, scope, depth + 1)
        if len(left) != 1 or len(right) != 1:
            return None
        a, b = left[0][0], right[0][0]
        if type(a) is not int or type(b) is not int:
            return None
        op = type(expr.op)
        if op in (ast.Pow, ast.LShift) and not 0 <= b <= 256:
            return None  # never build huge numbers from hostile input
        value = _INT_OPS[op](a, b)
        return value if abs(value) < 1 << 512 else None

    def starred_dict(self, expr: ast.expr, scope: Scope, depth: int = 0):
        """The literal dict behind `**options`: {key: (value expr, scope)} and whether that is all of it.

        Followed: a name bound once to a dict display, `dict(k=v)`, `getattr(obj, "name", {...})`
        (whose default is one possibility, so not complete) and a conditional expression of two such dicts.
        None when the keys are not all known."""
        if depth > 2:
            return None
        t = type(expr)
        if t is ast.Name:
            bindings = self.lookup(scope, expr.id)
            if bindings and len(bindings) == 1 and bindings[0].kind in ("expr", "call"):
                return self.starred_dict(bindings[0].value, bindings[0].scope, depth + 1)
            return None
        if t is ast.Dict:
            if not all(type(k) is ast.Constant and type(k.value) is str for k in expr.keys):
                return None  # `**other` inside the display, or computed keys
            return {k.value: (v, scope) for k, v in zip(expr.keys, expr.values)}, True
        if t is ast.Call and type(expr.func) is ast.Name:
            if expr.func.id == "dict" and not expr.args and all(k.arg for k in expr.keywords):
                return {k.arg: (k.value, scope) for k in expr.keywords}, True
            if expr.func.id == "getattr" and len(expr.args) == 3 and not expr.keywords:
                found = self.starred_dict(expr.args[2], scope, depth + 1)
                return (found[0], False) if found else None
        if t is ast.IfExp:
            # `**({"warmup_steps": n} if new_api else {"warmup_ratio": r})`: the keys of either arm. A key both arms
            # pass holds either value (a conditional expression of the two); a key only one arm passes is read as
            # passed with that arm's value (the program takes that arm on some runs), so a key neither arm names
            # is still known to be absent
            body = self.starred_dict(expr.body, scope, depth + 1)
            other = self.starred_dict(expr.orelse, scope, depth + 1)
            if body is None or other is None:
                return None
            entries = dict(other[0])
            for k, (v, where) in body[0].items():
                if k in entries and entries[k][1] is where:
                    both = ast.IfExp(test=expr.test, body=v, orelse=entries[k][0])
                    entries[k] = (ast.copy_location(both, v), where)
                else:
                    entries[k] = (v, where)
            return entries, body[1] and other[1]
        return None


def echoed_arm(pick: ast.IfExp):
    """The other arm of `"cuda" if device.type == "cuda" else device.type` (or of `device.type if device.type !=
    "cuda" else "cuda"`), when the literal arm is taken only when the tested expression already equals it: the whole
    expression is that arm's value on every device. None for any other conditional expression."""
    t = pick.test
    if type(t) is not ast.Compare or len(t.ops) != 1:
        return None
    op, left, right = type(t.ops[0]), t.left, t.comparators[0]
    if type(left) is ast.Constant:
        left, right = right, left
    if type(right) is not ast.Constant or not isinstance(right.value, str):
        return None
    if op is ast.Eq:
        taken, other = pick.body, pick.orelse
    elif op is ast.NotEq:
        taken, other = pick.orelse, pick.body
    else:
        return None
    if type(taken) is ast.Constant and taken.value == right.value and ast.dump(other) == ast.dump(left):
        return other
    return None
