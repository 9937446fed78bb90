"""neuron-guarded: code that runs only when a condition is false on a Neuron machine."""
from __future__ import annotations

import ast
import re
from collections.abc import Callable

from ..scope import classify
from ._test_skips import (SkipNames, calls_base_method, helper_spans, runs_as_tests, skip_condition_imports,
                          skip_names, skipped_classes, uncalled_main, unrun_module_imports)
from ._test_switches import is_method, off_value, passed, switch_params, unknown
from ._xla_flags import absent_packages, xla_switch_words
from ._cuda_derived import (count_key, cuda_build_probe, device_count_bounds, off_keys, pinned_cuda_devices,
                            query_fallbacks, unreached_flag_assigns)
from .check_without_placement import _asks_for_several_devices
from .host_built_value import _FACTORIES, _moved_to_host
from .base import FileContext, blocks_of, dotted, enclosing_function, expressions, predicate, value_bound_once
from ..astwalk import statements as _statements_below, walk
from ..index import DEVICE_TYPE_NAMES
from ..device_picks import chooses_device, falls_back_to_host

# is_torch_xla_available(), is_xla_installed(), is_torch_tpu_available(), _XLA_AVAILABLE, has_xla_support: TPU
# paths (torch_xla is not installed with TorchNeuron).
_TPU_CHECK = re.compile(r"^_?(is_|has_)?(torch_)?(xla|tpu)\w*_(available|installed|support|supported)$", re.I)
# A name holding the word "tpu" (`args.tpu`, `self.tpu`, `use_tpu`, `cfg.common.tpu`, `TPU_AVAILABLE`): a TPU
# switch, false on a Trainium host. Split on underscores and camel case. The catalogue widens the words to every
# accelerator a Trainium host never has ([context.values] other-accelerator-words: `use_ipex`, `is_xpu_available()`).
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_TPU = frozenset({"tpu"})


def _has_tpu_word(name: str, words: frozenset = _TPU) -> bool:
    return any(w.lower() in words for part in name.split("_") for w in _WORDS.findall(part))


def _accelerator_check(name: str, words: frozenset) -> bool:
    """`is_ipex_available`, `is_torch_npu_available`, `_HPU_AVAILABLE`: an availability check of an accelerator
    a Trainium host never has (the TPU ones are `_TPU_CHECK`)."""
    parts = [w.lower() for part in name.split("_") for w in _WORDS.findall(part)]
    return len(parts) >= 2 and parts[-1] in ("available", "installed") and any(w in words for w in parts[:-1])


# First words of a call that switches on an accelerator by name: `is_xla()`, `use_tpu()`, `on_mps()`.
_SWITCH_HEADS = frozenset({"is", "use", "using", "on"})


def _accelerator_switch(name: str, words: frozenset) -> bool:
    """`is_xla()`, `is_tpu()`, `use_npu()`: a call asking whether the run uses an accelerator a Trainium host never
    has (a project helper reading its own setting; mmf's `is_xla()` reads the registry)."""
    parts = [w.lower() for part in name.split("_") for w in _WORDS.findall(part)]
    return len(parts) >= 2 and parts[0] in _SWITCH_HEADS and any(w in words for w in parts[1:])


def accelerator_words(values) -> frozenset:
    return frozenset(w.lower() for w in values.get("other-accelerator-words", ())) | _TPU


def _false_constant(e) -> bool:
    return type(e) is ast.Constant and e.value in (False, None, 0, "")


def _tpu_string(e) -> bool:
    """"TPU", or a lookup of a TPU-only environment variable: os.environ.get("TPU_NAME")."""
    if type(e) is ast.Call and e.args:
        e = e.args[0]
    return type(e) is ast.Constant and isinstance(e.value, str) and _has_tpu_word(e.value)


def _self_attr(e) -> str | None:
    """`self.cuda` -> "self.cuda" (an instance flag set in one method and read in another); `args.cuda` ->
    "args.cuda" (an option object's flag set once, `args.cuda = not args.no_cuda and torch.cuda.is_available()`,
    and read in the functions the object is handed to): an attribute of a plain name, keyed by both."""
    if type(e) is ast.Attribute and type(e.value) is ast.Name:
        return e.value.id + "." + e.attr
    return None


# `not TEST_CUDA`, `not HAS_GPU`: project flags saying "CUDA is there", used in skip decorators.
_CUDA_FLAG = re.compile(r"(^|_)(cuda|gpu|gpus)($|_)", re.I)
_SKIP_CALLS = frozenset({"skip", "skipTest", "SkipTest", "xfail"})
_SETUPS = frozenset({"setUp", "setUpClass", "setup_method", "setup_class", "setUpModule"})


def _nccl_name(e) -> bool:
    """`Backend.NCCL`, `torch.distributed.Backend.NCCL`: the NCCL backend by name."""
    return type(e) is ast.Attribute and e.attr == "NCCL" and _tail(e.value) == "Backend"


_TOOLKIT_HOMES = frozenset({"CUDA_HOME", "CUDNN_HOME"})


_CUDA_INDEXED = re.compile(r"cuda:\d+")


def _cuda_string(v) -> bool:
    """A value only a CUDA run has: "cuda", "gpu", "nccl", and a CUDA device with its index ("cuda:0"; AutoAWQ's
    `DEVICE = get_best_device()` then `if DEVICE == "cuda:0": torch.cuda.synchronize()`)."""
    return isinstance(v, str) and (v in ("cuda", "gpu", "nccl") or bool(_CUDA_INDEXED.fullmatch(v)))


_GENERATION_QUERIES = frozenset({"get_device_capability", "get_device_properties"})


def _gpu_generation(e) -> bool:
    """`torch.cuda.get_device_capability()[0]`, `torch.cuda.get_device_properties(0).major`, the query itself: a
    CUDA GPU's generation, asked for a minimum (`>= 9`, `== (9, 0)`). No Neuron machine has one: the query raises
    there (the check is the finding), and the branch for a newer GPU never runs."""
    while type(e) is ast.Subscript or type(e) is ast.Attribute and e.attr in ("major", "minor"):
        e = e.value
    return type(e) is ast.Call and type(e.func) is ast.Attribute and e.func.attr in _GENERATION_QUERIES \
        and _tail(e.func.value) == "cuda"


def _cuda_strings(e) -> bool:
    """A list, tuple or set literal of CUDA values only (`["cuda"]`, `("cuda", "cuda:0")`): membership is False on
    Neuron."""
    return type(e) in (ast.List, ast.Tuple, ast.Set) and bool(e.elts) and all(
        type(x) is ast.Constant and _cuda_string(x.value) for x in e.elts)


def _cuda_device_type(e) -> bool:
    """`torch.device("cuda").type`: the string "cuda", spelled through a literal device (stable-baselines3's
    `device.type == th.device("cuda").type`)."""
    return type(e) is ast.Attribute and e.attr == "type" and type(e.value) is ast.Call \
        and _tail(e.value.func) == "device" and bool(e.value.args) and type(e.value.args[0]) is ast.Constant \
        and e.value.args[0].value == "cuda"


# Members of a project's device enum (or a class of constants) that name CUDA: `TorchDevice.CUDA`, `Device.GPU`.
_CUDA_MEMBERS = frozenset({"CUDA", "GPU"})


def _cuda_member(e) -> bool:
    """`TorchDevice.CUDA`: an upper-case member named CUDA or GPU of a class or module (not of torch itself), the
    project's spelling of the device string "cuda" (`class TorchDevice(str, Enum): CUDA = "cuda"`). A device
    compared with it is the CUDA device only."""
    return type(e) is ast.Attribute and e.attr in _CUDA_MEMBERS and type(e.value) in (ast.Name, ast.Attribute) \
        and not dotted(e.value).startswith("torch")


def _toolkit_variable(left, right) -> bool:
    """`"CUDA_HOME" in os.environ`: the variable is set where a CUDA toolkit is installed, never on Trainium."""
    return type(left) is ast.Constant and left.value in _TOOLKIT_HOMES and _tail(right) == "environ"


def _tail(e) -> str:
    if type(e) is ast.Attribute:
        return e.attr
    if type(e) is ast.Name:
        return e.id
    return ""


