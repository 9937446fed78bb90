"""cpu-unit-test: test code that never names a device runs on the CPU, also on a Neuron machine."""
from __future__ import annotations

import ast
import re

from .base import (enclosing_function, host_or_dtype, is_cpu, name_globs, parent_of, placements,
                   places_on_device, predicate, runs_as_script)
from .neuron_guarded import _fixture_name, _spans, never_test
from ..scope import classify
from ..astwalk import walk
from ..project.syntax import dotted

# An identifier that stands for a device or an accelerator: `device`, `torch_device`, `self.device`,
# `DEVICE`, `use_cuda`, `on_gpu`, `accelerator`. A test that reads one may run on the device.
# Read as words (`torch_device` is torch, device; `xlabel` and `dumps` are no device words).
_DEVICE_WORD_RE = re.compile(r"(devices?|cuda\d*|n?gpus?\d*|accelerat\w*|neuron\w*|xla|xpu|mps|ranks?)$")
_WORD_SPLIT = re.compile(r"[_\W]+|(?<=[a-z0-9])(?=[A-Z])")


class _DeviceWord:
    """The identifier holds a word that stands for a device or an accelerator."""

    @staticmethod
    def search(name: str) -> bool:
        if "world_size" in name.lower():
            return True
        words = _WORD_SPLIT.split(name.lower() if name.isupper() else name)
        return any(_DEVICE_WORD_RE.match(w.lower()) for w in words if w)


_DEVICE_WORD = _DeviceWord()
_DEVICE_STRINGS = ("cuda", "gpu", "neuron", "xla", "xpu", "mps", "nccl")
# Scopes of whole programs a user runs (an example script, a tutorial, a docs snippet): a library module is never
# one, since its callers choose where its tensors go.
_PROGRAM_SCOPES = frozenset({"example", "docs"})
_SETUPS = frozenset({"setUp", "setUpClass", "setup_method", "setup_class", "setup", "__init__", "asyncSetUp"})


def _cpu_named(e) -> bool:
    """A name that says it holds the host device: `cpu_device`, `self.device_cpu`."""
    name = e.id if type(e) is ast.Name else e.attr if type(e) is ast.Attribute else ""
    return "cpu" in name.lower()


def _host_placement(call) -> bool:
    """`.to(cpu_device)`, `device=cpu_device`: every place the call names is the host, by value or by name."""
    f = call.func
    if type(f) is ast.Attribute and f.attr == "cuda":
        return False
    args = placements(call)
    return bool(args) and all(host_or_dtype(a) or _cpu_named(a) for a in args)


def _off_test(test, off: frozenset) -> bool:
    return type(test) is ast.Name and test.id in off


def _bound_values(fn) -> dict:
    """name -> the values the function binds it to: the value of a plain `name = value`, None for any other binding
    (an augmented or annotated assignment, a loop or `with` target, `:=`, a tuple target)."""
    values: dict = {}
    plain: set = set()
    for n in walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    values.setdefault(t.id, []).append(n.value)
                    plain.add(id(t))
    for n in walk(fn):
        if isinstance(n, ast.Name) and type(n.ctx) is ast.Store and id(n) not in plain:
            values.setdefault(n.id, []).append(None)
    return values


def _host_names(fn, off: frozenset) -> frozenset:
    """Names the function binds only to the host on Neuron: `device = torch.device("cuda") if cuda else
    torch.device("cpu")` with `cuda` a switch that is off in every run there (guarded-switch)."""
    return frozenset(name for name, vs in _bound_values(fn).items() if all(
        v is not None and (is_cpu(v) or type(v) is ast.IfExp and _off_test(v.test, off) and is_cpu(v.orelse))
        for v in vs))


_DIMENSION_CALLS = frozenset({"dim", "ndimension"})


def _dimension(v) -> bool:
    """`t.dim()`, `t.ndim`, `len(t.shape)`, `len(t.size())`: how many dimensions a tensor has."""
    if type(v) is ast.Call and type(v.func) is ast.Attribute and v.func.attr in _DIMENSION_CALLS and not v.args:
        return True
    if type(v) is ast.Attribute and v.attr == "ndim":
        return True
    if type(v) is ast.Call and type(v.func) is ast.Name and v.func.id == "len" and len(v.args) == 1:
        a = v.args[0]
        return type(a) is ast.Attribute and a.attr == "shape" or type(a) is ast.Call and \
            type(a.func) is ast.Attribute and a.func.attr == "size" and not a.args
    return False


