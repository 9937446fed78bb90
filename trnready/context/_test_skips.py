"""Names that say "this needs a GPU": test decorators, pytest markers and availability checks.

Projects write their own skip helpers (`@require_bitsandbytes`, `@_requires_cuda`, `@pytest.mark.multi_gpu_tests`,
`@_RunIf(min_cuda_gpus=1)`, `skipUnless(is_sm_at_least_90())`). A name is read as a list of words
(`skipIfNoCuda` -> skip, if, no, cuda) and only counts when EVERY word is known: a requirement head
(`require`, `run_if`, `skip_if_no`, ...), a GPU word (`gpu`, `cuda`, `sm`, `hopper`, ...), a CUDA-only package, an
accelerator a Trainium host never has, or a filler word (`torch`, `multi`, digits). The vocabulary is catalogue
data ([context.values] of blockers.toml). A closed vocabulary keeps look-alikes out: `require_torch_non_multi_gpu`
and `require_torch_up_to_2_gpus` also run on the CPU, `require_torch_accelerator` and `require_non_cpu` may run on
Neuron, `require_torchao` needs a package Neuron has, `skip_if_cuda` skips WITH a GPU; none of them is all known words.
"""
from __future__ import annotations

import ast
import re

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(name: str) -> tuple:
    """`skipIfNoCuda` -> ("skip", "if", "no", "cuda"); `sm80_or_better_only` -> ("sm", "80", "or", "better", "only")."""
    return tuple(w.lower() for w in _WORD.findall(name))


def _phrases(values) -> frozenset:
    return frozenset(w for w in (words(v) for v in values) if w)


def _segment(ws: tuple, targets: frozenset, fillers: frozenset) -> bool:
    """True when ws splits wholly into target and filler phrases (digits are fillers), with a target among them."""
    longest = max((len(p) for p in targets | fillers), default=1)
    # reach[i] = (can split ws[:i], a target seen) -- a tiny dynamic programme, names have a handful of words
    reach = {0: False}
    for i in range(len(ws)):
        if i not in reach:
            continue
        seen = reach[i]
        if ws[i].isdigit():
            reach[i + 1] = reach.get(i + 1, False) or seen
        for n in range(1, min(longest, len(ws) - i) + 1):
            p = ws[i:i + n]
            if p in targets:
                reach[i + n] = True
            elif p in fillers:
                reach[i + n] = reach.get(i + n, False) or seen
    return reach.get(len(ws), False)


def _longest_first(affixes: frozenset) -> tuple:
    return tuple(sorted(affixes, key=len, reverse=True))


def _strip(ws: tuple, affixes: tuple, at_start: bool):
    """ws without the first matching affix at its start (or end), or None when none matches. `affixes`: longest
    first (`_longest_first`)."""
    for a in affixes:
        if at_start and ws[:len(a)] == a:
            return ws[len(a):]
        if not at_start and len(ws) > len(a) and ws[-len(a):] == a:
            return ws[:-len(a)]
    return None


