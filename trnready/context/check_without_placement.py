"""check-without-placement: a CUDA availability check whose branch places nothing on a device."""
from __future__ import annotations

import ast
import re

from ._gpu_rerun import gpu_rerun
from ._load_location import picks_load_location
from ._test_skips import _catches_import_error, is_test_module
from .base import dotted, enclosing_function, is_cpu, parent_of, places_on_device, predicate
from ..astwalk import walk

# The queries that answer "is there a CUDA device (of this kind)?" rather than act on one.
_QUERIES = frozenset({"is_available", "device_count", "is_bf16_supported", "get_device_capability",
                      "is_initialized"})
# Calls that pick a device or start the process group (besides `.cuda()` / `.to(device)` / `device=`, which
# places_on_device knows): a branch that makes one picks the device.
_PLACING = frozenset({"set_device", "device", "init_process_group", "DataParallel", "DistributedDataParallel",
                      "autocast", "GradScaler", "set_default_tensor_type", "set_default_dtype",
                      "set_default_device"})
# Keywords whose value only says how host memory is handled: a check passed there picks no device (on Neuron the
# loader simply does not pin).
_HOST_ONLY_KEYWORDS = frozenset({"pin_memory", "pin_mem"})
# Optimizer implementation switches whose False is the portable choice: `AdamW(..., fused=torch.cuda.is_available())`
# runs the plain (for-loop) implementation on Neuron, which is what the port wants (KempnerForge's Muon, fresh67)
_KERNEL_CHOICE_KEYWORDS = frozenset({"fused", "foreach"})
# Precisions a branch may choose (`torch_type = torch.bfloat16` if the GPU supports it, else float16): on Neuron
# the query answers False and the other branch's precision is silently used.
_DTYPES = frozenset({"bfloat16", "float16", "half", "bf16", "fp16", "16-mixed", "bf16-mixed"})


def _places(nodes) -> bool:
    """The statements move or create something on a device, pick a device or backend, or leave the function
    (`return "cuda"`, `raise`, `sys.exit`: a gate that stops the program on Neuron)."""
    for top in nodes:
        for n in walk(top):
            if isinstance(n, ast.Assert) and _version_requirement(n.test):
                continue  # `assert digit_version(mmcv.__version__) >= ...`: a dependency's version, not a device gate
            if isinstance(n, (ast.Return, ast.Raise, ast.Assert)):
                return True
            if isinstance(n, ast.Call):
                f = n.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name in ("exit", "skip", "skipTest"):
                    return True
                if places_on_device(n) or name in _PLACING:
                    return True
                for k in n.keywords:
                    if k.arg in ("device_map", "backend", "accelerator", "devices") and not is_cpu(k.value):
                        return True
            elif isinstance(n, ast.Attribute) and n.attr.endswith("Tensor") \
                    and dotted(n.value) in ("torch.cuda", "cuda"):
                # `torch.cuda.FloatTensor(n, 1).fill_(1)` beside `torch.FloatTensor(n, 1)` in the other arm, or
                # `.type(torch.cuda.LongTensor)`: the query picks where new tensors are built (pytorch_models'
                # multimodal fusion, blind77); on Neuron the host arm's tensors meet device ones
                return True
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                low = n.value.lower()
                if low in ("cuda", "gpu", "nccl") or low.startswith("cuda:"):
                    return True
            elif isinstance(n, ast.Assign) and _dtype_value(n.value):
                return True  # `torch_type = torch.bfloat16`: the query picks the precision
            elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) \
                    and dotted(n.value.func).rsplit(".", 1)[-1] == "device_count":
                return True  # `n_gpus = torch.cuda.device_count()` else 1: the query picks how many workers run
            elif isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Store):
                target = n.id if isinstance(n, ast.Name) else n.attr
                if any(word in target.lower() for word in ("device", "backend", "parallel")):
                    return True  # `model.model_parallel = True`: the query picks how the model is spread
    return False