class _Conditions:
    """Decides whether a test expression is always false (or always true) on a Neuron machine."""

    def __init__(self, flags: set, backends: frozenset, names: SkipNames | None = None,
                 neuron: SkipNames | None = None):
        self.flags = flags  # names assigned only from never-true-on-Neuron expressions
        # Accelerators a Trainium host never has ([context.values] other-accelerators): torch.<x>.is_available()
        # and torch.<x>.device_count() answer False and 0 there.
        self.backends = backends
        self.names = names
        self.neuron = neuron  # reads Neuron's own availability checks by name, in any module
        self.words: frozenset = _TPU  # names of accelerators a Trainium host never has (set from the catalogue)
        self.none_flags: set = set()  # flags that are None on Neuron (every value None or `x if <check> else None`)
        self.imported: frozenset = frozenset()  # names bound by an import: `TEST_CUDA` from torch's test utils
        # `import torch.cuda as tc`, `from torch import cuda as tc`: names the file binds to one of those backends'
        # modules, so `tc.is_available()` is torch.cuda.is_available() (set per file in _Spans.run)
        self.backend_aliases: frozenset = frozenset()
        # Module names of CUDA-only packages imported optionally (`try: import bitsandbytes as bnb` / `except:
        # bnb = None`): None on a Trainium host, where the package is never installed.
        self.absent: frozenset = frozenset()
        # ids of module-level assignments that follow a CUDA-only package's import in a `try:` body: the import
        # raises on a Trainium host, so they never run there (`HAVE_FLA = True` after `from fla.ops import ...`).
        self.unreached: frozenset = frozenset()
        self.func_defs: dict = {}  # name -> defs of the file's module-level functions (judged by body, not name)
        # name -> the one method of that name the file's classes define, and whether it is a property (`self.x()` /
        # `self.x` is then judged by its body like a module function; a name two classes define is not known)
        self.method_defs: dict = {}
        self.packages: frozenset = frozenset()  # cuda-only-packages (for the version getters of `_min_version`)
        self.version_getters: dict | None = None  # name -> whether it is one (computed on demand)
        self.module_body: list = []  # the module's top statements, where a version getter is looked up
        self.memo: dict = {}
        self._never_funcs: dict = {}  # name -> returns a false value on every Neuron machine (computed on demand)
        # `hasattr(torch._C, "_cuda_...")` -> whether it probes the CUDA build of torch (_cuda_derived.py)
        self.probe: Callable[[ast.Call], bool] | None = None
        self.counts: dict = {}  # `n_gpu` -> the largest value it holds on Neuron (_cuda_derived.device_count_bounds)
        # devices set only to "cuda" or to a bare GPU ordinal (_cuda_derived.pinned_cuda_devices): comparing them
        # with "cuda" asks whether an accelerator is in use, which a Trainium run with one answers True
        self.pinned: frozenset = frozenset()

    def _pinned(self, left, right) -> bool:
        """`device == "cuda"`, `self.device.type == "cuda"` on a device `pinned` holds."""
        if not self.pinned:
            return False
        for o in (left, right):
            if type(o) is ast.Attribute and o.attr == "type":
                o = o.value
            # a local by the comparison's own operand (judged in its function), a `self.` attribute by its key
            if id(o) in self.pinned or (type(o) is ast.Attribute and count_key(o) in self.pinned):
                return True
        return False

    def forget_functions(self) -> None:
        self._never_funcs = {}

    def _never_method(self, name: str) -> bool:
        key = "." + name
        known = self._never_funcs.get(key)
        if known is None:
            self._never_funcs[key] = False  # a method calling itself is not known to return False
            known = self._never_funcs[key] = _returns_false(self.method_defs[name][0], self, self.memo)
        return known

    def _never_func(self, name: str) -> bool:
        known = self._never_funcs.get(name)
        if known is None:
            self._never_funcs[name] = False  # a function calling itself is not known to return False
            known = self._never_funcs[name] = all(_returns_false(d, self, self.memo) for d in self.func_defs[name])
        return known

    def _absent_version(self, e) -> bool:
        """A call of a module function that answers the installed version of a CUDA-only package
        (`get_te_version()`, `get_fa_version()`): see `_version_getter`."""
        if type(e) is not ast.Call or type(e.func) is not ast.Name or not self.packages:
            return False
        if self.version_getters is None:
            self.version_getters = {}
        name = e.func.id
        if name not in self.version_getters:
            defs = [d for d in self.module_body if type(d) is ast.FunctionDef and d.name == name]
            self.version_getters[name] = bool(defs) and all(_version_getter(d, self.packages) for d in defs)
        return self.version_getters[name]

    def _named_check(self, name: str) -> bool:
        return self.names is not None and self.names.check(name)

    def on_neuron(self, t) -> bool:
        """True on every Neuron machine because it asks for Neuron: `is_neuron_available()`,
        `torch.neuron.is_available()`. The other arm of such a test is another machine's code, not a device pick."""
        if type(t) is ast.BoolOp and type(t.op) is ast.Or:
            return any(self.on_neuron(v) for v in t.values)
        if type(t) is not ast.Call:
            return False
        f = t.func
        if type(f) is ast.Attribute and f.attr == "is_available" and _tail(f.value) == "neuron":
            return True
        return self.neuron is not None and self.neuron.neuron_check(_tail(f))

    def _device_count(self, e) -> bool:
        """torch.cuda.device_count(), or a name bound only to such counts (`n_gpu = torch.cuda.device_count()`,
        a flag): 0 on a Neuron machine."""
        if type(e) is ast.Name and e.id in self.flags or _self_attr(e) in self.flags:
            return True
        return type(e) is ast.Call and type(e.func) is ast.Attribute and e.func.attr == "device_count" \
            and self._backend_module(e.func.value)

    def _backend_module(self, e) -> bool:
        """`torch.cuda`, `cuda`, or a name the file binds to such a module by an import alias (`tc`)."""
        return _tail(e) in self.backends or type(e) is ast.Name and e.id in self.backend_aliases

    def never(self, t) -> bool:
        """False on every Neuron machine: torch.cuda.is_available(), x.is_cuda, x.device.type == "cuda", ..."""
        k = type(t)
        if k is ast.BoolOp:
            parts = [self.never(v) for v in t.values]
            return any(parts) if type(t.op) is ast.And else all(parts)
        if k is ast.UnaryOp and type(t.op) is ast.Not:
            return self.always(t.operand)
        if k is ast.IfExp:  # `x if torch.cuda.is_available() else None`: the else value on Neuron
            if self.never(t.test):
                return _false_constant(t.orelse) or self.never(t.orelse)
            return self.always(t.test) and (_false_constant(t.body) or self.never(t.body))
        if k is ast.Call:
            f = t.func
            if type(f) is ast.Name and f.id == "bool" and len(t.args) == 1 and not t.keywords:
                return self.never(t.args[0])  # `use_amp = bool(args.amp and torch.cuda.is_available())`
            if type(f) is ast.Attribute and f.attr == "is_available" and self._backend_module(f.value):
                return True
            if self._device_count(t):
                return True  # `if torch.cuda.device_count():` counts no device on Neuron
            if _tail(f) == "is_autocast_enabled" and type(f) is ast.Attribute and _tail(f.value) == "torch" \
                    and not t.args and not t.keywords:
                return True  # torch.is_autocast_enabled() with no device answers for CUDA autocast only
            if _TPU_CHECK.match(_tail(f)) or _accelerator_check(_tail(f), self.words) \
                    or (not t.args and not t.keywords and _accelerator_switch(_tail(f), self.words)):
                return True
            if type(f) is ast.Name and f.id in ("all", "any") and len(t.args) == 1 and not t.keywords \
                    and type(t.args[0]) in (ast.GeneratorExp, ast.ListComp, ast.SetComp) \
                    and self.never(t.args[0].elt):
                # `all(d.type == "cuda" for d in devices)`: each element is False on Neuron (for `all`, over the
                # devices a program is given, never an empty list in practice)
                return True
            if type(f) is ast.Name and f.id in self.func_defs:
                return self._never_func(f.id)
            if type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id == "self" \
                    and f.attr in self.method_defs and not self.method_defs[f.attr][1]:
                return self._never_method(f.attr)  # `if self.supports_fused_overlap(num_heads=h):` (ChituDiffusion)
            if type(f) is ast.Name and f.id == "hasattr" and self.probe is not None and self.probe(t):
                return True  # `hasattr(torch._C, "_cuda_setRNGState")`: torch without CUDA has none
            if self._named_check(_tail(f)):
                return True  # has_triton(), is_xpu_available(), is_sm_at_least_90(), sp24._has_cusparseLt()
            if type(f) is ast.Attribute and f.attr == "startswith" and t.args and type(t.args[0]) is ast.Constant:
                return t.args[0].value in ("cuda", "cuda:")
            if type(f) is ast.Attribute and f.attr == "get" and 1 <= len(t.args) <= 2 and not t.keywords \
                    and (len(t.args) == 1 or _false_constant(t.args[1])):
                return self._switch_key(t.args[0])
            return False
        if k is ast.Compare and len(t.ops) == 1:
            op, left, right = type(t.ops[0]), t.left, t.comparators[0]
            if op in (ast.GtE, ast.Gt) and self._absent_version(left):
                return True  # `get_te_version() >= PkgVersion(v)`: TransformerEngine is never installed on Neuron
            if op is ast.IsNot and self._absent_vs_none(left, right):
                return True  # `bnb is not None` for a CUDA-only package imported optionally
            if op in (ast.IsNot, ast.NotEq) and any(
                    type(a) is ast.Attribute and a.attr in ("cuda", "hip") and _tail(a.value) == "version"
                    and type(b) is ast.Constant and b.value is None for a, b in ((left, right), (right, left))):
                return True  # `torch.version.cuda is not None`: None in the build TorchNeuron runs on
            if op in (ast.IsNot, ast.NotEq) and self._toolkit_vs_none(left, right):
                return True  # `CUDA_HOME is not None`: no CUDA toolkit on a Trainium host
            if op is ast.In and _toolkit_variable(left, right):
                return True  # `"CUDA_HOME" in os.environ`
            if op is ast.IsNot and any(type(a) is ast.Name and a.id in self.none_flags and type(b) is ast.Constant
                                       and b.value is None for a, b in ((left, right), (right, left))):
                return True  # `state = torch.cuda.get_rng_state() if torch.cuda.is_available() else None`
            if op in (ast.Eq, ast.In, ast.Is) and not self._pinned(left, right):
                if any((type(o) is ast.Constant and (_cuda_string(o.value) or o.value in self.words))
                       or _nccl_name(o) or _cuda_device_type(o) or _cuda_member(o) for o in (left, right)):
                    # x.device.type == "cuda", device == "xpu", args.device in ("mps",); also `backend == "nccl"`:
                    # the process group runs on the neuron backend there
                    return True
            if op in (ast.Gt, ast.GtE, ast.Eq) and _gpu_generation(left):
                return True  # `torch.cuda.get_device_properties(0).major >= 9` (a Hopper-only branch; mochi)
            if op is ast.In and _cuda_strings(right):
                return True  # `device in ["cuda"]` (Liger's `_is_flex_attention_supported`)
            if op in (ast.Eq, ast.In, ast.IsNot) and any(_tpu_string(o) for o in (left, right)):
                return True  # PJRT_DEVICE == "TPU", "TPU_NAME" in os.environ, getenv("TPU_NAME") is not None
            if self._device_count(left) and op in (ast.Gt, ast.GtE) and type(right) is ast.Constant \
                    and isinstance(right.value, int) and right.value >= (0 if op is ast.Gt else 1):
                return True
            if self.counts and op in (ast.Gt, ast.GtE) and type(right) is ast.Constant and type(right.value) is int:
                bound = self.counts.get(count_key(left))  # `n_gpu > 1` with n_gpu a device count or 1
                return bound is not None and right.value >= bound + (op is ast.GtE)
            return False
        if k is ast.Attribute:
            if t.attr == "is_cuda":
                return True
            if t.attr in ("hip", "cuda") and _tail(t.value) == "version":
                return True  # torch.version.hip / torch.version.cuda are None off CUDA/ROCm builds
            if _self_attr(t) in self.flags:
                return True  # self.cuda = torch.cuda.is_available() and ..., then `if self.cuda:`
            if type(t.value) is ast.Name and t.value.id == "self" and t.attr in self.method_defs \
                    and self.method_defs[t.attr][1]:
                return self._never_method(t.attr)  # a property answering False on Neuron: `if self.supports_x:`
            return bool(_TPU_CHECK.match(t.attr)) or _has_tpu_word(t.attr, self.words)
        if k is ast.Name:
            return t.id in self.flags or t.id in self.absent or bool(_TPU_CHECK.match(t.id)) or \
                _has_tpu_word(t.id, self.words) or (t.id in self.imported and self._named_check(t.id))
        if k is ast.Subscript:
            return self._switch_key(t.slice)
        return False

    def _switch_key(self, key) -> bool:
        """A config switch read by key, `fsdp_config["xla"]`, `cfg.get("use_tpu", False)`: named like the
        attribute switches (`args.use_xla`), off on a Trainium host."""
        return type(key) is ast.Constant and type(key.value) is str and key.value.isidentifier() \
            and _has_tpu_word(key.value, self.words)

    def always(self, t) -> bool:
        """True on every Neuron machine (the negation of `never`)."""
        if self.on_neuron(t):
            return True
        k = type(t)
        if k is ast.BoolOp:
            parts = [self.always(v) for v in t.values]
            return all(parts) if type(t.op) is ast.And else any(parts)
        if k is ast.UnaryOp and type(t.op) is ast.Not:
            return self.never(t.operand)
        if k is ast.Call and type(t.func) is ast.Name and t.func.id == "bool" and len(t.args) == 1 and not t.keywords:
            return self.always(t.args[0])
        if k is ast.Compare and len(t.ops) == 1:
            op, left, right = type(t.ops[0]), t.left, t.comparators[0]
            if self._device_count(left) and op in (ast.Lt, ast.LtE, ast.Eq) and type(right) is ast.Constant \
                    and isinstance(right.value, int) and right.value >= (1 if op is ast.Lt else 0):
                return True
            if self.counts and op in (ast.Lt, ast.LtE) and type(right) is ast.Constant and type(right.value) is int:
                bound = self.counts.get(count_key(left))  # `n_gpu <= 1`
                if bound is not None and right.value >= bound + (op is ast.Lt):
                    return True
            if op in (ast.NotEq, ast.NotIn, ast.IsNot) and not self._pinned(left, right) and any(
                    (type(o) is ast.Constant and (_cuda_string(o.value) or o.value in self.words))
                    or _nccl_name(o) or _cuda_device_type(o) or _cuda_member(o)
                    for o in (left, right)):
                return True
            if op is ast.NotIn and _cuda_strings(right):
                return True  # `device not in ("cuda", "cuda:0")`
            if op is ast.Is and self._absent_vs_none(left, right):
                return True  # `bnb is None`
            if op in (ast.Is, ast.Eq) and type(right) is ast.Constant and right.value is False \
                    and self.never(left):
                return True  # `torch.cuda.is_available() is False`
            if op in (ast.Is, ast.Eq) and self._toolkit_vs_none(left, right):
                return True  # `CUDA_HOME is None`
            if op is ast.NotIn and _toolkit_variable(left, right):
                return True
        return False

    def _toolkit_vs_none(self, left, right) -> bool:
        """torch.utils.cpp_extension's CUDA_HOME (imported, or read as `cpp_extension.CUDA_HOME`) against None: it
        is None where no CUDA toolkit is installed, a Trainium host included. A project variable of that name
        (`CUDA_HOME = os.environ.get(...)`) is not it."""
        return any(type(b) is ast.Constant and b.value is None and (
            (type(a) is ast.Name and a.id in _TOOLKIT_HOMES and a.id in self.imported)
            or (type(a) is ast.Attribute and a.attr in _TOOLKIT_HOMES and _tail(a.value) == "cpp_extension"))
            for a, b in ((left, right), (right, left)))

    def _absent_vs_none(self, left, right) -> bool:
        return any(type(a) is ast.Name and a.id in self.absent and type(b) is ast.Constant and b.value is None
                   for a, b in ((left, right), (right, left)))

    def skip_needs_cuda(self, cond) -> bool:
        """A skip condition that holds without CUDA: `not torch.cuda.is_available()`, `not TEST_CUDA`."""
        if self.always(cond):
            return True
        if type(cond) is ast.UnaryOp and type(cond.op) is ast.Not and type(cond.operand) in (ast.Name, ast.Attribute):
            o = cond.operand
            if type(o) is ast.Attribute and o.attr == "is_available" and self._backend_module(o.value):
                # `skipif(not torch.cuda.is_available, ...)`: the call left out, the test means the availability
                # check (nerfacc's tests, fresh83; as written the skip never fires, a bug of the test, not a port item)
                return True
            return bool(_CUDA_FLAG.search(_tail(o))) or self._named_check(_tail(o))
        if type(cond) is ast.BoolOp and type(cond.op) is ast.Or:
            return any(self.skip_needs_cuda(v) for v in cond.values)
        return False


_REBOUND = object()  # a name bound some other way (augmented assignment, loop target, walrus)
_UNREACHED = ast.Constant(value=False)  # an assignment that never runs on Neuron (conds.unreached)


def _imports_package(node, packages: frozenset) -> bool:
    """An `import` / absolute `from ... import` statement of one of `packages` (by top-level name)."""
    if type(node) is ast.Import:
        return any(a.name.split(".")[0] in packages for a in node.names)
    return type(node) is ast.ImportFrom and not node.level and (node.module or "").split(".")[0] in packages


def unreached_assigns(body, packages: frozenset, stmts=()) -> frozenset:
    """ids of the assignments of a module-level `try:` body that come after an import of a CUDA-only package
    (`try: from fla.ops import chunk; HAVE_FLA = True` / `except ImportError: HAVE_FLA = False`). On a Trainium
    host the package is not installed, so the import raises first and only the handlers' values bind the name:
    HAVE_FLA is a never-on-Neuron flag, here and in the modules that import it. A flag the file turns into an
    error (`if not HAVE_FLA: raise ImportError(...)`, among `stmts`) marks a required package, not an optional
    one: its assignments are left as they are, so the code it gates stays a finding."""
    out: set = set()
    names: dict = {}
    for st in body:
        if type(st).__name__ not in ("Try", "TryStar") or not st.handlers:
            continue
        for i, imp in enumerate(st.body):
            if _imports_package(imp, packages):
                for later in st.body[i + 1:]:
                    for n in walk(later):
                        if type(n) is ast.Assign:
                            for t in n.targets:
                                if type(t) is ast.Name:
                                    names.setdefault(t.id, []).append(id(n))
                break
    if names:
        for st in stmts:
            if type(st) is ast.If and type(st.test) is ast.UnaryOp and type(st.test.op) is ast.Not \
                    and type(st.test.operand) is ast.Name and st.test.operand.id in names and st.body \
                    and _exits(st.body) == "exit" and type(st.body[-1]) is ast.Raise:
                names.pop(st.test.operand.id)
        out.update(i for ids in names.values() for i in ids)
    return frozenset(out)