class SkipNames:
    """The catalogue's vocabulary of GPU-requirement names ([context.values])."""

    def __init__(self, values: dict):
        self.gpu = _phrases(values.get("gpu-words", ()))
        self.packages = _phrases(values.get("cuda-only-packages", ()))
        self.accelerators = _phrases(values.get("other-accelerators", ()))
        self.fillers = _phrases(values.get("gpu-name-fillers", ()))
        self.heads = _phrases(values.get("gpu-requirement-heads", ()))
        self.tails = _phrases(values.get("gpu-requirement-tails", ()))
        self.check_prefixes = _phrases(values.get("gpu-check-prefixes", ()))
        self.check_suffixes = _phrases(values.get("gpu-check-suffixes", ()))
        self.count_keywords = frozenset(values.get("gpu-count-keywords", ()))
        self.hardware = self.gpu | self.accelerators
        self.anything = self.hardware | self.packages
        self.neuron = _phrases(values.get("neuron-words", ()))
        self._heads_first = _longest_first(self.heads)
        self._tails_first = _longest_first(self.tails)
        self._prefixes_first = _longest_first(self.check_prefixes)
        self._suffixes_first = _longest_first(self.check_suffixes)
        # (question, name) -> answer: a project asks about the same few names in every file
        self._answers: dict = {}

    def _memo(self, question, name: str) -> bool:
        key = (question, name)
        known = self._answers.get(key)
        if known is None:
            known = question(self, name)
            if len(self._answers) < 100_000:
                self._answers[key] = known
        return known

    def requirement(self, name: str) -> bool:
        """A decorator named for what the test needs: `require_bitsandbytes`, `_requires_cuda`, `cuda_only`,
        `requires_cuda_and_triton`, `sm80_or_better_only`."""
        return self._memo(SkipNames._requirement, name)

    def _requirement(self, name: str) -> bool:
        ws = words(name)
        for cut in (ws, self._unfused(ws)):
            for body in (_strip(cut, self._heads_first, True), _strip(cut, self._tails_first, False)):
                if body and _segment(body, self.anything, self.fillers):
                    return True
        return False

    def _unfused(self, ws: tuple) -> tuple:
        """The words with a lowercase run written without separators split into the vocabulary's words
        (`skipifnocuda` -> skip, if, no, cuda; opacus' `@skipifnocuda`); a run that does not split wholly stays."""
        vocab = getattr(self, "_vocab", None)
        if vocab is None:
            vocab = self._vocab = frozenset(w for table in (self.anything, self.fillers, self.heads, self.tails)
                                            for phrase in table for w in phrase if w.isalpha() and len(w) > 1)
        out: list = []
        for w in ws:
            if w in vocab or not w.isalpha() or len(w) > 40:
                out.append(w)
                continue
            # best[i]: the fewest vocabulary words spelling w[:i]
            best: dict = {0: ()}
            for i in range(len(w)):
                if i not in best:
                    continue
                for j in range(i + 2, len(w) + 1):
                    if w[i:j] in vocab and (j not in best or len(best[j]) > len(best[i]) + 1):
                        best[j] = best[i] + (w[i:j],)
            out.extend(best.get(len(w), (w,)))
        return tuple(out)

    def marker(self, name: str) -> bool:
        """A pytest marker that labels a GPU test: `gpu`, `multi_gpu_tests`, `single_gpu_tests` (not a package name:
        `@pytest.mark.bitsandbytes` labels a topic, not a device)."""
        return self._memo(SkipNames._marker, name)

    def _marker(self, name: str) -> bool:
        return _segment(words(name), self.hardware, self.fillers)

    def check(self, name: str) -> bool:
        """An availability check of something a Neuron host never has: `has_triton`, `is_xpu_available`, `TEST_CUDA`,
        `is_sm_at_least_90`, `_is_hopper`, `_has_cusparseLt`; a prefix or a suffix is required (`cuda` alone is not)."""
        return self._memo(SkipNames._check_anything, name)

    def _check_anything(self, name: str) -> bool:
        return self._check(name, self.anything)

    def neuron_check(self, name: str) -> bool:
        """An availability check of Neuron itself: `is_neuron_available`, `is_torch_neuronx_available`; true on every
        Trainium host the port targets."""
        return bool(self.neuron) and self._memo(SkipNames._check_neuron, name)

    def _check_neuron(self, name: str) -> bool:
        return self._check(name, self.neuron)

    def _check(self, name: str, targets: frozenset) -> bool:
        ws = words(name)
        for body in (_strip(ws, self._prefixes_first, True), ws):
            if not body:
                continue
            rest = _strip(body, self._suffixes_first, False)
            if body is not ws and _segment(body, targets, self.fillers):
                return True
            if rest and _segment(rest, targets, self.fillers):
                return True
        return False

    def gpu_count(self, call: ast.Call) -> bool:
        """`_RunIf(min_cuda_gpus=1)`, `RunIf(min_gpus=2)`: a requirement call (its name is a head alone) asking for
        at least one GPU by keyword, or asking for a CUDA-only package or a GPU feature by a keyword set to True whose
        words are all known (`RunIf(deepspeed=True)`, `RunIf(bitsandbytes=True)`, `RunIf(bf16_cuda=True)`: the
        helper skips without them). `ray.remote(num_gpus=1)` is not: its name does not say it is a condition;
        `RunIf(min_torch="2.1")` and `RunIf(skip_windows=True)` ask for nothing a Trainium host lacks."""
        f = call.func
        name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if words(name) not in self.heads:
            return False
        for k in call.keywords:
            if k.arg is None or type(k.value) is not ast.Constant:
                continue
            v = k.value.value
            if k.arg in self.count_keywords and type(v) is int and v >= 1:
                return True
            if v is True and _segment(words(k.arg), self.packages | self.gpu, self.fillers):
                return True
        return False