def _several_devices(test) -> bool:
    """`torch.cuda.device_count() > 1` (or `>= 2`): the test asks for more than one device, not for any."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Call)
            and dotted(test.left.func).rsplit(".", 1)[-1] == "device_count"):
        return False
    right = test.comparators[0]
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return False
    return isinstance(test.ops[0], ast.Gt) and right.value == 1 or isinstance(test.ops[0], ast.GtE) and right.value == 2


def _asks_for_several_devices(test) -> bool:
    """`torch.cuda.device_count() > 1`, alone or as one operand of an `and` (`if cuda and RANK == -1 and
    torch.cuda.device_count() > 1:`): the branch runs only with more than one GPU, whatever else it asks."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(map(_several_devices, test.values))
    return _several_devices(test)


# CUDA memory and load statistics: a value shown or logged, never a device
_STATISTICS = frozenset({"memory_allocated", "memory_reserved", "memory_cached", "max_memory_allocated",
                         "max_memory_reserved", "max_memory_cached", "mem_get_info", "memory_stats", "utilization"})


# CUDA queries whose answer describes the GPU or its state, never a device to place on: the name and properties
# shown in a run's metadata, the RNG state saved beside a checkpoint, a cache emptied (no `current_device`: an index)
_DESCRIPTIONS = frozenset({"get_device_name", "get_device_properties", "get_device_capability", "get_rng_state",
                           "get_rng_state_all", "empty_cache", "synchronize", "get_arch_list"})


def _statistic_or_zero(e: ast.IfExp) -> bool:
    """`torch.cuda.memory_reserved() / 1e9 if torch.cuda.is_available() else 0`: the CUDA arm reads a memory
    statistic (arithmetic on it at most) and the other arm is a constant number or None. On Neuron the progress
    line shows 0; nothing is placed or picked. Also (session 56) `torch.cuda.get_device_name(0) if
    torch.cuda.is_available() else None` (or `"cpu"`), `torch.cuda.get_rng_state_all() if ... else None`,
    `torch.cuda.empty_cache() if ... else None`: a description of the GPU for a run's metadata, state saved with a
    checkpoint, a cache emptied; the other arm is a constant (ten recall labels and precision verdicts, all
    look-alikes or wrong findings: kgcnn-torch, VAE-TEB, AMP_pytorch, blind82)."""
    other = e.orelse
    if not isinstance(other, ast.Constant):
        return False
    names = _STATISTICS
    if other.value is None or type(other.value) is str:
        names = _STATISTICS | _DESCRIPTIONS if other.value is None else _DESCRIPTIONS
    elif type(other.value) in (int, float):
        names = _STATISTICS | {"get_device_properties"}  # `.total_memory / 2**30 if ... else 0`
    else:
        return False
    calls = [n for n in walk(e.body) if isinstance(n, ast.Call)]
    return bool(calls) and all(dotted(c.func).rsplit(".", 1)[-1] in names for c in calls) and all(
        isinstance(n, (ast.Call, ast.Attribute, ast.Name, ast.Constant, ast.BinOp, ast.operator, ast.Load,
                       ast.UnaryOp, ast.unaryop)) for n in walk(e.body))


def _only_wraps_data_parallel(body, shows: frozenset) -> bool:
    """Every statement of the block rewraps a name in DataParallel (`model = nn.DataParallel(model)`, with device
    ids at most) or only shows something (a call of `output-functions`): with one device (none on Neuron) the module
    runs unwrapped on the device the code moves it to next, which a finding of its own reports."""
    seen = False
    for st in body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.value, ast.Call) \
                and dotted(st.value.func).rsplit(".", 1)[-1] == "DataParallel":
            seen = True
            continue
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) \
                and dotted(st.value.func).rsplit(".", 1)[-1] in shows:
            continue
        return False
    return seen


def _target_name(t) -> str:
    """The name an assignment writes: `x`, `self.x`, `opts["x"]` -> x (lower case); "" otherwise."""
    if isinstance(t, ast.Name):
        return t.id.lower()
    if isinstance(t, ast.Attribute):
        return t.attr.lower()
    if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
        return t.slice.value.lower()
    return ""