def _flags(stmts, conds: _Conditions, wanted: set | None = None) -> set:
    """Names every assignment of which is a never-on-Neuron expression (or False/None), at least one
    being a check: `_SUPPORTS_FLEX = torch.cuda.is_available() and ...`, then `if _SUPPORTS_FLEX:`.
    `wanted`: only these names are asked about (the answer is the same for them; the others are not
    judged, except the flags their values read)."""
    assigns, any_assigned = _assignments(stmts, conds, wanted)
    if not any_assigned:
        return set()
    rounds = (assigns, assigns)
    if wanted is not None:
        # A name's answer reads the flags of the names and `self.x` in its own values only (the first
        # round judges each name alone), so those are all the first round needs. (The values of the
        # other names are not gathered at all: in a module's own pass most assignments are in functions.)
        asked = assigns
        read = {x.id if type(x) is ast.Name else _self_attr(x) for vals in asked.values() for v in vals
                if v is not _REBOUND for x in _names_in(v)}
        rounds = (_assignments(stmts, conds, wanted | read)[0] if read - wanted else asked, asked)
    flags: set = set()
    for names in rounds:  # a flag derived from another flag: USE_FLEX = _SUPPORTS_FLEX and cfg.flex
        conds.flags = flags
        # (a name bound only in arms Neuron never takes holds there whatever it came with, a command-line value:
        # at least one of its values must be reached)
        flags = {n for n, vals in names.items()
                 if _REBOUND not in vals
                 and all((type(v) is ast.Constant and v.value in (False, None)) or conds.never(v) for v in vals)
                 and any(v is _UNREACHED or conds.never(v) for v in vals)
                 and any(v is not _UNREACHED for v in vals)}
        if not flags:
            # No flag after the first round: the second would judge the same values with the same (empty)
            # flags, and the functions' verdicts are kept from the first, so it could find none either.
            break
    # An option object's attribute (`opts.world`) read before the file assigns it, in the same function, holds the
    # value it came with (a command-line default) there: no flag
    options = {n for n in flags if "." in n and not n.startswith("self.")}
    if options:
        flags -= _read_before_set(stmts, options)
    # Those whose value on Neuron is None itself, so `x is not None` is false there too (a False flag is not None).
    # An assignment Neuron never runs is no value there: `res = None`, then `if device == "cuda": res =
    # faiss.StandardGpuResources()`, leaves `res` None (Contrastive_OOD's metric callbacks, blind84).
    conds.none_flags = {n for n in flags if all(v is _UNREACHED or _none_on_neuron(v, conds) for v in names.get(n, ()))
                        and any(v is not _UNREACHED for v in names.get(n, ()))}
    return flags


def _read_before_set(stmts, keys: set) -> set:
    """The `name.attr` keys some function reads before its first assignment of them."""
    out: set = set()
    for fn in stmts:
        if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
            continue
        first_set: dict = {}
        reads: list = []
        for n in ast.walk(fn):
            k = _self_attr(n) if type(n) is ast.Attribute else None
            if k in keys:
                pos = (n.lineno, n.col_offset)
                if type(n.ctx) is ast.Store:
                    first_set[k] = min(first_set.get(k, pos), pos)
                else:
                    reads.append((k, pos))
        out |= {k for k, pos in reads if k in first_set and pos < first_set[k]}
    return out


def _assignments(stmts, conds: _Conditions, keep: set | None = None) -> tuple[dict, bool]:
    """(name or `self.x` -> the values assigned to it, in the order first assigned; whether anything is assigned
    at all). keep: only these names are gathered (None: every name)."""
    assigns: dict = {}
    found = False
    for node in stmts:
        k = type(node)
        if k is ast.Assign:
            unreached = id(node) in conds.unreached
            for t in node.targets:
                key = t.id if type(t) is ast.Name else _self_attr(t)
                if key:
                    found = True
                    if keep is None or key in keep:
                        assigns.setdefault(key, []).append(
                            _UNREACHED if unreached else node.value if len(node.targets) == 1 else _REBOUND)
        elif k is ast.AnnAssign:
            if type(node.target) is ast.Name and node.value is not None:
                found = True
                if keep is None or node.target.id in keep:
                    assigns.setdefault(node.target.id, []).append(node.value)
        elif k in (ast.AugAssign, ast.For, ast.AsyncFor) and (type(node.target) is ast.Name or _self_attr(node.target)):
            found = True
            key = _self_attr(node.target) or node.target.id
            if keep is None or key in keep:
                assigns.setdefault(key, []).append(_REBOUND)
    return assigns, found


def _names_in(node) -> list:
    """The Name and Attribute nodes under node (itself included), in no particular order: a plain stack, several
    times faster than ast.walk."""
    out, stack, AST, Name, Attribute = [], [node], ast.AST, ast.Name, ast.Attribute
    while stack:
        n = stack.pop()
        k = type(n)
        if k is Name or k is Attribute:
            out.append(n)
        for field in n._fields:
            v = getattr(n, field, None)
            if type(v) is list:
                stack.extend(c for c in v if isinstance(c, AST))
            elif isinstance(v, AST):
                stack.append(v)
    return out


def _none_on_neuron(v, conds: _Conditions) -> bool:
    if type(v) is ast.Constant:
        return v.value is None
    return type(v) is ast.IfExp and conds.never(v.test) and type(v.orelse) is ast.Constant and v.orelse.value is None


def module_flags(tree, values) -> list:
    """Module-level names of the file that are never-on-Neuron flags (every assignment in the file a check
    that is false on Neuron, or False/None), for other modules that import them (project/flags.py); then
    the linked flags, [NAME, dep, ...] (`_linked_flags`), which are flags when their deps are."""
    from .base import _statements, statements_of

    top = {t.id for st in tree.body if isinstance(st, (ast.Assign, ast.AnnAssign))
           for t in (st.targets if isinstance(st, ast.Assign) else [st.target]) if isinstance(t, ast.Name)}
    for st in tree.body:  # `if torch.cuda.is_available(): FLAG = True else: FLAG = False` style is not a flag
        if isinstance(st, (ast.If, ast.Try)):
            # An assignment is a statement: the statements under the block are all there is to look at.
            for inner in _statements([st], []):
                if isinstance(inner, ast.Assign):
                    top |= {t.id for t in inner.targets if isinstance(t, ast.Name)}
    conds = _Conditions(set(), frozenset(values.get("other-accelerators", ())), neuron=skip_names(values))
    conds.words = accelerator_words(values)
    stmts = statements_of(tree)
    conds.packages = frozenset(values.get("cuda-only-packages", ()))
    conds.module_body = tree.body
    conds.unreached = unreached_assigns(tree.body, absent_packages(tree.body, values), stmts)
    # `self.use_gpu = torch.cuda.is_available() and use_gpu` in a class's method: a subclass in another module
    # reading `if self.use_gpu:` is guarded the same way (project/inherited_flags.py)
    own = _self_keys(tree) if any(type(st) is ast.ClassDef for st in tree.body) else set()
    if own and off_keys(stmts) & own:
        # `self.distributed = False`, then `self.distributed = True` under `if num_gpus > 1:` with `num_gpus =
        # torch.cuda.device_count()` (ACNet's Engine): an assignment in an arm Neuron never takes is no value there
        shim = FileContext(index=None, tree=tree, resolver=None, values=values)
        if shim.may_name("device_count"):
            conds.counts = device_count_bounds(shim, conds.backends)
        conds.unreached = conds.unreached | frozenset(
            unreached_flag_assigns(stmts, conds.never, conds.always, tree.body, keys=own))
    wanted = top | own
    flags = {n for n in _flags(stmts, conds, wanted) if n in wanted} if wanted else set()
    conds.flags = flags
    # Functions that answer False on every Neuron machine (`def is_cuda_available(): return torch.cuda.is_available()`)
    # are flags too: `if is_cuda_available():` in another module guards its block the same way.
    # Only short functions: availability helpers are a few lines, and judging every function would walk the module.
    for d in tree.body:
        if type(d) is ast.FunctionDef and (d.end_lineno or d.lineno) - d.lineno <= 20:
            conds.func_defs.setdefault(d.name, []).append(d)
    flags |= {n for n in conds.func_defs if conds._never_func(n)}
    flags |= _returned_flags(tree, conds)
    return sorted(flags) + _linked_flags(tree, stmts, conds.unreached, top, flags)


# Marks a flag that is an attribute of what a function returns: "get_args().cuda"
RETURNED = "()."


def _returned_flags(tree, conds) -> set:
    """`get_args().cuda` for a module-level function that returns one name (`return args`) after setting an
    attribute of it only to never-on-Neuron checks (`args.cuda = not args.no_cuda and torch.cuda.is_available()`,
    the PyTorch examples' idiom, kept in an `arguments.py` by pytorch-a2c-ppo-acktr-gail and its many forks): a
    module that calls it (`args = get_args()`) and tests `if args.cuda:` is guarded as if the check were its own
    (project/flags.py)."""
    out: set = set()
    for d in tree.body:
        if type(d) is not ast.FunctionDef:
            continue
        returned = []
        assigns = []
        for st in _statements_below(d):
            if type(st) is ast.Return:
                returned.append(st.value)
            elif type(st) is ast.Assign:
                assigns.append(st)
        names = {r.id for r in returned if isinstance(r, ast.Name)}
        if not returned or len(names) != 1 or not all(isinstance(r, ast.Name) for r in returned):
            continue
        var = names.pop()
        values: dict = {}
        for st in assigns:
            for t in st.targets:
                if type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == var:
                    values.setdefault(t.attr, []).append(st.value)
                elif type(t) is ast.Name and t.id == var and type(st.value) is not ast.Call:
                    values.clear()  # `args = other`: not the object built here
        for attr, vs in values.items():
            if vs and all(conds.never(v) or _false_constant(v) for v in vs) and any(conds.never(v) for v in vs):
                out.add(f"{d.name}{RETURNED}{attr}")
    return out


def _self_keys(tree) -> set:
    """`self.x` for the attributes the methods of the module's top-level classes assign on their first parameter
    (named self) that may be flags: some assignment of them is False / None or names a CUDA word (`self.use_gpu =
    torch.cuda.is_available() and use_gpu`); `self.conv = nn.Conv2d(...)` is none, and judging it would cost."""
    out: set = set()
    for cls in tree.body:
        if type(cls) is not ast.ClassDef:
            continue
        for fn in cls.body:
            if type(fn) is ast.FunctionDef and fn.args.args and fn.args.args[0].arg == "self":
                for st in _statements_below(fn):
                    if type(st) is not ast.Assign:
                        continue
                    keys = [k for k in map(_self_attr, st.targets) if k and k.startswith("self.")]
                    if keys and _may_flag(st.value):
                        out.update(keys)
    return out


def _may_flag(v) -> bool:
    if type(v) is ast.Constant:
        return v.value in (False, None)
    return any(_CUDA_WORD.search(n.id if type(n) is ast.Name else n.attr) for n in _names_in(v))


MAX_LINKED = 8  # names a linked flag may wait on (`HAVE_GTP = HAVE_TE` has one)


def _linked_flags(tree, stmts, unreached: frozenset, top: set, flags: set) -> list:
    """[[NAME, dep, ...]] for module-level names whose every value is False/None or another name, at least one
    being a name this pass cannot judge: one imported from a module of the project, or another such name of
    the file (`try: from .gtp import HAVE_TE; HAVE_GTP = HAVE_TE` / `except ImportError: HAVE_GTP = False`).
    NAME is a never-on-Neuron flag when every dep is one; only the link step, which sees the other modules'
    summaries, can tell (project/flags.py)."""
    imported: set = set()
    for st in tree.body:
        for inner in _module_level([st]):
            if type(inner) is ast.ImportFrom:
                imported.update(a.asname or a.name for a in inner.names if a.name != "*")
            elif type(inner) is ast.Import:
                imported.update(a.asname or a.name.split(".")[0] for a in inner.names)
    if not imported:
        return []
    values: dict = {}
    for node in stmts:
        k = type(node)
        if k is ast.Assign:
            for t in node.targets:
                if type(t) is ast.Name and t.id in top and t.id not in flags:
                    values.setdefault(t.id, []).append(
                        _UNREACHED if id(node) in unreached else node.value if len(node.targets) == 1 else _REBOUND)
        elif k in (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor) and type(node.target) is ast.Name:
            values.setdefault(node.target.id, []).append(
                node.value if k is ast.AnnAssign and node.value is not None else _REBOUND)
    out = []
    for name, vals in values.items():
        if name not in top or name in flags or _REBOUND in vals:
            continue
        deps: list = []
        for v in vals:
            if type(v) is ast.Constant and v.value in (False, None):
                continue
            if type(v) is ast.Name and v.id != name and (v.id in imported or v.id in values):
                if v.id not in flags and v.id not in deps:
                    deps.append(v.id)
                continue
            break
        else:
            if deps and len(deps) <= MAX_LINKED:
                out.append([name, *deps])
    return sorted(out)


def _module_level(stmts) -> list:
    """The statements run when the module is imported: the top level and the arms of its if/try, not the
    bodies of functions and classes."""
    out = []
    for s in stmts:
        out.append(s)
        k = type(s)
        if k is ast.If or k.__name__ in ("Try", "TryStar"):
            out += _module_level(s.body + s.orelse + (getattr(s, "finalbody", None) or []))
            for h in getattr(s, "handlers", None) or []:
                out += _module_level(h.body)
    return out


def _backend_aliases(tree, backends) -> frozenset:
    """Names the module's imports bind to `torch.<backend>` for a backend a Neuron machine never has: `import
    torch.cuda as tc`, `from torch import cuda as tc` (fairchem's environment report: `if tc.is_available():`)."""
    out: set = set()
    for st in tree.body:
        if type(st) is ast.Import:
            out.update(a.asname for a in st.names if a.asname and a.name.startswith("torch.")
                       and a.name.count(".") == 1 and a.name.split(".")[1] in backends)
        elif type(st) is ast.ImportFrom and st.module == "torch" and not st.level:
            out.update(a.asname for a in st.names if a.asname and a.name in backends)
    return frozenset(out)


def _exits(stmts) -> str:
    """'skip' / 'exit' when the block ends by leaving the function or test, else ''."""
    if not stmts:
        return ""
    last = stmts[-1]
    if type(last) is ast.Expr and type(last.value) is ast.Call and _tail(last.value.func) in _SKIP_CALLS:
        return "skip"
    if type(last) is ast.Raise and last.exc is not None:
        exc = last.exc.func if type(last.exc) is ast.Call else last.exc
        return "skip" if _tail(exc) in _SKIP_CALLS else "exit"
    if type(last) in (ast.Return, ast.Continue, ast.Break):
        return "exit"
    if type(last) is ast.Expr and type(last.value) is ast.Call and _tail(last.value.func) == "exit":
        return "exit"
    return ""