_SHARED: list = [None, None]  # the catalogue values last asked about and their SkipNames


def skip_names(values: dict) -> SkipNames:
    """The vocabulary of one catalogue ([context.values]), built once: every file with a finding asks for it
    (twice with its project summary), and building its phrase tables cost more than judging most files."""
    if _SHARED[0] is not values:
        _SHARED[:] = [values, SkipNames(values)]
    return _SHARED[1]


_TEST_MODULE = re.compile(r"^(test_.*|.*_test)\.py$")
# Called by the test runner, not by the file: never guarded through their references.
_RUNNER_HOOKS = re.compile(r"^(pytest_|setup|teardown|setUp|tearDown|load_tests$|__)")


def _runner_hook(s) -> bool:
    """A definition the test runner calls by its name: `pytest_*`, `setUp`, `load_tests`, dunders, and a module-level
    `setup` / `teardown` (`setup_module(module)`) taking at most one parameter; `def setup(rank, world_size)`, a
    process-group helper the tests call, is none."""
    if not _RUNNER_HOOKS.match(s.name):
        return False
    if type(s) is ast.ClassDef or not s.name.lower().startswith(("setup", "teardown")) or s.name.startswith(
            ("setUp", "tearDown")):
        return True
    a = s.args
    return len(a.posonlyargs + a.args) - len(a.defaults) <= 1


def is_test_module(path: str) -> bool:
    """A module pytest collects (`test_*.py`, `*_test.py`): the test runner imports it, other modules do not."""
    return bool(path) and bool(_TEST_MODULE.match(path.rsplit("/", 1)[-1]))


def runs_as_tests(path: str, tree) -> bool:
    """A module the test runner runs: a test module by its name, or a module in a `tests` / `test` folder that
    defines a `unittest.TestCase` class (opacus' `opacus/tests/multigpu_fsdpcheck.py`, run by unittest discovery
    with its own pattern). Like a test module, no other module imports it for its helpers."""
    if is_test_module(path):
        return True
    if not any(p in ("tests", "test") for p in path.split("/")[:-1]) or tree is None:
        return False
    return any(type(st) is ast.ClassDef and any(
        (type(b) is ast.Attribute and b.attr == "TestCase") or (type(b) is ast.Name and b.id == "TestCase")
        for b in st.bases) for st in tree.body)


def calls_base_method(fn) -> bool:
    """`def setUp(self): super().setUp(); ...` (or `Base.setUp(self)`): the override runs the base's method too, so
    a skip there still skips."""
    for n in ast.walk(fn):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == fn.name:
            v = n.func.value
            if (type(v) is ast.Call and type(v.func) is ast.Name and v.func.id == "super") or type(v) is ast.Name:
                return True
    return False


def inherits_setups(cls, setups) -> bool:
    """The class runs the setUp-like methods (`setups`) of its bases: it defines none of them, or each one it
    defines calls the base's."""
    return all(calls_base_method(m) for m in cls.body
               if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef) and m.name in setups)


def is_test_class(name: str) -> bool:
    """`TestThings`, `DDPTest`, `PipelineTests`: a class named as a test case (unittest or pytest)."""
    return name.startswith("Test") or name.endswith(("Test", "Tests"))


def _plain_method(m) -> bool:
    """A method the test class itself calls or hands over (`callable=cls._run`): no decorator but
    @classmethod / @staticmethod, which change how it is bound, not who runs it."""
    return all(type(d) is ast.Name and d.id in ("classmethod", "staticmethod") for d in m.decorator_list)