def _version_requirement(test) -> bool:
    """`digit_version(mmcv.__version__) >= digit_version("1.4.4")`: a comparison of a package's `__version__` with
    a version string. Without CUDA the program asks for a newer library (the CPU path's need); Neuron runs that path,
    and nothing about a device is chosen by the check."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    names = [x for x in walk(test) if isinstance(x, ast.Attribute) and x.attr == "__version__"]
    strings = [x for x in walk(test) if isinstance(x, ast.Constant) and isinstance(x.value, str)]
    return bool(names) and all(any(ch.isdigit() for ch in str(c.value)) and "cuda" not in str(c.value).lower()
                               for c in strings)


def _dtype_value(v) -> bool:
    if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "torch":
        return v.attr in _DTYPES
    return isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.lower() in _DTYPES


@predicate("check-without-placement", kinds=("reference",), effect="guard")
def check_without_placement(ctx, hit) -> bool:
    """A CUDA availability query (`torch.cuda.is_available()`, `device_count()`, `is_bf16_supported()`,
    `get_device_capability()`) that is the test, or part of the test, of an `if` statement whose branches
    place nothing: they only read memory statistics, log, check NVLink or fingerprint a cache. On Neuron
    the query answers False, the CUDA-only branch is skipped (and guarded by `neuron-guarded`), and nothing
    silently stays on the CPU. The check stays a finding when a branch moves or creates something on a
    device (`.cuda()`, `.to(device)`, `device=`), sets the default tensor type, dtype or device, assigns a
    device count (`n_gpus = torch.cuda.device_count()`: how many workers to start), a device, backend or half
    precision
    (`torch_type = torch.bfloat16`: on Neuron the other branch's precision is used), starts the process group,
    returns, raises or asserts (a gate that stops the program on Neuron), when the arm Neuron takes sets a name
    to None or False (`bg_upsampler = None`: a feature switched off without CUDA), and when the query is a value
    (`x if torch.cuda.is_available() else y`, a flag, an argument): that is a device pick. A flag nobody reads
    (`self.sync_cuda = torch.cuda.is_available()` with no `.sync_cuda` read in the file, a local never loaded)
    picks nothing either and is guarded, and so is a query whose answer is only printed or logged
    (`print("CUDA:", torch.cuda.is_available())`, a call named in `output-functions`). In a test module, a query
    that only adds a CUDA variant to the devices a test loops over (`["cpu"] + (["cuda"] if
    torch.cuda.is_available() else [])`, `if torch.cuda.is_available(): devices.append("cuda")`) picks nothing:
    the CPU variant runs on Neuron and the CUDA one is never made there; nor does `if torch.cuda.is_available():`
    with no other arm in a test function whose block leaves nothing the test reads later (it repeats the test on the
    GPU: `_gpu_rerun.py`). A query passed as `pin_memory=`, or assigned to a name, attribute or key of that name
    (`self.pin_memory = loader.pin_memory and torch.cuda.is_available()`), chooses only whether host memory is
    page-locked; so does a query picking between DataLoader host options (`{'num_workers': 1, 'pin_memory': True} if
    torch.cuda.is_available() else {}`). `if torch.cuda.device_count() > 1: model = nn.DataParallel(model)` with no
    other arm only spreads a module over several GPUs: with one device, or none on Neuron, the module runs
    unwrapped. A query that only decides where `torch.load` maps a checkpoint (`map_location = None if
    torch.cuda.is_available() else 'cpu'`, torchreid's loader; an if / else of two loads, the arm Neuron takes
    mapping to the CPU) places it on the host, which is right on Trainium (`_load_location.py`)."""
    node = hit.node
    call = parent_of(ctx, node)
    if not (isinstance(call, ast.Call) and call.func is node and dotted(node).rsplit(".", 1)[-1] in _QUERIES):
        return False
    cur: ast.expr = call
    up = parent_of(ctx, call)
    while isinstance(up, (ast.BoolOp, ast.UnaryOp, ast.Compare)):
        cur, up = up, parent_of(ctx, up)
    if isinstance(up, ast.Assign) and up.value is cur and len(up.targets) == 1:
        if _target_name(up.targets[0]) in _HOST_ONLY_KEYWORDS:
            return True  # `self.pin_memory = loader.pin_memory and torch.cuda.is_available()` (RCAN's loader)
        return _never_read(ctx, up.targets[0]) or _only_tested(ctx, up.targets[0])
    if _only_shown(ctx, cur, up):
        return True
    if isinstance(up, ast.keyword) and up.arg in _HOST_ONLY_KEYWORDS | _KERNEL_CHOICE_KEYWORDS and up.value is cur:
        return True  # `DataLoader(..., pin_memory=torch.cuda.is_available())`: page-locked host memory or not
    if isinstance(up, (ast.IfExp, ast.If)) and up.test is cur and picks_load_location(ctx, call, cur, up):
        return True  # `map_location = None if torch.cuda.is_available() else 'cpu'`: the host on Neuron
    if isinstance(up, ast.IfExp) and up.test is cur:
        return _in_text(ctx, up) or _option_lists(up.body, up.orelse) or _loader_options(up.body, up.orelse) or \
            _runtime_providers(up.body, up.orelse) or (
            _no_op_context(up.orelse) and not _places([up.body])) or _statistic_or_zero(up) or (
            cur is call and _cuda_list(up.body) and _empty_list(up.orelse) and is_test_module(ctx.path))
    if not (isinstance(up, ast.If) and up.test is cur):
        return False
    if _asks_for_several_devices(cur) and not up.orelse and _only_wraps_data_parallel(
            up.body, frozenset(ctx.values.get("output-functions", ()))):
        return True  # `if torch.cuda.device_count() > 1: model = nn.DataParallel(model)`: one device runs unwrapped
    if cur is call and not up.orelse and is_test_module(ctx.path) and _adds_cuda_variant(up.body):
        return True
    if cur is call and not up.orelse and is_test_module(ctx.path) and gpu_rerun(ctx, up):
        return True  # `# test on gpu`: the block repeats the test on CUDA and leaves nothing the test reads later
    if not _places(up.body + up.orelse):
        return not _switches_off(up, cur)
    if _optional_kernel_or_fallback(ctx, up):
        return True
    if _after_missing_package(ctx, up):
        return True
    return _pick_only_compared(ctx, up)


def _optional_names(stmts) -> set:
    """Names bound by imports inside a `try:` whose handler catches ImportError, among these statements (not
    inside functions or classes)."""
    out: set = set()
    for st in stmts:
        if isinstance(st, ast.Try) and any(h.type is not None and _catches_import_error(h) for h in st.handlers):
            for n in st.body:
                if isinstance(n, (ast.Import, ast.ImportFrom)):
                    out.update((a.asname or a.name).split(".", 1)[0] for a in n.names)
    return out


class _Unreturn(ast.NodeTransformer):
    def visit_Return(self, node):
        return ast.Expr(value=node.value) if node.value is not None else ast.Pass()


def _optional_kernel_or_fallback(ctx, up: ast.If) -> bool:
    """`if not export and torch.cuda.is_available(): try: from apex.normalization import FusedLayerNorm; return
    FusedLayerNorm(...) / except ImportError: pass` then `return torch.nn.LayerNorm(...)` (fairseq's LayerNorm,
    copied into DiffSinger and many TTS code bases): the query chooses an optional CUDA library's kernel over the
    plain module the function returns after the `if`. On Neuron the plain module is what runs, which is the port's
    answer; the check picks no device. Every `return` of the arm must return a construction of a name imported
    under `except ImportError` (in the arm or at module level), nothing else in the arm may place, and the
    statement after the `if` must return."""
    if up.orelse:
        return False
    optional = _optional_names(up.body) | _optional_names(getattr(ctx.tree, "body", []))
    returns = [n for st in up.body for n in walk(st) if isinstance(n, ast.Return)]
    if not optional or not returns or not all(
            isinstance(r.value, ast.Call) and dotted(r.value.func).split(".", 1)[0] in optional for r in returns):
        return False
    import copy

    if _places([_Unreturn().visit(copy.deepcopy(st)) for st in up.body]):
        return False
    block = parent_of(ctx, up)
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(block, field, None)
        if isinstance(stmts, list) and up in stmts:
            i = stmts.index(up)
            return i + 1 < len(stmts) and isinstance(stmts[i + 1], ast.Return) and stmts[i + 1].value is not None
    return False


def _after_missing_package(ctx, up: ast.If) -> bool:
    """`if not is_xformers_available(): raise ModuleNotFoundError(...)` / `elif not torch.cuda.is_available(): raise
    ValueError(...)`: the query is the `elif` of a test that raises when a CUDA-only package (`cuda-only-packages`)
    is missing. No Neuron host has that package, so the first arm raises there and the query is never asked; the
    feature's own findings (its import, its kernels) are the port item, and nothing is picked here."""
    parent = parent_of(ctx, up)
    if not (isinstance(parent, ast.If) and len(parent.orelse) == 1 and parent.orelse[0] is up):
        return False
    t = parent.test
    if not (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and isinstance(t.operand, ast.Call)):
        return False
    words = dotted(t.operand.func).rsplit(".", 1)[-1].lower().split("_")
    packages = set(ctx.values.get("cuda-only-packages", ()))
    if not (len(words) >= 2 and words[-1] in ("available", "installed") and packages & set(words[:-1])):
        return False
    return any(isinstance(st, ast.Raise) for st in parent.body) and all(
        isinstance(st, (ast.Raise, ast.Expr)) for st in parent.body)


def _cuda_string(e) -> bool:
    return isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.lower().split(":")[0] == "cuda"


def _cuda_list(e) -> bool:
    """`["cuda"]`, `("cuda", "cuda:1")`: CUDA device strings only."""
    return isinstance(e, (ast.List, ast.Tuple)) and bool(e.elts) and all(map(_cuda_string, e.elts))


def _empty_list(e) -> bool:
    return isinstance(e, (ast.List, ast.Tuple)) and not e.elts


def _adds_cuda_variant(body) -> bool:
    """Every statement appends CUDA device strings to a list (`devices.append("cuda")`, `devices += ["cuda"]`,
    `devices.extend(["cuda"])`): in a test module, the check adds a CUDA variant to the devices the test loops
    over; the others (the CPU one) run on Neuron as they are, and the CUDA variant is never made there. Such an
    extra device in a test is no pick to port (the fresh17 verdicts on tests of a copied detection library)."""
    for st in body:
        if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) and _cuda_list(st.value):
            continue
        v = st.value if isinstance(st, ast.Expr) else None
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and len(v.args) == 1 and not v.keywords \
                and (v.func.attr == "append" and _cuda_string(v.args[0])
                     or v.func.attr == "extend" and _cuda_list(v.args[0])):
            continue
        return False
    return bool(body)