# Exceptions an optional module raises to say "not here" (`if not torch.cuda.is_available(): raise ImportError`):
# its importer catches them and goes on without it, so they stay guards.
_OPTIONAL_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
_EXIT_CALLS = frozenset({"exit", "_exit", "quit"})


def _fails(stmts) -> bool:
    """The block ends the program: `raise RuntimeError("GPU is required")`, `sys.exit(1)`, `exit()`. Unlike a
    `return` (the caller goes on without the code after it) or a test skip, a CUDA check with such an arm leaves
    no path on a Neuron machine but the CUDA one: the code it protects is what the port must change."""
    if not stmts:
        return False
    last = stmts[-1]
    if type(last) is ast.Raise and last.exc is not None:
        exc = last.exc.func if type(last.exc) is ast.Call else last.exc
        return _tail(exc) not in _SKIP_CALLS and _tail(exc) not in _OPTIONAL_ERRORS
    return type(last) is ast.Expr and type(last.value) is ast.Call and _tail(last.value.func) in _EXIT_CALLS


_CUDA_WORD = re.compile(r"(^|_)(cuda|gpu|gpus|nccl)($|_)", re.I)


def _cuda_test(t, words: frozenset) -> bool:
    """The test names CUDA (`torch.cuda.is_available()`, `CUDA_HOME is not None`, `args.use_gpu`,
    `device == "cuda"`) and no accelerator a Trainium host never has (a TPU or MPS script that stops elsewhere is
    another platform's program, not the CUDA path of this one)."""
    names = []
    for n in walk(t):
        if type(n) is ast.Name:
            names.append(n.id)
        elif type(n) is ast.Attribute:
            names.append(n.attr)
        elif type(n) is ast.Constant and isinstance(n.value, str):
            names.append(n.value.split(":")[0])
    return any(_CUDA_WORD.search(x) for x in names) and not any(_has_tpu_word(x, words) for x in names)


def _device_dispatch(s: ast.If) -> bool:
    """`if device_type == "cpu": ... elif ...`: the test compares with a device name and the else is one `elif`."""
    t = s.test
    if not (len(s.orelse) == 1 and type(s.orelse[0]) is ast.If and type(t) is ast.Compare and len(t.ops) == 1
            and type(t.ops[0]) in (ast.Eq, ast.NotEq, ast.In)):
        return False
    side = t.comparators[0] if type(t.comparators[0]) is ast.Constant else t.left
    return type(side) is ast.Constant and isinstance(side.value, str) \
        and side.value.split(":")[0].lower() in DEVICE_TYPE_NAMES


def _named_request(t) -> bool:
    """`device == "cuda"`, `args.device in ("cuda", "gpu")`: a device name a caller or an option asks for, compared
    with CUDA's name (not a tensor's `x.device.type`)."""
    if type(t) is not ast.Compare or len(t.ops) != 1 or type(t.ops[0]) not in (ast.Eq, ast.In):
        return False
    left, right = t.left, t.comparators[0]
    if not (type(left) is ast.Name or type(left) is ast.Attribute and left.attr not in ("type", "is_cuda")):
        return False
    values = right.elts if type(right) in (ast.Tuple, ast.List, ast.Set) else (right,)
    return any(type(v) is ast.Constant and isinstance(v.value, str) and _cuda_string(v.value) for v in values)


def _availability_check(t, conds) -> bool:
    """`torch.cuda.is_available()` or a device count (`torch.cuda.device_count() > 0`): the check that answers no
    on Neuron."""
    if type(t) is ast.Compare and len(t.ops) == 1:
        t = t.left
    return type(t) is ast.Call and type(t.func) is ast.Attribute and t.func.attr == "is_available" \
        and conds._backend_module(t.func.value) or conds._device_count(t)


def _is_main_test(t) -> bool:
    """`__name__ == "__main__"`."""
    return type(t) is ast.Compare and type(t.left) is ast.Name and t.left.id == "__name__"


def _no_gpu_range(e) -> bool:
    """`range(torch.cuda.device_count())` or `range(0, torch.cuda.device_count())`: empty where no CUDA device is."""
    if type(e) is not ast.Call or type(e.func) is not ast.Name or e.func.id != "range" or e.keywords:
        return False
    if len(e.args) == 2 and not (type(e.args[0]) is ast.Constant and e.args[0].value == 0):
        return False
    last = e.args[-1] if e.args and len(e.args) <= 2 else None
    return type(last) is ast.Call and type(last.func) is ast.Attribute and last.func.attr == "device_count" \
        and not last.args and _tail(last.func.value) == "cuda"


def _environment_read(e) -> bool:
    """`os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]`."""
    if type(e) is ast.Subscript:
        return dotted(e.value) in ("os.environ", "environ")
    return type(e) is ast.Call and dotted(e.func) in ("os.environ.get", "os.getenv", "environ.get", "getenv")


def _set_to_gpu(ctx) -> set:
    """The names (`device`, `self.device`) the file itself assigns "gpu": a flag the program computes (ArcNerf's
    `self.device = 'gpu'` under `torch.cuda.is_available()`), not a user's option."""
    return {dotted(t) for a in ctx.nodes(ast.Assign) if type(a.value) is ast.Constant
            and isinstance(a.value.value, str) and a.value.value.lower() == "gpu" for t in a.targets}


def _string_defaults(ctx) -> set:
    """Parameters of the file's functions whose default is a string other than "gpu" (`device="cpu"`)."""
    out: set = set()
    for fn in ctx.nodes(ast.FunctionDef) + ctx.nodes(ast.AsyncFunctionDef):
        a = fn.args
        pos = [*a.posonlyargs, *a.args]
        pairs = [*zip(pos[len(pos) - len(a.defaults):], a.defaults), *zip(a.kwonlyargs, a.kw_defaults)]
        out |= {p.arg for p, d in pairs if type(d) is ast.Constant and isinstance(d.value, str)
                and d.value.lower() != "gpu"}
    return out


def _gpu_option_test(test, ctx) -> bool:
    """`args.device == "gpu"`: a choice the user makes between names, compared with "gpu", which is never a torch
    device type (`torch.device("gpu")` raises), so the value is a command-line or config option and no tensor's
    device. Unlike a CUDA check, nothing makes it false on Trainium: the port adds (or maps "gpu" to) the Neuron
    choice, and the arm is the code that choice runs, so its device pick (`torch.device("cuda")`), its
    `CUDA_VISIBLE_DEVICES` and its other CUDA calls are all port items (train-procgen's `--device gpu`). A name the
    file itself assigns "gpu" (ArcNerf's `self.device = 'gpu'` after `torch.cuda.is_available()`) is a flag the
    program derives, and stays a CUDA check."""
    if type(test) is not ast.Compare or not all(type(op) in (ast.Eq, ast.In, ast.NotEq, ast.NotIn) for op in test.ops):
        return False
    found = option = False
    for e in (test.left, *test.comparators):
        values = e.elts if type(e) in (ast.Tuple, ast.List, ast.Set) else (e,)
        if any(type(v) is ast.Constant and isinstance(v.value, str) and v.value.lower() == "gpu" for v in values):
            found = True
        elif _environment_read(e):
            option = True  # `os.environ.get("PREPROCESS_DEVICE") == "gpu"` (deepmd): the user's environment
        elif type(e) in (ast.Name, ast.Attribute):
            if dotted(e) in ctx.fact("neuron-guarded:set-to-gpu", _set_to_gpu):
                return False  # the program sets it to "gpu" itself, after a CUDA check: a derived flag
            # `args.device`, `opt.device`: read off an options object; `device` with a string default (`def
            # run(device="cpu")`): a caller's choice. A plain parameter or `self.device` may carry a flag another
            # module derived from a CUDA check (ArcNerf's trainer), and stays a CUDA check
            option = option or type(e) is ast.Attribute and type(e.value) is ast.Name \
                and e.value.id not in ("self", "cls") or type(e) is ast.Name \
                and e.id in ctx.fact("neuron-guarded:string-defaults", _string_defaults)
    return found and option


def _goes_on(stmts) -> bool:
    """A non-empty arm that does not leave (no top-level return, raise or exit): the program goes on with it."""
    return bool(stmts) and not any(_exits([st]) for st in stmts)


def _none_constant(e) -> bool:
    return type(e) is ast.Constant and e.value is None


def _module_defs(body) -> list:
    """Functions and classes bound at module level, also under a module-level if/try (`if is_x_available(): def f`)."""
    return [s for s in _module_level(body) if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)]


def _class_methods(defs) -> dict:
    """name -> (def, is a property) of the methods the file's module-level classes define, for the names exactly one
    method carries."""
    seen: dict = {}
    for c in defs:
        if type(c) is not ast.ClassDef:
            continue
        for m in c.body:
            if type(m) is ast.FunctionDef:
                prop = any(_tail(d) in ("property", "cached_property") for d in m.decorator_list)
                seen[m.name] = None if m.name in seen else (m, prop)
    return {n: v for n, v in seen.items() if v is not None}


def _absent_modules(body, packages: frozenset) -> frozenset:
    """Names a module-level `try:` binds by importing a CUDA-only package and every handler binds to None
    (`try: import bitsandbytes as bnb` / `except ImportError: bnb = None`)."""
    found: set = set()
    for st in body:
        if type(st) is not ast.Try:
            continue
        names: set = set()
        for imp in st.body:
            if type(imp) is ast.Import:
                names.update((a.asname or a.name.split(".")[0]) for a in imp.names
                             if a.name.split(".")[0] in packages)
            elif type(imp) is ast.ImportFrom and imp.module and not imp.level and imp.module.split(".")[0] in packages:
                names.update(a.asname or a.name for a in imp.names)
        for name in names:
            if st.handlers and all(any(type(h_st) is ast.Assign and type(h_st.value) is ast.Constant
                                       and h_st.value.value is None
                                       and any(type(t) is ast.Name and t.id == name for t in h_st.targets)
                                       for h_st in h.body) for h in st.handlers):
                found.add(name)
    return frozenset(found)


def _imported(ctx) -> frozenset:
    # Imports are statements: the statement list (already built for the flags) is enough, no full-tree walk.
    names: set = set()
    for node in ctx.statements():
        if type(node) in (ast.Import, ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _returns(fn, memo: dict) -> tuple:
    """(index of the first top-level statement holding a `return`, the returned values, is a generator) of a
    function, not counting functions, lambdas or classes nested in it. One walk per function, kept in memo."""
    found = memo.get(id(fn))
    if found is None:
        first, values, generator = len(fn.body), [], False
        for i, st in enumerate(fn.body):
            stack = [] if type(st) in _NESTED else [st]
            while stack:
                node = stack.pop()
                k = type(node)
                if k is ast.Return:
                    values.append(node.value)
                    first = min(first, i)
                elif k is ast.Yield or k is ast.YieldFrom:
                    generator = True
                for field in node._fields:  # ast.iter_child_nodes inlined (this walk covers every function)
                    v = getattr(node, field, None)
                    if type(v) is list:
                        stack.extend(c for c in v if isinstance(c, ast.AST) and type(c) not in _NESTED)
                    elif isinstance(v, ast.AST) and type(v) not in _NESTED:
                        stack.append(v)
        found = memo[id(fn)] = (first, values, generator)
    return found


def _falsy(value, conds: _Conditions, local: set | None = None) -> bool:
    if type(value) is ast.Name and local and value.id in local:
        return True
    return value is None or (type(value) is ast.Constant and not value.value) or conds.never(value)


def _local_flags(fn, conds: _Conditions) -> set:
    """The function's own never-on-Neuron flags (`available = torch.cuda.is_available()` then `return
    available`), found as the file's flags are; the file's flags are left as they were."""
    from .base import _statements

    saved, saved_none = conds.flags, conds.none_flags
    try:
        return _flags(_statements(fn.body, []), conds)
    finally:
        conds.flags, conds.none_flags = saved, saved_none


_VERSION = re.compile(r"^\d+(\.\d+)*$")
_ZERO_VERSION = re.compile(r"^0+(\.0+)*$")


def _version_getter(fn, packages: frozenset) -> bool:
    """A function answering the version of a CUDA-only package: it (or a function inside it) imports the package
    (`import transformer_engine as te` ... `te.__version__`), reads a `__version__` or asks the installed
    distributions (`version("flash-attn")`), and every version literal in it is zero (`PkgVersion("0.0.0")`,
    the answer when the package is missing). On a Trainium host the package is never installed: the function
    raises ImportError (or PackageNotFoundError) or answers a zero version, so `getter() >= minimum` and
    `getter() > minimum` are never true there (their callers' blocks never run). A getter with any other
    literal (`return "99.0"`), a `<` / `<=` comparison (True with a zero version) or a package that is not
    CUDA-only is not judged so."""
    imports = asks = False
    for n in walk(fn):
        k = type(n)
        if k is ast.Import or k is ast.ImportFrom:
            imports = imports or _imports_package(n, packages)
        elif k is ast.Attribute and n.attr == "__version__":
            asks = True
        elif k is ast.Call and _tail(n.func) == "version":
            asks = True
        elif k is ast.Constant and type(n.value) is str and _VERSION.match(n.value) \
                and not _ZERO_VERSION.match(n.value):
            return False
    return imports and asks


def _returns_false(fn, conds: _Conditions, memo: dict) -> bool:
    """A function of the file that answers a false value on every Neuron machine: every `return` gives False, None
    or a never-true check (`return torch.cuda.is_available() and capability >= (9, 0)`), or it first returns a
    false value under an always-true check (`if not torch.cuda.is_available(): return False`). A generator is not."""
    if type(fn) is ast.AsyncFunctionDef:
        return False
    first, values, generator = _returns(fn, memo)
    if generator or not values:
        return False
    # Early exits: `if not enabled: return False` then `if x.device.type != "cuda": return False` (StyleGAN's
    # `_should_use_custom_op`): each a check whose only return gives a false value; once one of them is always
    # true on Neuron, every path there has returned false before any other value.
    # OpenNMT's `check_sru_requirement(abort=False)`: a `try` whose handler returns False, then `if
    # torch.cuda.is_available() is False: if not abort: return False / raise ...`: a statement that can only return
    # a false value is passed over, and an arm that leaves by a false return or a raise is an early exit too.
    for st in fn.body[first:]:
        if type(st) is ast.If and _leaves_false(st.body, conds):
            if conds.always(st.test):
                return True
            if st.orelse:  # the other arm runs where the check is false: it may return anything
                break
            continue
        if type(st) is ast.If or not _only_false_returns([st], conds):
            break
    if _last_value_never(fn, conds):
        return True
    local = _local_flags(fn, conds) if any(type(v) is ast.Name for v in values) else None
    return all(_falsy(v, conds, local) for v in values)


def _returned(stmts) -> list:
    """The `return` statements of the statements, not counting functions, lambdas or classes nested in them."""
    out, stack = [], [s for s in stmts if type(s) not in _NESTED]
    while stack:
        node = stack.pop()
        if type(node) is ast.Return:
            out.append(node)
        stack.extend(c for c in ast.iter_child_nodes(node) if type(c) not in _NESTED)
    return out


def _only_false_returns(stmts, conds: _Conditions) -> bool:
    return all(_falsy(r.value, conds) for r in _returned(stmts))


def _leaves_false(arm, conds: _Conditions) -> bool:
    """The arm always leaves the function without a true answer: it ends with a `return` of a false value or a
    `raise`, and every `return` in it gives a false value (`if not abort: return False` then `raise ...`)."""
    return bool(arm) and type(arm[-1]) in (ast.Return, ast.Raise) and _only_false_returns(arm, conds)


def _last_value_never(fn, conds: _Conditions) -> bool:
    """`x = <anything>` ... `x = x and torch.is_autocast_enabled()` then `return x` at the end of a straight-line
    body: the last value given to the returned name is false on Neuron, whatever came before (openfold's
    `is_fp16_enabled`). Only plain assignments may stand between that value and the return."""
    body = fn.body
    if not body or type(body[-1]) is not ast.Return or type(body[-1].value) is not ast.Name:
        return False
    name = body[-1].value.id
    for st in reversed(body[:-1]):
        if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == name for t in st.targets):
            return conds.never(st.value)
        if type(st) not in (ast.Assign, ast.AnnAssign, ast.Expr) or \
                any(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store for n in walk(st)):
            return False
    return False