def _candidates(tree) -> list:
    """(node, name, by_attribute): module-level helpers (functions and classes not named as tests, also under a
    module-level if/try; values assigned to one name at the top level) and the private methods (`_check`, not
    dunder) of test classes (`Test*`, `*Test`)."""
    out = []

    def walk(body, top=False):
        for s in body:
            k = type(s)
            if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                if not s.name.lower().startswith("test") and not _runner_hook(s) \
                        and not (k is ast.ClassDef and is_test_class(s.name)):
                    out.append((s, s.name, False))
                if k is ast.ClassDef and is_test_class(s.name):
                    for m in s.body:
                        if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef) and m.name.startswith("_") \
                                and not m.name.startswith("__") and _plain_method(m):
                            out.append((m, m.name, True))
            elif k is ast.Assign and top and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                    and not _RUNNER_HOOKS.match(s.targets[0].id) and s.targets[0].id != "pytestmark":
                # a module-level value (`autocast_dtypes = ... if torch.cuda.is_bf16_supported() else ...`) read
                # only by tests that never run there is computed for nobody
                out.append((s, s.targets[0].id, False))
            elif k is ast.If or k.__name__ in ("Try", "TryStar"):
                for name in ("body", "orelse", "finalbody"):
                    walk(getattr(s, name, None) or [])
                for h in getattr(s, "handlers", None) or []:
                    walk(h.body)
    walk(tree.body, True)
    return out


def reference_positions(names, attributes, wanted: set) -> dict:
    """(name, via attribute) -> [(line, column)] of the references to the `wanted` helper names among the `names`
    (ast.Name loads) and `attributes` (`.name`, placed at the attribute's own name) of a test module."""
    by_name: dict = {}
    for n in names:
        if n.id in wanted and type(n.ctx) is ast.Load:
            by_name.setdefault((n.id, False), []).append((n.lineno, n.col_offset))
    for a in attributes:
        if a.attr in wanted:
            by_name.setdefault((a.attr, True), []).append((a.end_lineno, a.end_col_offset - len(a.attr)))
    return by_name


def helper_spans(ctx, tree, held, rounds: int = 4) -> list:
    """Spans of the helpers of a test module used only by tests that never run on a Neuron machine.

    A helper counts when every reference to it in the file (a name, or `.name` for a method) is in guarded code,
    not counting references inside the helper itself, and there is at least one. Guarding one helper can settle
    the helper it calls, so a few rounds are run. A test module is imported by the test runner, not by other
    modules, so its helpers have no callers outside the file (see docs/predicates.md for the limit of this)."""
    cands = _candidates(tree)
    if not cands:
        return []
    by_name = reference_positions(ctx.nodes(ast.Name), ctx.nodes(ast.Attribute), {name for _, name, _ in cands})
    added: list = []
    done: set = set()
    for _ in range(rounds):
        grew = False
        for node, name, attr in cands:
            if id(node) in done:
                continue
            start = min([(node.lineno, node.col_offset)] + [(d.lineno, d.col_offset - 1)
                                                             for d in getattr(node, "decorator_list", ())])
            end = (node.end_lineno, node.end_col_offset)
            refs = [p for p in by_name.get((name, attr), ()) if not start <= p < end]
            if refs and all(held(p) or any(s <= p < e for s, e, _ in added) for p in refs):
                added.append((start, end, False))
                done.add(id(node))
                grew = True
        if not grew:
            break
    return added


def skipped_classes(statements, held) -> list:
    """Spans of the test classes every test of which never runs on a Neuron machine (each `test*` method is
    skipped there): their setUp, class attributes and helpers run for nobody. A class another class of the file
    derives from is left out: the subclass may add tests that run and inherit the setUp."""
    classes = [s for s in statements if isinstance(s, ast.ClassDef)]
    bases = {b.id if isinstance(b, ast.Name) else b.attr for c in classes for b in c.bases
             if isinstance(b, (ast.Name, ast.Attribute))}
    out = []
    for c in classes:
        if c.name in bases:
            continue
        tests = [m for m in c.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and m.name.startswith("test")]
        if tests and all(held((m.lineno, m.col_offset)) for m in tests):
            start = min([(c.lineno, c.col_offset)] + [(d.lineno, d.col_offset - 1) for d in c.decorator_list])
            out.append((start, (c.end_lineno, c.end_col_offset), False))
    return out