def _no_op_context(e) -> bool:
    """`nullcontext()` / `contextlib.nullcontext()`: the arm Neuron takes enters no context at all."""
    return isinstance(e, ast.Call) and not e.args and not e.keywords \
        and dotted(e.func).rsplit(".", 1)[-1] == "nullcontext"


def _runtime_providers(*arms) -> bool:
    """`"CUDAExecutionProvider" if torch.cuda.is_available() else "CPUExecutionProvider"` (or lists of them): an
    ONNX Runtime session's execution provider, another runtime than torch. On Neuron the session runs on its CPU
    provider as written; the torch model's device is chosen elsewhere."""
    def providers(a) -> bool:
        items = a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a]
        return bool(items) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                   and e.value.endswith("ExecutionProvider") for e in items)
    return all(providers(a) for a in arms)


def _option_lists(*arms) -> bool:
    """`["torch", "cuda", "generator"] if torch.cuda.is_available() else ["torch", "generator"]`: both arms are
    lists or tuples of strings (Accelerator's `rng_types`), options to enable, not a device or a dtype."""
    return all(isinstance(a, (ast.List, ast.Tuple)) and a.elts and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in a.elts) for a in arms)


# Options of a DataLoader that only shape host-side loading (worker processes, page-locked host memory)
_LOADER_OPTIONS = frozenset({"num_workers", "pin_memory", "persistent_workers", "prefetch_factor"})