_FILLING = re.compile(r"param|expand|given|cases|product", re.I)


def _fills_arguments(d) -> bool:
    """A decorator that calls the test with arguments of its own: `@parameterized.expand(...)`, hypothesis'
    `@given(...)`, `@pytest.mark.parametrize` (whose names `_parametrized` reads)."""
    f = d.func if type(d) is ast.Call else d
    return bool(_FILLING.search(_tail(f))) and _tail(f) != "parametrize"


def _rebound(fn) -> set:
    """Names the function assigns (a switch assigned again no longer holds the caller's value)."""
    return {t.id for n in walk(fn) if type(n) in (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With)
            for t in walk(n) if type(t) is ast.Name and type(t.ctx) is ast.Store}


def _all_functions(ctx) -> list:
    # Functions are statements: the statement list avoids a walk over every expression node of the file.
    return [s for s in ctx.statements() if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)]


def _fixture_name(fn) -> str:
    """The name a pytest fixture is requested by (`name=` of the decorator, else the function's), or ""."""
    for d in fn.decorator_list:
        func = d.func if type(d) is ast.Call else d
        if _tail(func) == "fixture":
            for k in getattr(d, "keywords", ()):
                if k.arg == "name" and type(k.value) is ast.Constant and isinstance(k.value.value, str):
                    return k.value.value
            return fn.name
    return ""


def _parametrized(fn) -> set:
    """Argument names given by @pytest.mark.parametrize("a,b", ...) / (("a", "b"), ...) on the function."""
    names: set = set()
    for d in fn.decorator_list:
        if type(d) is ast.Call and _tail(d.func) == "parametrize" and d.args:
            first = d.args[0]
            if type(first) is ast.Constant and isinstance(first.value, str):
                names.update(n.strip() for n in first.value.split(","))
            elif type(first) in (ast.Tuple, ast.List):
                names.update(e.value for e in first.elts if type(e) is ast.Constant and isinstance(e.value, str))
    return names


def _params(fn) -> list:
    a = fn.args
    return a.posonlyargs + a.args + a.kwonlyargs


def _kept(choice, pick: str) -> bool:
    # ("kernel": a finding of `requirement-kept-categories`, kept only in the block of a requirement check)
    return bool(pick) and (choice is True and pick != "kernel" or choice == pick)