def uncalled_main(ctx, tree) -> list:
    """Span of a test module's `def main():` that nothing in the file names: the test runner imports the module
    (its `__main__` block runs the tests, `common_utils.run_tests()`), and no other module imports a test module,
    so such a leftover entry point runs for nobody. Only `main`, undecorated, named nowhere in the file (not
    even as `.main`)."""
    mains = [s for s in tree.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name == "main"
             and not s.decorator_list]
    if not mains or any(n.id == "main" for n in ctx.nodes(ast.Name)) or any(
            a.attr == "main" for a in ctx.nodes(ast.Attribute)):
        return []
    return [((m.lineno, m.col_offset), (m.end_lineno, m.end_col_offset), False) for m in mains]


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def _imports(stmts) -> list:
    """The import statements of a block, also in the arms of its if / try statements (not inside defs)."""
    out = []
    for s in stmts:
        k = type(s)
        if k in (ast.Import, ast.ImportFrom):
            out.append(s)
        elif k is ast.If or k.__name__ in ("Try", "TryStar"):
            out += _imports(s.body) + _imports(getattr(s, "orelse", None) or [])
            for h in getattr(s, "handlers", None) or []:
                out += _imports(h.body)
    return out


def _span(s) -> tuple:
    return (s.lineno, s.col_offset), (s.end_lineno, s.end_col_offset), False


def _catches_import_error(h) -> bool:
    t = h.type
    names = t.elts if type(t) is ast.Tuple else [t]
    return any((type(n) is ast.Name and n.id in _IMPORT_ERRORS)
               or (type(n) is ast.Attribute and n.attr in _IMPORT_ERRORS) for n in names)


def _module_tests(tree) -> list:
    """The tests the runner collects from a module: its `test*` functions and the `test*` methods of its test
    classes."""
    out: list = []
    for s in tree.body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name.startswith("test"):
            out.append(s)
        elif type(s) is ast.ClassDef and is_test_class(s.name):
            out += [m for m in s.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and m.name.startswith("test")]
    return out


def skip_condition_imports(tree, skips) -> list:
    """Spans of the imports of a test module that only decide whether a test runs: in a `try` whose ImportError
    handler skips (`pytest.skip(..., allow_module_level=True)`, `self.skipTest(...)`) or, in a test, returns
    (`try: import MinkowskiEngine` / `except ImportError: return`), and in the body of a module-level `if` whose
    `else` skips the module (`if HAS_SPCONV: from spconv.pytorch import ...` / `else: pytest.skip(...)`). Without
    the package the test is skipped, so the import fails nowhere a port has to care about; the library's use in
    the project's own code is reported where it is written. `skips(stmts)` says a block ends in a test skip."""
    out: list = []

    def tries(stmts, in_test):
        for s in stmts:
            if type(s).__name__ in ("Try", "TryStar"):
                handlers = [h for h in s.handlers if h.type is not None and _catches_import_error(h)]
                if handlers and all(skips(h.body) or (in_test and h.body and type(h.body[-1]) is ast.Return)
                                    for h in handlers):
                    out.extend(_span(i) for i in _imports(s.body))
            elif type(s) is ast.If and not in_test and s.orelse and skips(s.orelse):
                out.extend(_span(i) for i in _imports(s.body))

    tries(tree.body, False)
    for t in _module_tests(tree):
        tries(t.body, True)
    return out


def unrun_module_imports(tree, never_runs) -> list:
    """Spans of the module-level imports of a test module none of whose tests runs on a Neuron machine (every
    `test*` function and method is `never_runs`: skipped without CUDA by a mark, its class or its first
    statements). The runner imports the module
    for those tests alone, so an import that fails there costs no test that could run. A module with one test that
    runs keeps its imports: a required import that fails blocks that test's collection too."""
    tests = _module_tests(tree)
    if not tests or not all(never_runs(t) for t in tests):
        return []
    return [_span(i) for i in _imports(tree.body)]