def _loader_options(*arms) -> bool:
    """`{'num_workers': 1, 'pin_memory': True} if torch.cuda.is_available() else {}` (PyTorch's MNIST example and its
    copies): both arms are dict displays or `dict(...)` calls of DataLoader host options, handed to the loader as
    `**kwargs`. On Neuron the loader runs with its defaults; nothing is placed on a device."""
    for a in arms:
        if isinstance(a, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in a.keys]
        elif isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "dict" and not a.args:
            keys = [k.arg for k in a.keywords]
        else:
            return False
        if not all(k in _LOADER_OPTIONS for k in keys):
            return False
    return True


def _tests_of(ctx, reads) -> list | None:
    """The `if` statements whose test each read is (alone, negated or in an `and` / `or`); None when some read is
    anything else (passed on, stored, compared with a value, returned)."""
    out = []
    for r in reads:
        cur, up = r, parent_of(ctx, r)
        while isinstance(up, (ast.BoolOp, ast.UnaryOp)):
            cur, up = up, parent_of(ctx, up)
        if not (isinstance(up, ast.If) and up.test is cur):
            return None
        out.append(up)
    return out


def _only_tested(ctx, target) -> bool:
    """A flag of `self` (`self.is_cuda_available = torch.cuda.is_available()`) read only as the test of `if`
    statements whose arms place nothing (CUDA events or `time.time()` in a timer), or only shown: the flag picks
    no device. So is a flag set on an object the file never hands on whole (a script's `args.cuda =
    torch.cuda.is_available()`, then `print('cuda: %s' % args.cuda)` and `if args.cuda:
    torch.cuda.manual_seed(args.seed)`, DeepRobust's examples): only this file can read it."""
    if isinstance(target, ast.Name):
        return _local_flag_only_tested(ctx, target)
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
        return False
    owner = target.value.id
    if owner != "self" and not _kept_here(ctx, owner):
        return False
    if any(isinstance(c, ast.Constant) and c.value == target.attr for c in ctx.nodes(ast.Constant)):
        return False
    reads = [a for a in ctx.nodes(ast.Attribute) if a.attr == target.attr and isinstance(a.ctx, ast.Load) and (
        owner == "self" or isinstance(a.value, ast.Name) and a.value.id == owner)]  # (`torch.cuda` is no read)
    shown = [a for a in reads if _only_shown(ctx, a, parent_of(ctx, a))]
    tests = _tests_of(ctx, [a for a in reads if a not in shown])
    return tests is not None and bool(tests) and not any(
        _places(t.body + t.orelse) or _switches_off(t, t.test) for t in tests)