class _Spans:
    def __init__(self, ctx):
        self.ctx = ctx
        self.names = skip_names(ctx.values)
        # A check by name (`has_triton()`) is trusted in tests only: in library code the branch it guards may be the
        # only implementation there is, which a migration must replace rather than skip.
        self.conds = _Conditions(set(), frozenset(ctx.values.get("other-accelerators", ())),
                                 self.names if classify(ctx.path) == "test" else None, self.names)
        self.conds.words = accelerator_words(ctx.values)
        self.values = ctx.values
        self.decorators = frozenset(ctx.values.get("cuda-test-decorators", ()))
        self.packages = frozenset(ctx.values.get("cuda-only-packages", ()))
        self.local_skips: frozenset = frozenset()  # `cuda_only = pytest.mark.skipif(...)` defined in the file
        self.classes: dict = {}  # name -> the one module-level class of that name (for setUp inherited from it)
        self.setup_classes: frozenset = frozenset()  # module-level classes whose (inherited) setUp skips
        self.skip_funcs: set = set()  # functions of the file that skip the calling test on a Neuron machine
        self.skip_fixtures: set = set()  # fixtures of the file that do
        self.spans: list = []  # (start, end, choice): choice = a branch that picks between devices
        self.caught = 0  # how many try bodies with handlers hold the block being walked
        # how many arms of other conditions hold it, in its function: a CUDA requirement met only when a switch is
        # on (`if use_xformers: ... elif not torch.cuda.is_available(): raise ...`) belongs to that opt-in path
        self.branch = 0
        self.starts = frozenset(ctx.values.get("process-group-starts", ()))
        self.noop_contexts = frozenset(ctx.values.get("noop-pick-contexts", ()))
        self.pick_types = frozenset(ctx.values.get("pick-value-types", ()))
        self.pick_alternatives = frozenset(v.lower() for v in ctx.values.get("device-pick-alternatives", ()))
        self.group_starts: list | None = None  # the file's calls that start a process group, when asked
        self._placement_flags: dict | None = None  # placement_flags of the file, when asked

    def placement_flags(self) -> dict:
        if self._placement_flags is None:
            self._placement_flags = placement_flags(self.ctx)
        return self._placement_flags

    def add(self, first, last, choice=False) -> None:
        start = (first.lineno, first.col_offset)
        if hasattr(first, "decorator_list") and first.decorator_list:
            d = first.decorator_list[0]
            start = min(start, (d.lineno, d.col_offset - 1))
        self.spans.append((start, (last.end_lineno, last.end_col_offset), choice))

    def run(self, tree) -> "_Spans":
        defs = _module_defs(tree.body)
        self.conds.imported = _imported(self.ctx)
        self.conds.backend_aliases = _backend_aliases(tree, self.conds.backends)
        self.conds.absent = _absent_modules(tree.body, self.packages)
        self.conds.unreached = unreached_assigns(tree.body, absent_packages(tree.body, self.values),
                                                 self.ctx.statements())
        self.conds.packages, self.conds.module_body = self.packages, tree.body
        # `if is_xla():`, `device == "xla"`: a TPU path outside legacy XLA-Neuron code (xla-switch-words)
        self.conds.words = self.conds.words | xla_switch_words(tree.body, self.values)
        for d in defs:  # a name defined twice (if/else) is known only when every definition agrees
            if type(d) is not ast.ClassDef:
                self.conds.func_defs.setdefault(d.name, []).append(d)
        self.conds.method_defs = _class_methods(defs)
        ctx = self.ctx
        self.conds.probe = lambda call: cuda_build_probe(ctx, call)
        self.conds.counts = {**device_count_bounds(ctx, self.conds.backends), **query_fallbacks(ctx)}
        self.conds.pinned = pinned_cuda_devices(ctx)
        # an assignment in an arm Neuron never takes is not one of a flag's values there (_cuda_derived.py)
        self.conds.unreached |= unreached_flag_assigns(ctx.statements(), self.conds.never, self.conds.always,
                                                       tree.body)
        self.conds.flags = _flags(self.ctx.statements(), self.conds)
        self.conds.forget_functions()  # judged again now that the flags are known: a function may return a flag
        self.local_skips = self._local_skips(tree.body)
        named: dict = {}
        for d in defs:
            named.setdefault(d.name, []).append(d)
        self.classes = {n: ds[0] for n, ds in named.items() if len(ds) == 1 and type(ds[0]) is ast.ClassDef}
        self.setup_classes = frozenset(n for n, c in self.classes.items() if self._setup_skips(c))
        for st in tree.body:  # the definition of a skip decorator is a skip guard: it goes with the tests it skips
            if type(st) is ast.Assign and type(st.targets[0]) is ast.Name and st.targets[0].id in self.local_skips:
                self.add(st, st)
        self._skipping_functions(defs)
        if self._module_skipped(tree.body):
            self.add(tree.body[0], tree.body[-1])
        self.block(tree.body)
        self._cuda_only_classes(tree.body)
        self._param_marks()
        self._skipped_switches()
        self.statement_spans, self.spans = self.spans, []
        self.by_statement: dict = {}
        # what a test module's function runs only with a switch parameter on (`guarded-switch` reads them)
        self.off_switches: dict = {}  # id(function) -> its switch parameters off in every run on Neuron
        self.switch_spans: list = []
        if runs_as_tests(self.ctx.path, tree):
            self._called_switches()
        self.statement_spans += skipped_classes(self.ctx.statements(), lambda pos: self.holds(pos, ""))
        if runs_as_tests(self.ctx.path, tree):
            self.statement_spans += uncalled_main(self.ctx, tree)  # before the helpers: those only it calls follow
            self.statement_spans += skip_condition_imports(tree, lambda stmts: _exits(stmts) == "skip")
            self.statement_spans += unrun_module_imports(
                tree, lambda t: self.holds((t.lineno, t.col_offset), "") or self._skips_first(t))
            self.statement_spans += helper_spans(self.ctx, tree, lambda pos: self.holds(pos, ""))
        return self

    def holds(self, pos, pick: str) -> bool:
        """pick: "device" for a device string, "backend" for a process-group backend, "" for anything else. A span
        whose choice is True keeps both kinds of pick (one expression picks), "backend" keeps backends only."""
        if any(start <= pos < end and not _kept(choice, pick) for start, end, choice in self.statement_spans):
            return True
        # Inside one statement: `a and b` after a CUDA check, either branch of `x if <check> else y`. Only the
        # innermost statement holding the match is walked, and only once.
        inner = self.ctx.statement_at(pos)
        if inner is None:
            return False
        spans = self.by_statement.get(id(inner))
        if spans is None:
            spans = self.by_statement[id(inner)] = self._expression_spans(inner)
        return any(start <= pos < end and not _kept(choice, pick) for start, end, choice in spans)

    def _expression_spans(self, stmt) -> list:
        self.spans = []
        # `args.use_cuda = args.use_cuda and torch.cuda.is_available()`: the option read on the right is the value it
        # had before this assignment (a command-line switch set outside the file), not the flag the assignment makes;
        # a name or `self.x` bound earlier in the file keeps its flag there (`on_gpu = on_gpu and ...`)
        own = {k for k in (_self_attr(t) for t in stmt.targets) if k and not k.startswith("self.")} \
            if type(stmt) is ast.Assign else set()
        for node in expressions(stmt):
            k = type(node)
            if k is ast.BoolOp and type(node.op) is ast.And:
                # torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0): the right-hand
                # operands are never evaluated on a Neuron machine
                for i, v in enumerate(node.values[:-1]):
                    if own and _self_attr(v) in own:
                        continue
                    if self.conds.never(v):
                        later = node.values[i + 1:]
                        if type(stmt) is ast.If and node is stmt.test and _named_request(v) \
                                and any(_availability_check(w, self.conds) for w in later) \
                                and self._chooses_device(stmt):
                            # `if device in ("cuda", "gpu") and torch.cuda.is_available():` then
                            # `set_default_device("cuda")` / else `"cpu"` (torch_DE_solver's `solver_device`): the
                            # name is what the caller asks for, the availability check is what picks the CPU on
                            # Neuron; the check stays the pick's finding
                            continue
                        if type(stmt) is ast.If and node is stmt.test and _named_request(v) \
                                and any(type(w) is ast.UnaryOp and type(w.op) is ast.Not
                                        and _availability_check(w.operand, self.conds) for w in later) \
                                and falls_back_to_host(stmt, v.left, self.pick_alternatives):
                            # `if device == "cuda" and not torch.cuda.is_available(): device = "cpu"`: the caller's
                            # CUDA request becomes the CPU on a Trainium host (table-diffusion's torch paths, blind82;
                            # matsci-gnn-pinn, blind73); the check is the pick and stays reported
                            continue
                        self.add(node.values[i + 1], node.values[-1])
                        break
            elif k is ast.IfExp:
                if self.conds.never(node.test):
                    if _placement_type_pick(node, self.pick_types):
                        continue
                    if not _api_or_noop(node.body, node.orelse, self.noop_contexts):
                        # `InitProcessGroupKwargs(backend=...) if torch.cuda.device_count() > 1 else None`: on Neuron
                        # nothing is built, so a backend named in the call never starts a group (a device string
                        # there stays with its check, as in any one-expression pick)
                        built = type(node.body) is ast.Call and _none_constant(node.orelse)
                        self.add(node.body, node.body, choice="device" if built else True)
                elif self.conds.always(node.test):
                    if not _api_or_noop(node.orelse, node.body, self.noop_contexts):
                        self.add(node.orelse, node.orelse, choice=not self.conds.on_neuron(node.test))
        return self.spans

    def _chooses_device(self, st: ast.If) -> bool:
        parent = self.ctx.parent(st)
        following = None
        for name in ("body", "orelse", "finalbody"):
            arm = getattr(parent, name, None) or []
            if st in arm:
                at = arm.index(st) + 1
                following = arm[at] if at < len(arm) else None
                break
        return chooses_device(st, following, self.pick_alternatives)

    def block(self, stmts) -> None:
        for i, s in enumerate(stmts):
            k = type(s)
            if self._skip_statement(s):
                self.add(s, stmts[-1])  # pytest.importorskip("triton"), a call of the file's own skip helper
            if k is ast.If:
                never, always = self.conds.never(s.test), self.conds.always(s.test)
                if (never or always) and _gpu_option_test(s.test, self.ctx):
                    never = always = False  # a user's option the port maps to the Neuron device: no CUDA check
                # `if torch.cuda.device_count(): device = "cuda" else: device = "cpu"`: the test picks the device
                # and is the finding (it answers False on Neuron); the arm it never takes there is guarded, device
                # strings included (the one-expression form, `"cuda" if ... else "cpu"`, keeps its string). A
                # backend set in that arm stays when the other arm sets another one: the process group still starts
                # on Neuron, with the other arm's backend (a finding of its own category, not the check's).
                # `if torch.cuda.is_available(): device = "cuda"` / `else: raise RuntimeError("GPU is required")`,
                # `if not torch.cuda.is_available(): sys.exit(...)`: the program stops on Neuron, so the CUDA arm
                # and what follows are its only path and stay findings (a `return` or a test skip still guards).
                mandatory = (never and _fails(s.orelse) or always and _fails(s.body)) and not self.caught \
                    and not self.branch and _cuda_test(s.test, self.conds.words)
                # `if ddp and device_type == "cuda": ...; dist.init_process_group("nccl")` / `else: device = ...`: the
                # arm Neuron skips holds the file's only process-group start, so distributed training is silently
                # off there; that arm is the program's only distributed path and its findings stay.
                if never and s.body and not mandatory and not self._only_group_start(s.body) \
                        and not _placement_move(s, self.placement_flags):  # (a method: computed when asked)
                    # `if check_sru_requirement():` (a project function that raises without CUDA when asked to):
                    # the block is a CUDA-only feature the program stops for on Neuron once selected; its kernel and
                    # library code stay the port item (`requirement-kept-categories`), the device plumbing is guarded
                    choice = "backend" if _goes_on(s.orelse) else "kernel" if self._requirement(s.test) else False
                    self.add(s.body[0], s.body[-1], choice=choice)
                    if s.orelse and not _goes_on(s.orelse) and i + 1 < len(stmts):
                        self.add(stmts[i + 1], stmts[-1])  # `if torch.cuda.is_available(): ... else: return`
                if always and s.orelse and not mandatory and not self._only_group_start(s.orelse) \
                        and not _placement_move(s, self.placement_flags):
                    other = _goes_on(s.body) and not self.conds.on_neuron(s.test)
                    self.add(s.orelse[0], s.orelse[-1], choice="backend" if other else False)
                if always and not mandatory:
                    # `if not torch.cuda.is_available(): return`, also with `elif` / `else` arms after the exit
                    # (`... return` / `elif "RANK" not in os.environ: ...`): on Neuron the first arm always runs and
                    # leaves, so nothing after the `if` runs there; the check is the finding. An arm that stops the
                    # program (`if CUDA_HOME is None: raise RuntimeError(...)` inside `if "--no_apex" not in
                    # sys.argv:`) is a requirement of the feature that follows, not a way around it: as for
                    # `_requirement` checks, its kernel and library code stay the port item
                    how = _exits(s.body)
                    if how and i + 1 < len(stmts):
                        self.add(stmts[i + 1], stmts[-1], choice="kernel" if _fails(s.body) else False)
                    if how == "skip" and not s.orelse:
                        self.add(s, s)  # the skip guard of a test is part of the test
                nests = not _is_main_test(s.test)  # (`if __name__ == "__main__":` is the script itself)
                # The arm a mandatory check leaves as the program's only path on Neuron is no branch of it (the
                # `if torch.cuda.is_available(): ... else: raise` inside it is mandatory too), and an `elif` of a
                # dispatch over device names is another arm of the same choice, not a branch below the first:
                # `if device_type == "cpu": ... elif device_type == "cuda": ... else: raise ValueError(...)` has no
                # arm a Neuron device takes, so its CUDA arm is what the port copies (PyTorch-Project-Template, blind74)
                body_nests = nests and not (mandatory and never)
                else_nests = nests and not (mandatory and always) and not _device_dispatch(s)
                self.branch += body_nests
                self.block(s.body)
                self.branch += else_nests - body_nests
                self.block(s.orelse)
                self.branch -= else_nests
            elif k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                if any(self._skip_decorator(d) or (s.name.lower().startswith("test") and _cuda_variants_only(d))
                       for d in s.decorator_list) or (
                        k is ast.ClassDef and (self._setup_skips(s) or self._autouse_skips(s.body))) or (
                        k is not ast.ClassDef and self._takes_skipping_fixture(s)):
                    self.add(s, s)
                outer, self.branch = self.branch, 0  # a function's body is judged from its own top
                self.block(s.body)
                self.branch = outer
            elif k in (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith):
                if k in (ast.For, ast.AsyncFor) and i + 1 < len(stmts) and self._returns_at_first(s.body):
                    # `for w in weights: if not w.is_cuda: return` (torch's own `flatten_parameters`, copied into
                    # projects): the first element already leaves the function on Neuron, so nothing after the loop
                    # runs there. The loop runs over the tensors the code is about to use, never an empty list.
                    self.add(stmts[i + 1], stmts[-1])
                if k in (ast.For, ast.AsyncFor) and s.body and _no_gpu_range(s.iter):
                    # `for i in range(torch.cuda.device_count()):` runs no pass on Neuron, where the count is 0: the
                    # count is the finding, the per-GPU body (get_device_name(i), memory per GPU) never runs
                    self.add(s.body[0], s.body[-1])
                self.block(s.body)
                self.block(getattr(s, "orelse", []))
            elif blocks_of(k):  # try / try* / match: every nested block (handlers and match cases hold statements)
                # a `raise` in a try body with handlers may be caught there: the function goes on (see `mandatory`)
                caught = bool(getattr(s, "handlers", None))
                if caught:
                    self._after_absent_import(s.body)
                self.caught += caught
                self.block(getattr(s, "body", None) or [])
                self.caught -= caught
                for name in ("orelse", "finalbody"):
                    self.block(getattr(s, name, None) or [])
                if k is ast.Match:
                    # `match dev.type: case "cuda": torch.cuda.synchronize()`: the arm is `if dev.type == "cuda":`
                    for case in s.cases:
                        test = _case_test(s.subject, case)
                        if test is not None and case.body and self.conds.never(test) \
                                and not _placement_move(ast.If(test=test, body=case.body, orelse=[]),
                                                        self.placement_flags):
                            self.add(case.body[0], case.body[-1])
                for h in (getattr(s, "handlers", None) or []) + (getattr(s, "cases", None) or []):
                    self.block(h.body)

    def _returns_at_first(self, body) -> bool:
        """The loop body opens with `if <always true on Neuron>: ... return` (no `break` or `continue` before it):
        its first pass leaves the function."""
        first = body[0] if body else None
        return type(first) is ast.If and bool(first.body) and type(first.body[-1]) is ast.Return \
            and self.conds.always(first.test)

    def _after_absent_import(self, body) -> None:
        """`try: import flash_attn` then `torch.cuda.get_device_properties(i)` (exllamav2's attn.py): on a Trainium
        host the CUDA-only package is not installed, the import raises and nothing after it in the `try` body runs.
        Its device plumbing is guarded; the kernel and library code of the feature (`requirement-kept-categories`:
        `import flash_attn_2_cuda` further down) stays the port item, as the import itself does."""
        for i, st in enumerate(body):
            if _imports_package(st, self.packages):
                if i + 1 < len(body):
                    self.add(body[i + 1], body[-1], choice="kernel")
                return

    def _requirement(self, test) -> bool:
        """A call of a function of the file that answers False on Neuron and raises on some path (a requirement
        check with an `abort` switch: OpenNMT's `check_sru_requirement()`)."""
        if type(test) is not ast.Call or type(test.func) is not ast.Name or test.func.id not in self.conds.func_defs:
            return False
        defs = self.conds.func_defs[test.func.id]
        return self.conds.never(test) and all(any(type(n) is ast.Raise for n in walk(d)) for d in defs)

    def _only_group_start(self, arm) -> bool:
        """The arm calls a process-group start (`[context.values] process-group-starts`) and the file starts no
        group anywhere else."""
        if self.group_starts is None:  # most files name no group start: no look at their calls at all
            named = any(self.ctx.may_name(s) for s in self.starts)
            self.group_starts = [n for n in self.ctx.calls() if _tail(n.func) in self.starts] if named else []
        if not self.group_starts:
            return False
        inside = {id(n) for top in arm for n in walk(top) if type(n) is ast.Call}
        return all(id(n) in inside for n in self.group_starts)

    def _skip_decorator(self, d) -> bool:
        """@unittest.skipIf(not torch.cuda.is_available(), ...), @pytest.mark.skipif(...), @skipUnless(cuda), an
        unconditional @pytest.mark.skip / @unittest.skip,
        @gpu_test(2), @requires_cuda, @withPackage("cudf"), names the catalogue vocabulary reads as a GPU requirement
        (@require_bitsandbytes, @pytest.mark.multi_gpu_tests, @_RunIf(min_cuda_gpus=1)), and the file's own
        `requires_x = pytest.mark.skipif(...)`."""
        func = d.func if type(d) is ast.Call else d
        name = _tail(func)
        if name in self.decorators or (type(func) is ast.Name and name in self.local_skips):
            return True
        if name == "skip" and type(func) is ast.Attribute and _tail(func.value) in ("mark", "unittest"):
            return True  # @pytest.mark.skip(reason=...), @unittest.skip(...): the test runs nowhere, Neuron included
        if type(func) is ast.Attribute and _tail(func.value) == "mark":
            if self.names.marker(name):
                return True
            if name == "usefixtures" and type(d) is ast.Call:
                return any(type(a) is ast.Constant and a.value in self.skip_fixtures for a in d.args)
        elif self.names.requirement(name):
            return True
        if type(d) is not ast.Call:
            return False
        if self.names.gpu_count(d):
            return True
        if name in ("skipIf", "skipif") and d.args:
            return self.conds.skip_needs_cuda(d.args[0]) or self._skips_cpu_for_gpu(d)
        if name == "skipUnless" and d.args:
            return self.conds.never(d.args[0]) or (
                type(d.args[0]) in (ast.Name, ast.Attribute) and bool(_CUDA_FLAG.search(_tail(d.args[0]))))
        if name == "withPackage":
            return any(type(a) is ast.Constant and isinstance(a.value, str)
                       and a.value.split(">")[0].split("=")[0].strip() in self.packages for a in d.args)
        return False

    def _skips_cpu_for_gpu(self, d: ast.Call) -> bool:
        """`@unittest.skipIf(F._default_context_str == "cpu", reason="NCCL only runs on GPU.")`: the test is skipped
        whenever the context it runs on is the CPU, and its reason says what it needs instead, a GPU (a word of
        `gpu-skip-reason-words`). A Trainium host runs such a suite on the CPU context (the test device is a
        CUDA-or-CPU switch), so the test runs nowhere there. A CPU comparison without such a reason (a test that
        skips the CPU for speed or for a missing CPU kernel) is not read as a GPU requirement."""
        cond = d.args[0]
        if not (type(cond) is ast.Compare and len(cond.ops) == 1 and type(cond.ops[0]) is ast.Eq
                and any(type(v) is ast.Constant and v.value == "cpu" for v in (cond.left, cond.comparators[0]))):
            return False
        reason = d.args[1] if len(d.args) > 1 else next((k.value for k in d.keywords if k.arg == "reason"), None)
        if type(reason) is not ast.Constant or not isinstance(reason.value, str):
            return False
        words = frozenset(w.lower() for w in self.values.get("gpu-skip-reason-words", ()))
        return any(w in words for w in re.findall(r"[a-z0-9]+", reason.value.lower()))

    def _cuda_only_classes(self, body) -> None:
        """`instantiate_device_type_tests(TestX, globals(), only_for=("cuda",))`: the test classes made for CUDA
        devices only. The generator makes no variant of them where CUDA is missing, so their bodies run for nobody
        there. A class handed to another generator call without that restriction, or that another class of the
        file derives from, is left out."""
        made: dict = {}
        for st in body:
            call = st.value if type(st) is ast.Expr else None
            if type(call) is ast.Call and call.args and type(call.args[0]) is ast.Name \
                    and "instantiate" in _tail(call.func).lower():
                made.setdefault(call.args[0].id, []).append(_cuda_variants_only(call))
        if not made:
            return
        bases = {_tail(b) for st in body if type(st) is ast.ClassDef for b in st.bases}
        for st in body:
            if type(st) is ast.ClassDef and st.name not in bases and all(made.get(st.name) or [False]):
                self.add(st, st)

    def _local_skips(self, body) -> frozenset:
        """Module names every assignment of which is a skip decorator: `requires_sm80 = pytest.mark.skipif(...)`."""
        found: dict = {}
        for s in body:
            if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name:
                found.setdefault(s.targets[0].id, []).append(s.value)
        return frozenset(n for n, vals in found.items() if all(self._skip_decorator(v) for v in vals))

    def _param_marks(self) -> None:
        """pytest.param(torch.device("cuda"), marks=_RunIf(min_cuda_gpus=1)): that parameter set only reaches
        test cases that are skipped on a Neuron machine (the other sets of the parametrize list still run)."""
        for call in self.ctx.calls():
            if _tail(call.func) != "param":
                continue
            for kw in call.keywords:
                if kw.arg == "marks":
                    marks = kw.value.elts if type(kw.value) in (ast.List, ast.Tuple) else [kw.value]
                    if any(self._skip_decorator(m) for m in marks):
                        self.add(call, call)

    def _switches(self, fn) -> set:
        """Test parameters that are True only in parameter sets skipped on a Neuron machine: in
        `@pytest.mark.parametrize("alibi, cuda", [(True, False), pytest.param(False, True, marks=<skip>)])` the
        test runs there only with `cuda=False`, so `if cuda:` never holds in a run that happens."""
        found: set = set()
        for d in fn.decorator_list:
            if type(d) is not ast.Call or _tail(d.func) != "parametrize" or not d.args:
                continue
            first = d.args[0]
            names: list = []
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names = [n.strip() for n in first.value.split(",")]
            elif isinstance(first, (ast.Tuple, ast.List)):
                names = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None
                         for e in first.elts]
            else:
                continue
            values = d.args[1] if len(d.args) > 1 else next((k.value for k in d.keywords if k.arg == "argvalues"), None)
            if not isinstance(values, (ast.List, ast.Tuple)):
                continue
            sets: list | None = []
            for item in values.elts:
                skipped = False
                if type(item) is ast.Call and _tail(item.func) == "param":
                    row = item.args
                    for kw in item.keywords:
                        if kw.arg == "marks":
                            marks = kw.value.elts if type(kw.value) in (ast.List, ast.Tuple) else [kw.value]
                            skipped = any(self._skip_decorator(m) for m in marks)
                elif len(names) > 1 and type(item) in (ast.Tuple, ast.List):
                    row = item.elts
                elif len(names) == 1:
                    row = [item]
                else:
                    row = None
                if row is None or len(row) != len(names) or sets is None:
                    sets = None
                    break
                sets.append((row, skipped))
            if not sets:
                continue
            for i, name in enumerate(names):
                column = [(row[i], skipped) for row, skipped in sets]
                if name and all(type(v) is ast.Constant and type(v.value) is bool for v, _ in column) and \
                        any(v.value for v, _ in column) and all(skipped for v, _ in column if v.value):
                    found.add(name)
        return found

    def _skipped_switches(self) -> None:
        """Branches on a test parameter that is True only in skipped parameter sets (`_switches`): guarded, the
        `if` and `x if cuda else y` forms alike; the switch is not a device choice that runs on Neuron."""
        for fn in _all_functions(self.ctx):
            names = self._switches(fn) if fn.decorator_list else set()
            if not names:
                continue
            self.spans += self._spans_with_flags(fn, names)

    def _called_switches(self, rounds: int = 3) -> None:
        """Switch parameters of a test module's functions (`def test_log_prob(self, cuda=False)`, `def
        make_data(cuda=False)`) that only calls never run on a Neuron machine turn on: every call of the function in
        the file passes an off value, leaves the default, hands on a switch that is off in the calling function, or
        sits in guarded code (`if torch.cuda.is_available(): self.test_log_prob(cuda=True)`, after `if not
        torch.cuda.is_available(): return`). The test runner calls a test with its defaults, and no other module
        imports a test module, so on Neuron every run has the switch off: its `if cuda:` arms and `x if cuda else y`
        values are guarded. A function whose name is used otherwise than called (a callback, `partial(f, cuda=True)`)
        is left alone."""
        by_name: dict = {}
        for fn in _all_functions(self.ctx):
            by_name.setdefault(fn.name, []).append(fn)
        # a name is judged only when every definition of it takes the same switches at the same places
        params: dict = {}
        for name, fns in by_name.items():
            # a parameter pytest or a decorator fills in (`@parametrize("cuda", [False, True])`) is no switch
            sw = [{p: i for p, i in switch_params(f).items() if p not in _parametrized(f)}
                  if not any(_fills_arguments(d) for d in f.decorator_list) else {} for f in fns]
            if sw[0] and all(s == sw[0] for s in sw) and len({is_method(f) for f in fns}) == 1:
                params[name] = (sw[0], is_method(fns[0]))
        if not params:
            return
        calls: dict = {}
        funcs: set = set()
        for c in self.ctx.calls():
            name = _tail(c.func)
            if name in params and type(c.func) in (ast.Name, ast.Attribute):
                calls.setdefault(name, []).append(c)
                funcs.add(id(c.func))
        for n in self.ctx.nodes(ast.Name):
            if n.id in params and id(n) not in funcs and type(n.ctx) is ast.Load:
                params.pop(n.id)
        for a in self.ctx.nodes(ast.Attribute):
            if a.attr in params and id(a) not in funcs:
                params.pop(a.attr)
        for name in [n for n in params if not n.startswith("test") and not calls.get(n)]:
            params.pop(name)  # no call in the file: an override a base class elsewhere calls, with values unseen here
        off: dict = {}  # function name -> its off switches
        for _ in range(rounds):
            now: dict = {}
            for name, (sw, method) in params.items():
                names = set()
                for p, index in sw.items():
                    if all(self._off_at(c, passed(c, p, index, method), off) for c in calls.get(name, ())):
                        names.add(p)
                if names:
                    now[name] = names
            if now == off:
                break
            off = now
        for name, names in off.items():
            for fn in by_name[name]:
                self.off_switches[id(fn)] = names
                self._walk_switched(fn, names)

    def _off_at(self, call, value, off: dict) -> bool:
        """The call passes an off value for the switch, or never runs on Neuron."""
        if off_value(value):
            return True
        if not unknown(value) and type(value) is ast.Name:
            fn = enclosing_function(self.ctx, call)
            if fn is not None and value.id in off.get(fn.name, ()) and value.id not in _rebound(fn):
                return True
        return self.holds((call.lineno, call.col_offset), "")

    def _walk_switched(self, fn, names: set) -> None:
        """Guard what a function runs only with one of its switches on."""
        self.switch_spans += self._spans_with_flags(fn, names - _rebound(fn))

    def _spans_with_flags(self, fn, names: set) -> list:
        """The spans of `fn` (statements and expressions) that run only when the flags `names` are true, as
        unconditional guards; the walker's own spans are left as they were."""
        saved, kept = self.conds.flags, self.spans
        self.conds.flags = set(saved) | names
        try:
            self.spans = []
            self.block(fn.body)
            found = self.spans
            for st in self.ctx.statements():
                if fn.lineno < st.lineno <= (fn.end_lineno or st.lineno):
                    found += self._expression_spans(st)
            return [(a, b, False) for a, b, _ in found]
        finally:
            self.spans = kept
            self.conds.flags = saved

    def _skip_statement(self, s) -> bool:
        """`pytest.importorskip("triton")` for a CUDA-only package, or a call of a function of this file that
        skips on a Neuron machine (`_require_cuda_and_kernel_deps()`): nothing after it runs."""
        call = s.value if type(s) in (ast.Expr, ast.Assign) else None
        if type(call) is not ast.Call:
            return False
        if type(call.func) is ast.Name and call.func.id in self.skip_funcs:
            return True
        return _tail(call.func) == "importorskip" and bool(call.args) and type(call.args[0]) is ast.Constant \
            and isinstance(call.args[0].value, str) and call.args[0].value.split(".")[0] in self.packages

    def _skips_first(self, fn) -> bool:
        """The function skips (pytest.skip, skipTest, importorskip, a skipping helper) on a Neuron machine before
        it can return: a top-level statement does so and no earlier one holds a return."""
        for i, st in enumerate(fn.body):
            if self._skip_statement(st) or (
                    type(st) is ast.If and self.conds.always(st.test) and _exits(st.body) == "skip"):
                return _returns(fn, self.conds.memo)[0] >= i  # walked only for the few functions that skip
        return False

    def _skipping_functions(self, defs) -> None:
        """Functions and pytest fixtures of the file that skip the test using them on a Neuron machine; a fixture
        that takes such a fixture skips too. Bounded: a few rounds, a chain of helpers is short."""
        fixtures = [f for f in _all_functions(self.ctx) if _fixture_name(f)]
        for _ in range(3):
            funcs = {d.name for d in defs if type(d) is not ast.ClassDef and self._skips_first(d)}
            named: dict = {}
            for f in fixtures:
                named.setdefault(_fixture_name(f), []).append(
                    self._skips_first(f) or any(a.arg in self.skip_fixtures for a in _params(f)))
            fixtures_now = {n for n, verdicts in named.items() if all(verdicts)}
            if funcs == self.skip_funcs and fixtures_now == self.skip_fixtures:
                break
            self.skip_funcs, self.skip_fixtures = funcs, fixtures_now

    def _takes_skipping_fixture(self, fn) -> bool:
        if not self.skip_fixtures:
            return False
        taken = {a.arg for a in _params(fn)} & self.skip_fixtures
        return bool(taken - _parametrized(fn))  # a parametrized argument overrides the fixture of that name

    def _autouse_skips(self, body) -> bool:
        """An autouse fixture of this module (or class) that skips: every test of it skips."""
        for s in body:
            if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and _fixture_name(s) in self.skip_fixtures:
                for d in s.decorator_list:
                    if type(d) is ast.Call and any(k.arg == "autouse" and type(k.value) is ast.Constant
                                                   and k.value.value is True for k in d.keywords):
                        return True
        return False

    def _module_skipped(self, body) -> bool:
        """pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), ...) (or a list holding one)."""
        for s in body:
            if type(s) is ast.Assign and any(type(t) is ast.Name and t.id == "pytestmark" for t in s.targets):
                marks = s.value.elts if type(s.value) in (ast.List, ast.Tuple) else [s.value]
                if any(self._skip_decorator(m) for m in marks):
                    return True
        return self._autouse_skips(body)

    def _setup_skips(self, cls: ast.ClassDef) -> bool:
        """A test class whose setUp skips without CUDA: `if not torch.cuda.is_available(): self.skipTest(...)`, in
        its own body or inherited from a class of this file (fairscale-style `class TestX(DistributedTest)`, the
        base raising `unittest.SkipTest` without two GPUs): every test of the subclass is skipped too."""
        return bool(self._skipping_setups(cls, 0))

    def _skipping_setups(self, cls: ast.ClassDef, depth: int) -> set:
        """The setUp-like methods (`_SETUPS`) of the class, own or inherited, that skip on a Neuron machine. An
        override that does not call the base's method (`super().setUp()`) drops the base's skip."""
        own = {s.name: s for s in cls.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name in _SETUPS}
        found = {name for name, s in own.items() if any(
            type(st) is ast.If and self.conds.always(st.test) and _exits(st.body) == "skip" for st in s.body)}
        if depth < 4:
            for b in cls.bases:
                base = self.classes.get(_tail(b))
                if base is None or base is cls:
                    continue
                found |= {n for n in self._skipping_setups(base, depth + 1)
                          if n not in own or calls_base_method(own[n])}
        return found

