"""Test code that never runs without the project's CUDA build (guarded_by "cuda-kernel-test" / "cuda-build-only").

A module "needs the CUDA build" when importing it fails wherever that build is missing, a Trainium host included:
an extension the project compiles from CUDA sources (`CUDAExtension(name="syncbn", ...)` in a setup script, or a
build call the `exts` of the summaries name), or a module of the project importing one at its top level with no
fallback (followed through package `__init__` files and re-exports, at most MAX_DEPTH modules deep). For a skip
flag, a package of `cuda-only-packages` that is not one of the project's own modules counts too. Two kinds of test
code then run for nobody:

- a test or benchmark module that itself imports the project's build at its top level (apex's
  `import syncbn`, `import apex.contrib.nccl_allocator`): every finding of the file but
  the import, which stays reported (the kernel is the port item, reported where it is built and imported). A
  module importing only a CUDA-only package stays reported (neuron-guarded: porting its tests starts there).
  Named "cuda-kernel-test", as the report step of postprocess_kernel_tests.py, which sees only direct imports;
- a test skipped on a flag that an import failure sets: `try: from pkg.xentropy import Loss` /
  `except ImportError as e: SKIP_TEST = e` then `@unittest.skipIf(SKIP_TEST, ...)` (or `HAS_X = False` in the
  handler and `@skipIf(not HAS_X, ...)`), when the import needs the CUDA build; with the module's helpers and
  values only such tests use.

The files are parsed again here, only those that still have a finding to guard and the modules they lead to.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from ..scope import classify
from .syntax import unconditional_nodes as _unconditional
from ..astwalk import walk

MAX_DEPTH = 6  # project modules followed from a test's import
MAX_PARSED = 600  # modules parsed per scan for this step
# Not examples (session 44): an example is a program using the project (lietorch's SLAM and registration demos on
# its Lie-group kernels); once the kernel is ported its device code is the next thing to change, where a kernel's test
# is rewritten with the kernel. blind63: 53 such example findings guarded, 58 missed labels calling them hits.
_SCOPES = ("test", "benchmark")
# Import statements read from the text before anything is parsed: a module none of whose imports can lead to the
# build is never parsed (most of a project's modules, all of them in a project with no build). Module-level imports
# sit at most one block deep (`try:`, `if True:`); deeper ones are inside functions and not run on import.
_FROM_RE = re.compile(r"^[ \t]{0,4}from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^#\n]*)", re.M)
_IMPORT_RE = re.compile(r"^[ \t]{0,4}import[ \t]+([^#\n]*)", re.M)
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException", "OSError"})


def _catches_import_error(h: ast.ExceptHandler) -> bool:
    t = h.type
    if t is None:
        return True
    items = t.elts if type(t) is ast.Tuple else [t]
    return any((x.attr if type(x) is ast.Attribute else getattr(x, "id", "")) in _IMPORT_ERRORS for x in items)


def _reraises(h: ast.ExceptHandler) -> bool:
    return bool(h.body) and type(h.body[-1]) is ast.Raise


def top_imports(tree: ast.Module) -> list:
    """[(statement, module, level, name or None)] of the imports run unconditionally when the module is imported:
    the module's own statements, and the body of a `try:` every handler of which raises again (Mask2Former's
    `try: import MultiScaleDeformableAttention` / `except ModuleNotFoundError: raise ModuleNotFoundError(hint)`)."""
    out: list = []

    def add(st) -> None:
        if type(st) is ast.Import:
            out.extend((st, a.name, 0, None) for a in st.names)
        elif type(st) is ast.ImportFrom:
            out.extend((st, st.module or "", st.level, a.name) for a in st.names)

    body: list[Any] = list(tree.body)
    while body:
        st = body.pop(0)
        if type(st) is ast.If and type(st.test) is ast.Constant:  # `if True: import syncbn` / `else: load(...)`
            body[:0] = st.body if st.test.value else st.orelse
            continue
        if type(st).__name__ in ("Try", "TryStar"):
            if st.handlers and all(_reraises(h) for h in st.handlers):
                for inner in st.body:
                    add(inner)
        else:
            add(st)
    return out


def _text_imports(text: str) -> list:
    """[(module, level, name or None)] of every import statement the text holds (over-reading is harmless: it
    only decides which modules are worth parsing)."""
    out: list = []
    for m in _FROM_RE.finditer(text):
        names = [n.strip().split(" as ")[0].strip() for n in m.group(3).strip("()").replace("\\", " ").split(",")]
        out += [(m.group(2), len(m.group(1)), n or None) for n in names if n.isidentifier() or n == "*"]
        out.append((m.group(2), len(m.group(1)), None))
    for m in _IMPORT_RE.finditer(text):
        out += [(n.strip().split(" as ")[0].strip(), 0, None) for n in m.group(1).split(",")
                if n.strip().split(" as ")[0].strip()]
    return out


class _Project:
    """Which modules of the project need the CUDA build, worked out on demand and remembered."""

    def __init__(self, modules, built: set, packages: set, text_of, shared: "_Project | None" = None):
        self.modules = modules  # ModuleMap over every Python file of the scan
        self.built = built  # module names the project compiles from CUDA sources
        self.packages = packages  # cuda-only-packages
        self.text_of = text_of  # rel -> source text or None
        self.rels = set(modules.summaries)
        self.memo: dict = {}  # rel -> needs the build (None while being worked out)
        self.could_memo: dict = {}  # rel -> its imports may lead to the build (read from its text)
        self.targets: dict = {}
        # parsed trees and text-read imports are the same for every _Project of the scan
        self.trees: dict = shared.trees if shared else {}
        self.texts: dict = shared.texts if shared else {}  # rel -> (imports, may skip on a flag)
        self.parsed = 0

    def text_facts(self, rel: str) -> tuple:
        got = self.texts.get(rel)
        if got is None:
            text = self.text_of(rel)
            # a test skipped on the flag of a failed import has both words in its text
            may_skip = text is not None and "except" in text and (
                "skipIf" in text or "skipif" in text or "skipUnless" in text)
            got = self.texts[rel] = (_text_imports(text) if text is not None else [], may_skip)
        return got

    def could(self, rel: str, depth: int = 0) -> bool:
        """Whether some import of the module, read from its text, may lead to the build (no parse)."""
        if rel in self.could_memo:
            return bool(self.could_memo[rel])
        if depth > MAX_DEPTH:
            return False
        self.could_memo[rel] = None
        found = self.could_imports(rel, self.text_facts(rel)[0], depth)
        self.could_memo[rel] = found
        return found

    def could_imports(self, here: str, imports: list, depth: int) -> bool:
        for m, lv, n in imports:
            got = self.target(here, m, lv, n)
            if got is None:
                continue
            if got[0] == "build":
                return True
            rel, inits, _beside = got[1]
            if any(self.could(r, depth + 1) for r in (*inits, rel) if r != here):
                return True
        return False

    def tree(self, rel: str):
        if rel in self.trees:
            return self.trees[rel]
        tree = None
        if self.parsed < MAX_PARSED:
            self.parsed += 1
            text = self.text_of(rel)
            if text is not None:
                try:
                    tree = ast.parse(text)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    tree = None
        self.trees[rel] = tree
        return tree

    def _file(self, dotted: str, here: str, level: int):
        """The project file an import names from module `here`, with the package `__init__` files importing it
        runs: for an absolute import next to `here` first (the directory of a script is the first entry of its
        import path: `from functions.dcnv3_func import ...` beside ops/test.py), then by the project's module
        names. (rel, inits, found beside `here`) or None."""
        parts = dotted.split(".")
        if not level:
            base = here.rsplit("/", 1)[0] + "/" if "/" in here else ""
            path = base + "/".join(parts)
            for rel in (path + ".py", path + "/__init__.py"):
                if rel in self.rels:
                    inits = [base + "/".join(parts[:i]) + "/__init__.py" for i in range(1, len(parts))]
                    return rel, [r for r in inits if r in self.rels], True
        rel = self.modules.mods.get(dotted)
        if rel is None:
            return None
        inits = [self.modules.mods.get(".".join(parts[:i])) for i in range(1, len(parts))]
        return rel, [r for r in inits if r], False

    def target(self, here: str, module: str, level: int, name):
        """What an import names: ("build", None) for a module the CUDA build makes or a CUDA-only package,
        ("file", (rel, inits, beside)) for a module of the project, or None."""
        key = (here if level else here.rsplit("/", 1)[0], module, level, name)
        if key not in self.targets:
            self.targets[key] = self._target(here, module, level, name)
        return self.targets[key]

    def _target(self, here: str, module: str, level: int, name):
        base = self.modules.absolute(here, module, level) if level else module
        if base is None:
            return None
        names = ([f"{base}.{name}" if base else name] if name not in (None, "*") else []) + ([base] if base else [])
        for dotted in names:
            if dotted in self.built or any(dotted.startswith(b + ".") for b in self.built):
                return "build", None
            found = self._file(dotted, here, level)
            if found is not None:
                return "file", found
        top = base.split(".", 1)[0]
        if not level and top in self.packages and top not in self.modules.mods \
                and self._file(top, here, 0) is None:  # `apex` scanned as apex is followed, not taken as CUDA-only
            return "build", None
        return None

    def needs(self, here: str, module: str, level: int, name, depth: int) -> bool:
        """Whether `from <level dots><module> import name` (or `import module`) in `here` needs the CUDA build."""
        got = self.target(here, module, level, name)
        if got is None:
            return False
        if got[0] == "build":
            return True
        rel, inits, _beside = got[1]
        return any(self.module_needs(r, depth + 1) for r in (*inits, rel) if r != here)

    def module_needs(self, rel: str, depth: int) -> bool:
        if rel in self.memo:
            return bool(self.memo[rel])
        if depth > MAX_DEPTH:
            return False
        if not self.could(rel, depth):
            self.memo[rel] = False
            return False
        self.memo[rel] = None  # an import cycle needs nothing by itself
        tree = self.tree(rel)
        found = tree is not None and any(self.needs(rel, m, lv, n, depth) for _st, m, lv, n in top_imports(tree))
        self.memo[rel] = found
        return found


def _value_on_failure(v, handler: ast.ExceptHandler):
    """The truth of a value a handler binds: the caught exception (`SKIP_TEST = e`), a constant; None if unknown."""
    if type(v) is ast.Name and v.id == handler.name:
        return True
    if type(v) is ast.Constant:
        return bool(v.value)
    return None


def _failure_flags(tree: ast.Module, fails) -> dict:
    """Module-level names whose value is known when the import of a module-level `try:` fails (`fails(try)`):
    every handler catching ImportError binds them last to the caught exception or a constant, and no later
    top-level statement binds them again. name -> truth on a host without the CUDA build."""
    out: dict = {}
    body: list[Any] = list(tree.body)
    for i, st in enumerate(body):
        if type(st).__name__ not in ("Try", "TryStar") or not st.handlers:
            continue
        if not all(_catches_import_error(h) for h in st.handlers) or not fails(st):
            continue
        values: dict = {}
        for h in st.handlers:
            seen: dict = {}
            for s in h.body:
                if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name:
                    seen[s.targets[0].id] = _value_on_failure(s.value, h)
            for name, v in seen.items():
                values.setdefault(name, []).append(v)
        later = _bound_at_module_level(body[i + 1:]) if values else set()
        for name, vs in values.items():
            if len(vs) == len(st.handlers) and None not in vs and len(set(vs)) == 1 and name not in later:
                out[name] = vs[0]
    return out


def _bound_at_module_level(stmts: list) -> set:
    """Names the statements bind when the module runs (their if/try/with/for blocks too, not function bodies)."""
    out: set = set()
    stack: list[Any] = list(stmts)
    while stack:
        st = stack.pop()
        k = type(st)
        if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            out.add(st.name)
            continue
        targets = st.targets if k is ast.Assign else [st.target] if k in (ast.AugAssign, ast.AnnAssign, ast.For) \
            else []
        for t in targets:
            out.update(n.id for n in walk(t) if type(n) is ast.Name)
        for name in ("body", "orelse", "finalbody", "handlers"):
            stack.extend(getattr(st, name, None) or [])
    return out


def _truth(e, flags: dict):
    """The value of a skip condition on such a host: True, False or None (unknown)."""
    k = type(e)
    if k is ast.Name:
        return flags.get(e.id)
    if k is ast.UnaryOp and type(e.op) is ast.Not:
        v = _truth(e.operand, flags)
        return None if v is None else not v
    if k is ast.BoolOp:
        vs = [_truth(v, flags) for v in e.values]
        if type(e.op) is ast.Or:
            return True if True in vs else (False if all(v is False for v in vs) else None)
        return False if False in vs else (True if all(v is True for v in vs) else None)
    return None


def _skipped(d, flags: dict) -> bool:
    """`@unittest.skipIf(SKIP_TEST, ...)`, `@pytest.mark.skipif(not HAS_X, ...)`, `@unittest.skipUnless(HAS_X, ...)`
    skipping on such a host."""
    if type(d) is not ast.Call or not d.args:
        return False
    f = d.func
    tail = f.attr if type(f) is ast.Attribute else getattr(f, "id", "")
    cond = d.args[0]
    if tail in ("skipIf", "skipif"):
        return _truth(cond, flags) is True
    if tail == "skipUnless":
        return _truth(cond, flags) is False
    return False


def skipped_spans(tree: ast.Module, flags: dict) -> list:
    """[(first line, last line)] of the classes, functions and methods skipped by a failure flag, or the whole
    module for `pytestmark = pytest.mark.skipif(...)`."""
    out: list = []
    top: list[Any] = list(tree.body)
    for st in top:
        if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == "pytestmark" for t in st.targets):
            value: Any = st.value
            marks = value.elts if type(value) in (ast.List, ast.Tuple) else [value]
            if any(_skipped(m, flags) for m in marks):
                return [(1, max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in tree.body))]
    for st in top:
        if type(st) not in (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef):
            continue
        if any(_skipped(d, flags) for d in st.decorator_list):
            out.append((st.decorator_list[0].lineno, st.end_lineno or st.lineno))
        elif type(st) is ast.ClassDef:
            methods: list[Any] = list(st.body)
            for m in methods:
                if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef) and any(_skipped(d, flags)
                                                                              for d in m.decorator_list):
                    out.append((m.decorator_list[0].lineno, m.end_lineno or m.lineno))
    return out


def setup_extensions(tree: ast.Module) -> set:
    """Module names a setup script builds from CUDA sources whatever the machine: `CUDAExtension("pkg._C", ...)`,
    `CUDAExtension(name="syncbn", ...)`, and the same through a name bound to the class (`extension =
    CUDAExtension` ... `extension("DCNv3", sources, ...)`) when the other arm raises. A build that falls back to
    CppExtension makes a module that imports without CUDA."""
    nodes = _unconditional(tree)
    aliases = {"CUDAExtension"}
    for n in nodes:
        v: Any = getattr(n, "value", None)
        if type(n) is ast.Assign and type(v) in (ast.Name, ast.Attribute) \
                and (v.attr if type(v) is ast.Attribute else v.id) == "CUDAExtension":
            aliases.update(t.id for t in n.targets if type(t) is ast.Name)
    out: set = set()
    for n in nodes:
        if type(n) is not ast.Call:
            continue
        f = n.func
        if (f.attr if type(f) is ast.Attribute else getattr(f, "id", "")) not in aliases:
            continue
        named = [k.value for k in n.keywords if k.arg == "name"] or n.args[:1]
        if named and type(named[0]) is ast.Constant and isinstance(named[0].value, str) \
                and all(p.isidentifier() for p in named[0].value.split(".")):
            out.add(named[0].value)
    return out


def helper_spans(tree: ast.Module, spans: list, rounds: int = 3) -> list:
    """Module-level helpers (functions, classes not named as tests, values bound to one name) every reference to
    which lies in the skipped spans: computed or called for nobody (apex's `label_smoothing_raw`, used only by
    the skipped LabelSmoothingTest)."""
    from ..context._test_skips import is_test_class

    cands = []
    top: list[Any] = list(tree.body)
    for st in top:
        if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if not st.name.lower().startswith("test") and not is_test_class(st.name) and not st.name.startswith("__"):
                cands.append((st, st.name))
        elif type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name:
            cands.append((st, st.targets[0].id))
    if not cands:
        return []
    wanted = {name for _, name in cands}
    refs: dict = {}
    for n in walk(tree):
        if type(n) is ast.Name and type(n.ctx) is ast.Load and n.id in wanted:
            refs.setdefault(n.id, []).append(n.lineno)
    held = list(spans)
    added: list = []
    for _ in range(rounds):
        grew = False
        for st, name in cands:
            first = min([st.lineno] + [d.lineno for d in getattr(st, "decorator_list", ())])
            last = st.end_lineno or st.lineno
            if (first, last) in added:
                continue
            outside = [ln for ln in refs.get(name, ()) if not first <= ln <= last]
            if outside and all(any(a <= ln <= b for a, b in held) for ln in outside):
                added.append((first, last))
                held.append((first, last))
                grew = True
        if not grew:
            break
    return added


def _test_like(rel: str) -> bool:
    return classify(rel) in _SCOPES


def guard_cuda_build_tests(findings: list, files, exts: dict, values: dict, text_of, cache=None,
                           digests=()) -> list:
    """Mark guarded ("cuda-kernel-test", "cuda-build-only") the findings of test code that never runs without the
    CUDA build (see the module docstring). `exts`: rel -> (exts, imported) noted from the summaries; `text_of`:
    rel -> source or None. What was found is kept in the result cache under the digests of every Python file
    (and the files asked about), so a warm re-scan of an unchanged tree reads and parses nothing here."""
    import hashlib

    from ..cache import StepMemo

    open_by_file: dict = {}
    for f in findings:
        if not f.guarded and not f.suppressed and f.cell is None and f.path.endswith(".py"):
            open_by_file.setdefault(f.path, []).append(f)
    candidates = sorted(rel for rel in open_by_file if _test_like(rel))
    if not candidates:
        return findings
    memo = StepMemo(cache, "cuda-build-tests")
    key = memo.key(files, digests)
    if key is not None:
        key = hashlib.sha256("\0".join([key, *candidates]).encode("utf-8", "surrogatepass")).hexdigest()
    found = _stored(memo.get(key))
    if found is None:
        found = _find(candidates, files, exts, values, text_of)
        memo.put(key, {"spans": {rel: [list(s) for s in got] for rel, got in found[0].items()},
                       "whole": sorted(found[1]), "kept": {rel: sorted(ls) for rel, ls in found[2].items()}})
    spans, whole, kept_lines = found
    if not spans:
        return findings
    out = []
    for f in findings:
        if not f.guarded and not f.suppressed and f.cell is None and f.path in spans \
                and f.line not in kept_lines.get(f.path, ()) \
                and any(first <= f.line <= last for first, last in spans[f.path]):
            f = replace(f, guarded=True, guarded_by="cuda-kernel-test" if f.path in whole else "cuda-build-only")
        out.append(f)
    return out


def _stored(got):
    """(spans, whole, kept lines) kept by an earlier run, or None when missing or of the wrong shape."""
    if not isinstance(got, dict) or not isinstance(got.get("spans"), dict) or not isinstance(got.get("whole"), list) \
            or not isinstance(got.get("kept"), dict):
        return None
    spans = {}
    for rel, ss in got["spans"].items():
        if not isinstance(ss, list) or not all(isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)
                                               for x in ss):
            return None
        spans[rel] = [tuple(x) for x in ss]
    kept = {}
    for rel, ls in got["kept"].items():
        if not isinstance(ls, list) or not all(type(v) is int for v in ls):
            return None
        kept[rel] = set(ls)
    if not all(isinstance(r, str) for r in got["whole"]):
        return None
    return spans, set(got["whole"]), kept


def _find(candidates: list, files, exts: dict, values: dict, text_of) -> tuple:
    """(rel -> [(first, last)] guarded, modules guarded whole, rel -> lines of the imports that stay reported)."""
    from .link import ModuleMap

    # (a C++ fallback build, eighth field, is left out: whether it needs CUDA is the link step's reading)
    built = {e[0] for v in exts.values() for e in (v[0] if v else ()) if e and e[0] and len(e) == 7}
    py = {sf.rel: None for sf in files if sf.kind == "python"}
    modules = ModuleMap(py)
    project = _Project(modules, built, set(values.get("cuda-only-packages", ())), text_of)
    # A module that merely imports a CUDA-only package (Triton, flash-attn) at its top fails on Neuron too, but
    # nothing in it says its tests are for GPUs only: porting them starts at that import (docs/predicates.md,
    # neuron-guarded). Only the project's own build, which the port replaces, makes a whole module test code.
    own_build = _Project(modules, built, set(), text_of, shared=project)
    for rel in py:
        if rel.endswith("setup.py") and PurePosixPath(rel).name == "setup.py":
            text = text_of(rel)
            tree = project.tree(rel) if text is not None and "CUDAExtension" in text else None
            if tree is not None:
                built |= setup_extensions(tree)
    spans: dict = {}  # rel -> [(first, last)]
    whole: set = set()  # modules guarded whole (cuda-kernel-test)
    kept_lines: dict = {}  # rel -> lines of the imports that stay reported
    for rel in candidates:
        imports, may_skip = project.text_facts(rel)
        if not (built and own_build.could_imports(rel, imports, 0)) and not may_skip:
            continue  # nothing in its text can lead to the build, nor skip a test on a failed import
        tree = project.tree(rel)
        if tree is None:
            continue
        needed = [st for st, m, lv, n in top_imports(tree) if own_build.needs(rel, m, lv, n, 0)]
        if needed:
            spans[rel] = [(1, 1 << 30)]
            whole.add(rel)
            kept_lines[rel] = {ln for st in needed for ln in range(st.lineno, (st.end_lineno or st.lineno) + 1)}
            continue

        def fails(t, rel=rel) -> bool:
            return any(project.needs(rel, m, lv, n, 0)
                       for _st, m, lv, n in top_imports(ast.Module(body=t.body, type_ignores=[])))
        flags = _failure_flags(tree, fails)
        if flags:
            got = skipped_spans(tree, flags)
            if got:
                spans[rel] = got + helper_spans(tree, got)
    return spans, whole, kept_lines