# tensor factories: a call of one whose value nothing reads only warms the device up
_FACTORIES = frozenset({"ones", "zeros", "empty", "rand", "randn", "tensor", "full", "arange", "ones_like",
                        "zeros_like", "empty_like"})


def _local_flag_only_tested(ctx, target: ast.Name) -> bool:
    """A local flag of a function (`CUDA_AVAILABLE = torch.cuda.is_available()`) read only as the test of `if`
    statements whose arms place nothing but warm the device up: a tensor made and never read (`v = torch.ones(1,
    device="cuda:0")` with `v` loaded nowhere in the function; salina's examples, fresh65). On Neuron the arm is
    skipped and nothing the program uses stays on the CPU."""
    fn = enclosing_function(ctx, target)
    if fn is None:
        if not _notebook(ctx) or ctx.tree is None:
            return False
        fn = ctx.tree  # a notebook's top level: no module imports its names
    names = [n for n in walk(fn) if isinstance(n, ast.Name)]
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and target.id in n.names for n in walk(fn)):
        return False
    if sum(1 for n in names if n.id == target.id and isinstance(n.ctx, ast.Store)) != 1:
        return False
    reads = [n for n in names if n.id == target.id and isinstance(n.ctx, ast.Load)]
    tests = _tests_of(ctx, [n for n in reads if not _only_shown(ctx, n, parent_of(ctx, n))])
    if not tests:
        return False
    loaded = {n.id for n in names if isinstance(n.ctx, ast.Load)}
    return not any(_places([st for st in t.body + t.orelse if not _warm_up(st, loaded)]) or _switches_off(t, t.test)
                   for t in tests)