def _api_or_noop(api, other, contexts: frozenset = frozenset()) -> bool:
    """`torch.cuda.synchronize if device_type == "cuda" else lambda: None`, `torch.cuda.max_memory_allocated if ...
    else lambda: 0`: a CUDA function picked against a no-op. On Neuron the no-op is what runs (timings without a
    sync, a memory peak of 0), silently, where the Neuron equivalent exists: the pick is a change, not a guard.
    A value the arm computes (`torch.cuda.current_device() if ... else None`) is no such pick and stays guarded.
    The same for a context manager of `[context.values] noop-pick-contexts` picked against `nullcontext()`
    (`torch.amp.autocast(...) if device_type == "cuda" else nullcontext()`: no mixed precision on Neuron)."""
    if type(api) is ast.Call and type(other) is ast.Call and not other.args and _tail(other.func) == "nullcontext":
        return _tail(api.func) in contexts
    return type(api) is ast.Attribute and type(other) is ast.Lambda and type(other.body) is ast.Constant


def _placement_subject(test):
    """The tensor a placement question asks about (`x` of `x.is_cuda`, of `x.device.type == "cuda"`), or None: a
    question about where a tensor lives, not about the machine."""
    if type(test) is ast.Attribute and test.attr == "is_cuda":
        return test.value
    if type(test) is ast.Compare:
        return next((o.value.value for o in (test.left, *test.comparators) if type(o) is ast.Attribute
                     and o.attr == "type" and type(o.value) is ast.Attribute and o.value.attr == "device"), None)
    return None


def placement_flags(ctx) -> dict:
    """name -> [(first line, last line, question)] of the local flags a function binds once to a placement question
    (`model_on_cuda = next(model.parameters()).is_cuda`): a later `if model_on_cuda:` asks the same question.
    Read from the file's assignments first (most files have no such question), then only the functions holding one."""
    cands = [a for a in ctx.nodes(ast.Assign) if len(a.targets) == 1 and type(a.targets[0]) is ast.Name
             and _placement_subject(a.value) is not None]
    if not cands:
        return {}
    fns = [f for kind in (ast.FunctionDef, ast.AsyncFunctionDef) for f in ctx.nodes(kind)]
    out: dict = {}
    for a in cands:
        # the innermost function holding the assignment
        fn = min((f for f in fns if f.lineno <= a.lineno <= (f.end_lineno or f.lineno)),
                 key=lambda f: (f.end_lineno or f.lineno) - f.lineno, default=None)
        if fn is None:
            continue
        name = a.targets[0].id
        if value_bound_once(fn, name) is a.value:
            out.setdefault(name, []).append((fn.lineno, fn.end_lineno or fn.lineno, a.value))
    return out


def never_test(ctx):
    """neuron-guarded's test of a condition false on every Neuron machine (`torch.cuda.is_available()`,
    `device.type == "cuda"`), read with this file's flags; None when the file has no spans fact."""
    spans = ctx.fact("neuron-guarded", _spans)
    return spans.conds.never if spans is not None else None