def _dimension_names(fn) -> frozenset:
    """Names the function binds only to a tensor's number of dimensions: `rank = x.type().dim()` in an ONNX
    symbolic is a tensor's rank, not a process's, and names no device."""
    return frozenset(k for k, vs in _bound_values(fn).items() if all(v is not None and _dimension(v) for v in vs))


def _moves(body) -> bool:
    """The code places something on a device: `.cuda()`, `.to(device)`, `device=...`."""
    return any(type(c) is ast.Call and places_on_device(c) and not _host_placement(c)
               for b in (body if isinstance(body, list) else [body]) for c in walk(b))


def _evidence(node, off: frozenset = frozenset(), host: frozenset = frozenset(), never=None,
              quiet: frozenset = frozenset()) -> bool:
    """The subtree names a device: `.cuda()`, `.to(x)` with anything but a dtype or "cpu", a `device=`
    keyword other than "cpu", a name or attribute such as `device` or `torch_device`, a parameter of
    such a name (a parametrised device fixture), or a string such as "cuda". `off`: switch parameters of the
    function that are off in every run on Neuron (the arms they turn on are not read); `host`: names bound only to
    the host there; `never`: a test false on every Neuron machine (neuron-guarded's), whose arm is not read;
    `quiet`: dotted calls that do nothing where no CUDA device was ever used (`torch.cuda.empty_cache()`), not read."""
    def hosted(e) -> bool:
        return type(e) is ast.Name and (e.id in host or e.id in off)

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Call) and (is_cpu(n) or quiet and dotted(n.func) in quiet):
            continue  # torch.device("cpu") names the host, not a device; a quiet call names none it uses
        if isinstance(n, (ast.If, ast.IfExp)) and (_off_test(n.test, off) or never is not None and never(n.test)
                                                   and not _moves(n.body)):
            # the arm a switch off on Neuron turns on runs for nobody there; an arm under a CUDA check that moves
            # nothing (`torch.cuda.manual_seed_all(0)`) neither. One that moves tensors is read: the port turns the
            # check into an accelerator check, and the test then runs on the device.
            stack.extend(n.orelse if isinstance(n, ast.If) else [n.orelse])
            continue
        stack.extend(ast.iter_child_nodes(n))
        # isinstance (not `type(n) is`) so that mypy narrows; these node classes have no subclasses.
        if isinstance(n, ast.Call):
            if places_on_device(n) and not _host_placement(n) and not (
                    (host or off) and all(host_or_dtype(a) or hosted(a) for a in placements(n))):
                return True
            # other device-named keywords: `use_cuda=True`, `accelerator="gpu"`, `world_size=2`
            if any(kw.arg is not None and _DEVICE_WORD.search(kw.arg) and not (
                    is_cpu(kw.value) or _cpu_named(kw.value) or hosted(kw.value)) for kw in n.keywords):
                return True
        elif isinstance(n, ast.Name):
            if _DEVICE_WORD.search(n.id) and not _cpu_named(n) and not hosted(n):
                return True
        elif isinstance(n, ast.Attribute):
            if _DEVICE_WORD.search(n.attr) and not _cpu_named(n):
                return True
        elif isinstance(n, ast.arg):
            if _DEVICE_WORD.search(n.arg) and n.arg not in off:
                return True
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            low = n.value.lower()
            if any(low == s or low.startswith(s + ":") for s in _DEVICE_STRINGS):
                return True
    return False


def _hides_gpus(ctx) -> bool:
    """The module sets `os.environ["CUDA_VISIBLE_DEVICES"] = ""` (or "-1") at its top level: every test in it
    runs on the CPU, on every machine."""
    def compute(c) -> bool:
        for st in (c.tree.body if c.tree is not None else ()):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Subscript) \
                    and isinstance(st.value, ast.Constant) and st.value.value in ("", "-1"):
                key = st.targets[0].slice
                if isinstance(key, ast.Constant) and key.value == "CUDA_VISIBLE_DEVICES":
                    return True
        return False
    return ctx.fact("cpu-unit-test:hides", compute)


def _file_evidence(ctx) -> bool:
    return ctx.fact("cpu-unit-test:file", lambda c: c.tree is not None and _evidence(c.tree, quiet=_quiet(c)))


def _quiet(ctx) -> frozenset:
    return frozenset(ctx.values.get("cpu-test-quiet-calls", ()))


def _quiet_hit(ctx, hit) -> bool:
    """The match is (a reference to) a call of `cpu-test-quiet-calls`: the resolved name, or the dotted one."""
    quiet = _quiet(ctx)
    if getattr(hit, "qualname", "") in quiet:
        return True
    node = hit.node
    return dotted(node.func if type(node) is ast.Call else node) in quiet