def _warm_up(st, loaded: set) -> bool:
    """`v = torch.ones(1, device="cuda:0")` with `v` never loaded, or `torch.zeros(1).cuda()` as a statement: a
    tensor made on the device and dropped."""
    if isinstance(st, ast.Assign):
        if not (len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and st.targets[0].id not in loaded):
            return False
    elif not isinstance(st, ast.Expr):
        return False
    v = st.value
    while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in ("cuda", "to"):
        v = v.func.value
    return isinstance(v, ast.Call) and (dotted(v.func) or "").startswith("torch.") and \
        dotted(v.func).rsplit(".", 1)[-1] in _FACTORIES


def _kept_here(ctx, owner: str) -> bool:
    """Every read of the name `owner` in the file takes an attribute of it (`args.seed`): the object is never
    passed to a call, returned, stored elsewhere or bound by a `global` another function shares."""
    if any(owner in n.names for kind in (ast.Global, ast.Nonlocal) for n in ctx.nodes(kind)):
        return False
    for n in ctx.nodes(ast.Name):
        if n.id == owner and isinstance(n.ctx, ast.Load) and not isinstance(parent_of(ctx, n), ast.Attribute):
            return False
    return True


def _pick_only_compared(ctx, branch: ast.If) -> bool:
    """A pick written as statements (`if torch.cuda.is_available(): device = "cuda"` ... `else: device = "cpu"`)
    whose name is then only compared, in `if` tests, with another platform's value (`if device == "mps":
    torch_dtype = torch.float16`), never with what the CUDA arm or the final `else` (a Neuron host's) sets: those
    tests go the same way on a CUDA and on a Neuron host, so the check picks nothing there. Only the assignments
    of one name to a string in each arm count; the name's reads are looked for in the enclosing function, or the
    module."""
    names = set()
    arms, last = [branch.body], branch
    while len(last.orelse) == 1 and isinstance(last.orelse[0], ast.If):
        last = last.orelse[0]  # `elif sys.platform == "darwin" and torch.backends.mps.is_available():`
        arms.append(last.body)
    arms.append(last.orelse)
    for arm in arms:
        for n in arm:
            if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                    and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)):
                return False
            names.add(n.targets[0].id)
    if len(names) != 1:
        return False
    name = names.pop()
    fn = enclosing_function(ctx, branch)
    scope = walk(fn) if fn is not None else ctx.nodes(ast.Name)
    reads = [n for n in scope if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    if not reads or any(isinstance(c, ast.Constant) and c.value == name for c in ctx.nodes(ast.Constant)):
        return False
    # the values of the arm CUDA takes and of the last `else`, which a Neuron host takes: a comparison with
    # either behaves differently there; one with another platform's value (`"mps"`) behaves the same
    taken = {_arm_value(branch.body), _arm_value(last.orelse)}
    compares = []
    for r in reads:
        up = parent_of(ctx, r)
        if not (isinstance(up, ast.Compare) and len(up.ops) == 1 and isinstance(up.ops[0], (ast.Eq, ast.NotEq))):
            return False
        other = up.comparators[0] if up.left is r else up.left
        if not (isinstance(other, ast.Constant) and isinstance(other.value, str)) or other.value in taken:
            return False
        compares.append(up)
    return _tests_of(ctx, compares) is not None


def _arm_value(arm):
    for top in arm:
        if isinstance(top, ast.Assign) and isinstance(top.value, ast.Constant):
            return top.value.value
    return None


def _own_name(t) -> bool:
    """A variable or an attribute of `self` (a setting of a library, `torch.backends.cudnn.enabled`, is no
    feature of the program)."""
    return isinstance(t, ast.Name) or isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
        and t.value.id == "self"


def _switches_off(branch: ast.If, test) -> bool:
    """The arm Neuron takes (the body of `if not torch.cuda.is_available():`, else the `else` arm) sets a name to
    None or False (`bg_upsampler = None`): the check turns a feature off wherever CUDA is missing."""
    neuron_arm = branch.body if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else branch.orelse
    for top in neuron_arm:
        for n in walk(top):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) \
                    and (n.value.value is None or n.value.value is False) and any(map(_own_name, n.targets)):
                return True
    return False