def _case_test(subject, case):
    """The test a `case` of a `match` stands for when its pattern is a literal or an `|` of literals and it has no
    guard (`case "cuda":` -> `subject == "cuda"`, `case "cuda" | "gpu":` -> `subject in ("cuda", "gpu")`), else None."""
    if case.guard is not None:
        return None
    pats = case.pattern.patterns if type(case.pattern) is ast.MatchOr else [case.pattern]
    values = [p.value for p in pats if type(p) is ast.MatchValue and type(p.value) is ast.Constant]
    if not values or len(values) != len(pats):
        return None
    if len(values) == 1:
        return ast.copy_location(ast.Compare(left=subject, ops=[ast.Eq()], comparators=[values[0]]), case.pattern)
    elts: list[ast.expr] = list(values)
    return ast.copy_location(ast.Compare(left=subject, ops=[ast.In()], comparators=[ast.Tuple(elts=elts,
                                                                                             ctx=ast.Load())]),
                             case.pattern)


def _placement_move(st: ast.If, flags=None) -> bool:
    """`zeros = torch.zeros(n)` / `if x.is_cuda: zeros = zeros.cuda()` (no else, or an else putting the same names on
    the host, in either order of the arms: session 47): a new value is moved beside a
    tensor by asking where that tensor lives. On Neuron the tensor is on the neuron device, the test is False and the
    value stays on the host, to meet the device tensor in the next operation (a2c-ppo-acktr's AddBias and KFAC
    factors): the move is a change (`torch.zeros(n, device=x.device)`), not a guarded arm. The question may be held
    in a local flag (`placement_flags`: `on_cuda = next(model.parameters()).is_cuda` / `if on_cuda: x = x.cuda()`,
    SimpleAICV's evaluation loops)."""
    test = st.test
    # `if x.is_cuda and not self.params.is_cuda: self.params = self.params.cuda()` (torch_robotics' envs): the other
    # operands only ask whether the value to move is already there; the question about `x` decides
    moved_too: list = []
    if type(test) is ast.BoolOp and type(test.op) is ast.And and not st.orelse:
        asks = [v for v in test.values if _placement_subject(v) is not None]
        if len(asks) != 1:
            return False
        moved_too = [v for v in test.values if v is not asks[0]]
        test = asks[0]
    negated = type(test) is ast.UnaryOp and type(test.op) is ast.Not
    if negated:
        test = test.operand
    if type(test) is ast.Name and flags is not None:
        test = next((q for first, last, q in flags().get(test.id, ()) if first <= st.lineno <= last), test)
    asked = _placement_subject(test)
    if asked is None:
        return False
    # With both arms (`if not prediction.is_cuda: target = target.cpu()` / `else: target = target.cuda(ordinal)`,
    # inferno's metrics): on Neuron the host arm runs and puts the value on the CPU beside a device tensor, so the
    # CUDA arm's move is the change as well, when the host arm only binds the same names
    cuda_arm, host_arm = (st.orelse, st.body) if negated else (st.body, st.orelse)
    if not cuda_arm or host_arm and not _host_arm(host_arm, cuda_arm):
        return False
    # `if x.is_cuda: x = x.half().cuda()` moves the tensor asked about: already where it is, nothing is left behind;
    # `images, masks = images.cuda(), masks.cuda()` moves each
    def moved(v) -> bool:
        return type(v) is ast.Call and type(v.func) is ast.Attribute and v.func.attr == "cuda"

    shown = ast.unparse(asked)
    if moved_too:
        targets = {ast.unparse(t) for b in cuda_arm if type(b) is ast.Assign for t in b.targets}
        if not all(_asks_where(v, targets) for v in moved_too):
            return False
    return all(type(b) is ast.Assign and (moved(b.value) or type(b.value) is ast.Tuple and b.value.elts
                                          and all(moved(v) for v in b.value.elts))
               and all(ast.unparse(t) != shown for t in b.targets) for b in cuda_arm)


def _asks_where(v, targets: set) -> bool:
    """`not self.params.is_cuda` (or `self.params.device != x.device`) about one of the names the arm moves."""
    if type(v) is ast.UnaryOp and type(v.op) is ast.Not:
        v = v.operand
    subject = _placement_subject(v)
    if subject is None and type(v) is ast.Compare and len(v.ops) == 1 and type(v.ops[0]) in (ast.NotEq, ast.IsNot):
        subject = next((o.value for o in (v.left, *v.comparators) if type(o) is ast.Attribute and o.attr == "device"
                        and ast.unparse(o.value) in targets), None)
    return subject is not None and ast.unparse(subject) in targets


def _host_arm(arm: list, other: list) -> bool:
    """Every statement of `arm` puts a value on the host (`target.cpu()`, `torch.LongTensor(idx)`, a torch factory
    given no device) under the names `other`'s assignments bind, and nothing else. (`else: y = y.float()` leaves `y`
    where it was: no host value meets the device tensor there.)"""
    def names(stmts):
        return {ast.unparse(t) for b in stmts if type(b) is ast.Assign for t in b.targets}

    def host(v) -> bool:
        if _moved_to_host(v):
            return True
        name = dotted(v.func) if type(v) is ast.Call else ""
        return name.startswith("torch.") and name.count(".") == 1 and name[6:] in _FACTORIES \
            and not any(k.arg == "device" for k in v.keywords)
    return all(type(b) is ast.Assign and host(b.value) for b in arm) and names(arm) == names(other)


def _placement_type_pick(node: ast.IfExp, types: frozenset) -> bool:
    """`Tensor = torch.cuda.FloatTensor if mu.is_cuda else torch.FloatTensor`: a CUDA tensor type picked against
    the CPU one by where a tensor lives, to build new tensors beside it. On Neuron the tensor is on the neuron
    device, the test is False and the CPU type builds CPU tensors that then meet device tensors: the pick is a
    change, not a guard. No availability check is reported for such a test (it asks a tensor, not the machine),
    so the CUDA type is the finding. A pick by `torch.cuda.is_available()` stays guarded (its check is reported)."""
    if _placement_subject(node.test) is None or dotted(node.body) not in types:
        return False
    other = dotted(node.orelse)
    return other.startswith("torch.") and other.endswith("Tensor") and ".cuda." not in other


def _spans(ctx):
    if ctx.tree is None:
        return None
    return _Spans(ctx).run(ctx.tree)


def guarded_at(ctx, pos: tuple, category: str, kinds) -> bool:
    """Whether the code at pos (line, column offset) runs only when a condition is false on Neuron. A device
    string picked in one expression (`"cuda" if torch.cuda.is_available() else "cpu"`, a matcher of kind `device`)
    stays a finding; in an if/else the check is the finding and the arm is guarded, except a process-group backend
    when the other arm goes on with another one (`backend = "nccl"` / `else: backend = "gloo"`)."""
    spans = ctx.fact("neuron-guarded", _spans)
    if spans is None:
        return False
    kept = ctx.values.get("requirement-kept-categories", ())
    return spans.holds(pos, "backend" if category == "distributed-backend" else "device" if "device" in kinds
                       else "kernel" if category in kept else "")


@predicate("neuron-guarded", effect="guard")
def neuron_guarded(ctx, hit) -> bool:
    """Code that runs only when a condition is false on a Neuron machine: the body of
    `if torch.cuda.is_available():`, `if x.device.type == "cuda":`, `if x.is_cuda:`, `if torch.version.hip:`,
    `if CUDA_HOME is not None:` (torch.utils.cpp_extension's, in a setup.py),
    optional TPU paths (`if is_torch_xla_available():`), flags assigned from such checks
    (`_SUPPORTS_FLEX = torch.cuda.is_available() and ...` then `if _SUPPORTS_FLEX:`), everything after
    `if not torch.cuda.is_available(): return` (or a test skip, or `raise ImportError`; a program that raises or
    exits without CUDA has no other path, and its CUDA code stays a finding), and tests that skip without
    CUDA (`@unittest.skipIf(not torch.cuda.is_available(), ...)`, `@pytest.mark.skipif(...)`, a module
    `pytestmark`, a `setUp` that calls skipTest, project decorators listed in `cuda-test-decorators`,
    `@withPackage("cudf")` for packages in `cuda-only-packages`), project skips read by name from the catalogue
    vocabulary (`@require_bitsandbytes`, `@pytest.mark.multi_gpu_tests`, `@_RunIf(min_cuda_gpus=1)`, `has_triton()`
    in tests), `pytest.param(..., marks=<skip>)`, the file's own skip definitions, checks, skipping helpers and
    fixtures, and test-module helpers used only by such tests. Such findings are marked guarded.

    The condition itself is never guarded: it picks the device, and on Trainium that choice silently falls back
    to the CPU. In an if/else it is the finding and the arm it never takes is guarded (`if torch.cuda.device_count():
    device = "cuda"`, `if backend == "nccl": device = torch.device("cuda")`); a device string picked in one
    expression (`"cuda" if torch.cuda.is_available() else "cpu"`) stays with its check, and a process-group backend
    stays when the other arm starts the group with another one."""
    node = hit.node
    category = hit.rule.category
    if hit.rule.id in ctx.values.get("no-cpu-path-rules", ()) and _in_if_body(ctx, node) \
            and not _in_multi_device_arm(ctx, node) and _moves_unconditionally(ctx):
        return False
    if category == "distributed-backend" and not any(p.op in ("equals", "in") for p in hit.matcher.args):
        # The kept-backend exception is about a value the arm picks (`backend = "nccl"`, else "gloo": the group
        # still starts). A call that exists only in the CUDA arm (DDP with device_ids) never runs on Neuron.
        category = ""
    return guarded_at(ctx, (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)), category,
                      (hit.matcher.kind,))


def _moves_unconditionally(ctx) -> bool:
    """The file (outside test scope) also calls `.cuda()` where no check guards it (`model =
    DataParallel(model).cuda()` beside `if use_cuda: inputs = inputs.cuda()`): the program has no working path
    without CUDA, so once that move is ported to the Neuron device, the moves under the check must follow it or the
    inputs stay on the CPU. Those moves are items then, not code a Neuron machine skips (bearpaw's
    pytorch-classification, SupContrast's main_ce.py; blind40)."""
    def compute(c) -> bool:
        if classify(c.path) == "test":
            return False
        for call in c.calls():
            f = call.func
            if type(f) is ast.Attribute and f.attr == "cuda" and not _in_any_if(c, call) and not guarded_at(
                    c, (call.lineno, call.col_offset), "cuda-device", ("method",)):
                return True
        return False
    return ctx.fact("neuron-guarded:moves-unconditionally", compute)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module, ast.Lambda)


def _in_any_if(ctx, node) -> bool:
    """The node sits in an `if` statement or a conditional expression of its function (any arm, any test): a
    move that runs on some condition (`if self.device.type == "cuda": model.cuda()`) is no unconditional one."""
    p = ctx.parent(node)
    while p is not None and not isinstance(p, _SCOPES):
        if isinstance(p, (ast.If, ast.IfExp)):
            return True
        p = ctx.parent(p)
    return False


def _in_if_body(ctx, node) -> bool:
    """The node sits in the body of an `if` of its function (`if use_cuda: inputs = inputs.cuda()`), not merely
    after an early exit (`if not torch.cuda.is_available(): return`), which guards what follows for another reason."""
    child, p = node, ctx.parent(node)
    while p is not None and not isinstance(p, _SCOPES):
        if isinstance(p, ast.If) and child in p.body:
            return True
        child, p = p, ctx.parent(p)
    return False


def _multi_device_test(t, count_names: frozenset) -> bool:
    """`torch.cuda.device_count() > 1` (check-without-placement's reading, also as an operand of an `and`), or the same
    comparison of a process-count name of `single-process-count-keys` (`n_gpu > 1`): a test that asks for more than
    one device. Its `else` is the one-device run, a working path of its own whatever else the file moves to CUDA."""
    if _asks_for_several_devices(t):
        return True
    for v in t.values if type(t) is ast.BoolOp and type(t.op) is ast.And else [t]:
        if type(v) is ast.Compare and len(v.ops) == 1 and type(v.comparators[0]) is ast.Constant \
                and (type(v.ops[0]) is ast.Gt and v.comparators[0].value == 1
                     or type(v.ops[0]) is ast.GtE and v.comparators[0].value == 2) \
                and _tail(v.left).lower() in count_names:
            return True
    return False


def _in_multi_device_arm(ctx, node) -> bool:
    """The node sits in the body of an `if` of its function that asks for more than one device (`if
    torch.cuda.device_count() > 1: model = nn.DataParallel(model)`): the run with one device skips it on any machine,
    so `no-cpu-path-rules` does not make it an item (fresh76: five DataParallel arms read as skipped code)."""
    names = frozenset(k.lower() for k in ctx.values.get("single-process-count-keys", ()))
    child, p = node, ctx.parent(node)
    while p is not None and not isinstance(p, _SCOPES):
        if isinstance(p, ast.If) and child in p.body:
            return _multi_device_test(p.test, names)
        child, p = p, ctx.parent(p)
    return False


# Keywords of device-type test generators naming the devices a test is made for (torch's only_for, thunder's
# devicetypes): a test made for CUDA only has no variant on a host without CUDA.
_DEVICE_TYPES_KEYWORD = re.compile(r"only_for|device_?types?", re.I)


def _cuda_variants_only(d) -> bool:
    """A device-type test generator told to make CUDA variants only (`@instantiate(devicetypes=(DeviceType.CUDA,))`,
    `only_for=("cuda",)`): no variant of the test exists on a host without CUDA. Asked of a test's decorators
    only: `@torch.autocast(device_type="cuda")` or a custom op's `device_types="cuda"` decorate code that runs."""
    return type(d) is ast.Call and any(
        k.arg and _DEVICE_TYPES_KEYWORD.fullmatch(k.arg) and _only_cuda(k.value) for k in d.keywords)


def _only_cuda(v) -> bool:
    items = v.elts if type(v) in (ast.Tuple, ast.List, ast.Set) else [v]
    return bool(items) and all(
        (type(e) is ast.Constant and isinstance(e.value, str) and e.value.lower().split(":")[0] in ("cuda", "gpu"))
        or (type(e) is ast.Attribute and e.attr.lower() in ("cuda", "gpu")) for e in items)