def _local_functions(ctx) -> dict:
    def compute(c) -> dict:
        found: dict = {}
        for st in c.statements():  # functions are statements: no walk over expressions
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef):
                found.setdefault(st.name, []).append(st)
        return found
    return ctx.fact("cpu-unit-test:functions", compute)


def _calls_of(func) -> set:
    names = set()
    for n in walk(func):
        if type(n) is ast.Call:
            f = n.func
            if type(f) is ast.Name:
                names.add(f.id)
            elif type(f) is ast.Attribute and type(f.value) is ast.Name and f.value.id in ("self", "cls"):
                names.add(f.attr)
    return names


def _off_switches(ctx, fn) -> frozenset:
    """The function's switch parameters that are off in every run on Neuron (guarded-switch's reading)."""
    spans = ctx.fact("neuron-guarded", _spans)
    return frozenset(spans.off_switches.get(id(fn), ())) if spans is not None else frozenset()


def _function_evidence(ctx, func, cls) -> bool:
    """The test function, what it calls in this file (two levels), its decorators and, for a method, the
    class body outside other tests (setUp, class attributes) name a device."""
    key = "cpu-unit-test:fn:%d" % id(func)
    if key in ctx.memo:
        return ctx.memo[key]
    functions = _local_functions(ctx)
    never = never_test(ctx)
    seen = {id(func)}
    frontier = [func]
    found = False
    for _ in range(3):
        nxt = []
        for f in frontier:
            off = _off_switches(ctx, f)
            host = (_host_names(f, off) if off else frozenset()) | _dimension_names(f)
            if _evidence(f, off, host, never, _quiet(ctx)):
                found = True
                break
            for name in _calls_of(f):
                for g in functions.get(name, ()):
                    if id(g) not in seen:
                        seen.add(id(g))
                        nxt.append(g)
        if found or not nxt:
            break
        frontier = nxt
    if not found and cls is not None:
        for st in cls.body:
            # Methods count only when they prepare every test (setUp) or when the test calls them (above).
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef) and st.name not in _SETUPS:
                continue
            if _evidence(st, never=never):
                found = True
                break
        if not found:
            found = any(_evidence(b) for b in cls.bases + cls.keywords + cls.decorator_list)
    ctx.memo[key] = found
    return found


def _enclosing_class(ctx, func):
    up = parent_of(ctx, func)
    return up if isinstance(up, ast.ClassDef) else None


def _in_program(ctx) -> bool:
    """A notebook anywhere, or a script of an example or docs scope: a program a user runs as it is."""
    def compute(c) -> bool:
        if not c.path or c.tree is None:
            return False
        if c.path.lower().endswith(".ipynb"):
            return True
        return classify(c.path) in _PROGRAM_SCOPES and runs_as_script(c.tree)
    return ctx.fact("cpu-unit-test:program", compute)


def _hands_to_runner(ctx) -> bool:
    """The program hands its model to a runner that picks the device itself (`Trainer(...)`, `trainer.fit(...)`,
    `Fabric(...)`): calls named in `device-placing-calls`."""
    return ctx.fact("cpu-unit-test:runner", lambda c: _calls_a_runner(c, c.calls()))


def _calls_a_runner(ctx, calls) -> bool:
    """One of `calls` is named in `device-placing-calls` (`Trainer(...)`, `trainer.fit(...)`)."""
    pat = name_globs(ctx, "device-placing-calls")
    if pat is None:
        return False
    for call in calls:
        f = call.func
        name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if name and pat.match(name):
            return True
    return False


def _in_test_file(ctx) -> bool:
    return ctx.fact("cpu-unit-test:scope", lambda c: bool(c.path) and classify(c.path) == "test")