_WORDS_AND_BLANKS = re.compile(r"[A-Za-z]{2}[^\n]*\s|\s[^\n]*[A-Za-z]{2}")


def _in_text(ctx, e: ast.IfExp) -> bool:
    """The conditional expression fills a field of an f-string whose own text holds words and blanks
    (`f"device: {torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu'}"` appended to a results
    summary, kgcnn-torch's training scripts in fresh79): its value becomes part of a sentence, never a device. An
    f-string of no such text (`f"{'cuda' if ok else 'cpu'}:0"`) may still build a device name and stays a pick."""
    fv = parent_of(ctx, e)
    js = parent_of(ctx, fv) if isinstance(fv, ast.FormattedValue) else None
    return isinstance(js, ast.JoinedStr) and any(
        isinstance(v, ast.Constant) and isinstance(v.value, str) and _WORDS_AND_BLANKS.search(v.value)
        for v in js.values)


def _only_shown(ctx, cur, up) -> bool:
    """The answer is only printed or logged: an argument of `print(...)`, `logger.info(...)` or another call named
    in `output-functions`, directly or inside an f-string, a `%` / `+` format or a tuple of such an argument
    (`print(f"CUDA available: {torch.cuda.is_available()}")`). Nothing is chosen by it."""
    while isinstance(up, (ast.FormattedValue, ast.JoinedStr, ast.BinOp, ast.Tuple, ast.keyword)):
        cur, up = up, parent_of(ctx, up)
    if not isinstance(up, ast.Call) or cur is up.func:
        return False
    f = up.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in ctx.values.get("output-functions", ())


def _notebook(ctx) -> bool:
    return ctx.path.endswith(".ipynb")


def _never_read(ctx, target) -> bool:
    """The flag the query is stored in is read nowhere: a local name of a function never loaded in it,
    `self.x` whose attribute name is never loaded in the file, or a module-level name of a test module never
    loaded in it. (A module-level name of another module may be imported elsewhere.)"""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return not any(a.attr == target.attr and isinstance(a.ctx, ast.Load) for a in ctx.nodes(ast.Attribute)) \
            and not any(isinstance(c, ast.Constant) and c.value == target.attr for c in ctx.nodes(ast.Constant))
    if isinstance(target, ast.Name):
        fn = enclosing_function(ctx, target)
        if fn is None:
            # A module-level name may be imported by another module, except in a test module: pytest collects
            # it and no module imports it, so a name the file never loads (nor names in a string, as
            # `__all__` or `getattr` would) is read nowhere.
            if _notebook(ctx):
                # a notebook is never imported: its top-level names are the cells' locals (test_environment.ipynb's
                # `cuda_available = torch.cuda.is_available()`, only printed; speech-experiments, fresh83)
                return all(_only_shown(ctx, n, parent_of(ctx, n)) for n in ctx.nodes(ast.Name)
                           if n.id == target.id and isinstance(n.ctx, ast.Load))
            if not is_test_module(ctx.path):
                return False
            return not any(n.id == target.id and isinstance(n.ctx, ast.Load) for n in ctx.nodes(ast.Name)) \
                and not any(isinstance(c, ast.Constant) and c.value == target.id for c in ctx.nodes(ast.Constant))
        # a local read only to be shown (`n_gpu = torch.cuda.device_count()` then `logger.info("...", n_gpu)`)
        # chooses nothing either
        return all(_only_shown(ctx, n, parent_of(ctx, n)) for n in walk(fn)
                   if isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load))
    return False