@predicate("cpu-unit-test", effect="guard")
def cpu_unit_test(ctx, hit) -> bool:
    """A match in a test file (scope `test`) inside a test that never names a device, for rules of the
    categories in `cpu-test-categories` (float64, sparse, dynamic shapes, per-channel quantisation, ...).
    Such a test runs on the CPU wherever it runs, a Neuron machine included, so the operation needs no
    port. A test names a device when it, the functions of the file it calls (two levels deep), its
    decorators or, for a method, its class attributes and setUp mention one: `.cuda()`, `.to(x)` with anything but
    a dtype or "cpu", a `device=` keyword other than "cpu", a name, attribute or parameter such as
    `device`, `torch_device`, `use_cuda` or `world_size`, or a string such as "cuda". A match outside any
    function (an import, a module constant) is guarded only when nothing in the whole file names a
    device; a helper that is not a test is judged by the whole file too, since a device test may call it.
    CUDA, AMP, distributed and library categories are never guarded by it (an import of a CUDA-only library fails
    on a CPU too), except for options stored as data (`cfg = {"load_in_4bit": True}` handed to a config validator:
    a value under a key reaches no library in a test that never names a device), and except in a test module that
    hides every GPU at its top (`os.environ["CUDA_VISIBLE_DEVICES"] = ""`): all of that module runs on the
    CPU, so all of its findings are guarded. Outside the tests, a whole program that names no device (a notebook,
    or an example or docs script with a `__main__` block or top-level calls) runs on the CPU too, unless it hands
    its model to a runner that picks the device itself (`device-placing-calls`: `Trainer(...)`, `.fit(...)`);
    library modules never qualify, their callers place their tensors. What runs only where CUDA is names no device:
    a switch parameter off on Neuron (guarded-switch) and the host device it picks, and an arm under a CUDA check
    that moves no tensor (a CUDA seed in setUp); a name holding a tensor's rank is no process rank. Rules of
    other categories listed in `cpu-test-rules` are judged like those categories in a test: `nn.DataParallel` over
    a module of a test that names no device only runs the module (it keeps no GPU without CUDA). Calls listed in
    `cpu-test-quiet-calls` (`torch.cuda.empty_cache()`, the CUDA seeds: they do nothing where CUDA was never used) are
    judged the same way in a test or a pytest fixture (lightning-pose's fixtures freeing a data module), unless the
    function hands a model to a device-placing runner (`trainer.fit(model)`), and are no device evidence themselves."""
    if not _in_test_file(ctx):
        # A tutorial, notebook or example script that names no device anywhere runs on the CPU of a Trainium host
        # as it does elsewhere. A library module never qualifies: its callers move its tensors.
        return _in_program(ctx) and hit.rule.category in ctx.values.get("cpu-test-categories", ()) \
            and not _file_evidence(ctx) and not _hands_to_runner(ctx)
    if _hides_gpus(ctx):
        return True  # the module hides every GPU: all of it runs on the CPU, whatever the category
    in_category = hit.rule.category in ctx.values.get("cpu-test-categories", ()) or getattr(hit, "stored", False)
    if not in_category and hit.rule.id not in ctx.values.get("cpu-test-rules", ()) and not _quiet_hit(ctx, hit):
        return False  # a stored option (`{"load_in_4bit": True}`) is data of any category: judged like the rest
    if not in_category and enclosing_function(ctx, hit.node) is None and not _defines_tests(ctx):
        # a script kept in a test folder (MixFormer's `lib/test/vot20/stark_s50.py`: CUDA_VISIBLE_DEVICES, then a
        # tracker run through another module) names no device itself but runs one: only a module of tests runs
        # what it holds, on the CPU
        return False
    if not in_category and _starts_processes(ctx, enclosing_function(ctx, hit.node)):
        # `os.environ["CUDA_VISIBLE_DEVICES"] = "0"` then `subprocess.run(["python", "train.py"])`: the variable
        # reaches a program that uses the device
        return False
    if not _file_evidence(ctx):
        return True
    func = enclosing_function(ctx, hit.node)
    outer = func
    while outer is not None:
        parent = enclosing_function(ctx, outer)
        if parent is None:
            break
        outer = parent
    if outer is None or not (outer.name.startswith("test") or _fixture_name(outer)):
        return False
    if _quiet_hit(ctx, hit) and _calls_a_runner(ctx, (c for c in walk(outer) if type(c) is ast.Call)):
        return False  # `trainer.fit(model)` then `torch.cuda.empty_cache()`: the runner put the model on the device
    return not _function_evidence(ctx, outer, _enclosing_class(ctx, outer))


def _starts_processes(ctx, func) -> bool:
    """The function (or, outside functions, the module) starts another program or process (`process-start-calls`),
    which inherits the environment it set."""
    node = func if func is not None else ctx.tree
    starts = frozenset(ctx.values.get("process-start-calls", ()))
    return node is not None and bool(starts) and any(type(c) is ast.Call and dotted(c.func) in starts
                                                     for c in walk(node))


def _defines_tests(ctx) -> bool:
    """The module defines tests: a top-level `test*` function, or a class holding `test*` methods."""
    def compute(c) -> bool:
        for st in (c.tree.body if c.tree is not None else ()):
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name.startswith("test"):
                return True
            if type(st) is ast.ClassDef and any(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                                                and m.name.startswith("test") for m in st.body):
                return True
        return False
    return ctx.fact("cpu-unit-test:defines-tests", compute)



