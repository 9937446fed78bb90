"""Link step: code the project runs only for CUDA tensors, beside a PyTorch path that runs everywhere else.

NVIDIA's StyleGAN family (stylegan2-ada-pytorch, stylegan3, eg3d) wraps each custom CUDA op in Python that picks
the kernel only for a tensor on a CUDA device and otherwise computes the same thing with stock PyTorch:

    def bias_act(x, b=None, impl="cuda"):
        if impl == "cuda" and x.device.type == "cuda" and _init():   # _init() builds the plugin (load(...))
            return _bias_act_cuda(...).apply(x, b)
        return _bias_act_ref(x, b)                                     # what runs on Neuron

A module-level function or class is *CUDA-only* when every mention of its name in the scanned Python is a call
that sits in an arm of an `if` that never runs on a Neuron machine (neuron-guarded: `x.device.type == "cuda"`,
`x.is_cuda`, a conjunct after such a test, a local check returning False off CUDA) whose other path runs there and
goes on: the `else`, or, when that arm returns, the statements after the `if`, not ending in `raise` or exit. The
test must ask where a tensor is: `torch.cuda.is_available()` becomes an accelerator check in the port, true on
Neuron, and its CUDA arm then runs there. A call inside another CUDA-only definition counts too (`get_plugin()`
called only from `_init()`), up to MAX_DEPTH definitions deep. A test holding a finding still reported (a device
pick the report asks to change) does not count. A mention that is no such call (a callback, a comment, a string,
an import under another name), a decorated definition, or a name with no call at all leaves the definition
undecided.

Findings inside a CUDA-only definition:

- of the custom-kernel category (the extension's build, `load(...)` or the call of the project's wrapper around
  it): kept, lowered to an advisory: on Neuron the reference path runs, so porting the kernel to NKI is a
  performance item, not a blocker. The CUDA files the build names (a literal source or header ending in `.cu` /
  `.cuh`, and what they include) are lowered with it, unless another reported build compiles them or a build whose
  sources are unknown sits in their folder or above;
- of any other category (`torch.cuda.current_stream()`, `torch.cuda.get_device_capability()` used by the kernel
  path): guarded (`guarded_by` "cuda-only-path"): that code never runs on Neuron.

A wrapper without such a path (`if x.is_cuda: return op(x)` then `raise NotImplementedError`, the kernel called on
every device, the build at module level) keeps its findings as they are.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import PurePosixPath

from ..filekinds import kind_of
from .cuda_sources import build_sources, included, instantiation_places
from ..astwalk import walk
from .step_memo import holding, passed_over, peek, read_deep, text_test

REASON = "cuda-only-path"
_CATEGORY = "custom-cuda-kernel"
MAX_DEPTH = 6  # CUDA-only definitions calling each other, followed at most this deep
MAX_FILES = 24  # files mentioning a name, read to judge it; a name used more widely is left undecided
MAX_SEARCHES = 2000  # definitions judged per scan; the rest are left undecided
LOWERED = ("; every use of this extension sits on a path taken only for CUDA tensors, beside a PyTorch path that "
           "computes the same: on Neuron the reference path runs, so the kernel is a performance item (porting it "
           "to NKI is optional)")
LOWERED_SOURCE = ("; compiled only by {build}, which the project uses only for CUDA tensors beside a PyTorch "
                  "reference path: on Neuron the reference path runs, so porting this kernel to NKI is optional")


class _File:
    """One Python file read for the step: its tree, parents, top-level definitions and neuron-guarded spans."""

    def __init__(self, rel: str, text: str, values: dict, reported: frozenset = frozenset()):
        self.rel, self.text = rel, text
        self.reported = reported  # lines holding a finding still reported (the device test may be one)
        from ..readers.python import parse  # the readers' parse: the scanned code's warnings stay silent

        tree, diag = parse(text, rel)
        if tree is None:
            raise ValueError(diag)  # (Judge.file records the file as unreadable)
        self.tree = tree
        # One walk: each node's parent, the nodes naming each identifier (a name, an attribute, an imported name),
        # the branches and the calls.
        self.parent: dict = {}
        self.named: dict = {}  # identifier -> [Name / Attribute / alias nodes]
        self.branches: list = []  # If and IfExp nodes
        self.calls: list = []
        stack: list = [self.tree]
        while stack:
            node = stack.pop()
            k = type(node)
            if k is ast.Name:
                self.named.setdefault(node.id, []).append(node)
            elif k is ast.Attribute:
                self.named.setdefault(node.attr, []).append(node)
            elif k is ast.alias:
                for part in {*node.name.split("."), node.asname or ""} - {""}:
                    self.named.setdefault(part, []).append(node)
            elif k is ast.Call:
                self.calls.append(node)
            elif k is ast.If or k is ast.IfExp:
                self.branches.append(node)
            for field in node._fields:  # ast.iter_child_nodes inlined: this walk covers every file judged
                v = getattr(node, field, None)
                if type(v) is list:
                    for c in v:
                        if isinstance(c, ast.AST):
                            self.parent[id(c)] = node
                            stack.append(c)
                elif isinstance(v, ast.AST):
                    self.parent[id(v)] = node
                    stack.append(v)
        self.tops: dict = {}  # name -> (first line, last line, decorated)
        for st in self.tree.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([st.lineno, *(d.lineno for d in st.decorator_list)])
                self.tops[st.name] = (first, st.end_lineno or st.lineno, bool(st.decorator_list))
        from ..context.base import FileContext

        self.ctx = FileContext(index=None, tree=self.tree, resolver=None, values=values, path=rel)

    def top_at(self, line: int) -> str | None:
        return next((n for n, (a, b, _d) in self.tops.items() if a <= line <= b), None)

    def guarded(self, node) -> bool:
        from ..context.neuron_guarded import guarded_at

        return guarded_at(self.ctx, (node.lineno, node.col_offset), "", ("call",))

    def in_fast_path(self, node):
        """The private method of a module-level class holding `node` when `guarded-helper` guards it as a per-call
        fast path (every reference a `self._m(...)` of its class under a test of a tensor's device: petals'
        `_optimized_input_layernorm`), else None."""
        from ..context.guarded_helper import _helper_spans, _methods

        spans = self.ctx.fact("guarded-helper", _helper_spans)
        if not spans:
            return None
        pos = (node.lineno, node.col_offset)
        for _c, m in _methods(self.tree):
            if (m.lineno, m.col_offset) <= pos < (m.end_lineno, m.end_col_offset) \
                    and any(s <= (m.lineno, m.col_offset) < e for s, e in spans):
                return m
        return None


class _Texts:
    """rel -> the text of each scanned Python file, read again on every look rather than kept: holding the text
    of a whole repository for the step doubled a cold scan's peak memory (35 MiB on diffusers/src), and the
    step reads each file a few times at most (the operating system's cache serves the rereads)."""

    def __init__(self, py: dict, read_text):
        self.py, self.read = py, read_text

    def get(self, rel: str):
        sf = self.py.get(rel)
        return self.read(sf) if sf is not None else None

    def holding(self, tests):
        """(rel, text) of the files passing one of the tests (or unreadable: None); the others are passed over."""
        for rel, sf in self.py.items():
            text = holding(self.read, sf, tests)
            if text is None or text:
                yield rel, text

    def peeked(self):
        """(rel, text) of every file, each look noted afterwards by the step (`Judge.reachable`)."""
        return ((rel, peek(self.read, sf)) for rel, sf in self.py.items())

    def note(self, rel: str, deep: bool, tests) -> None:
        (read_deep if deep else passed_over)(self.read, rel, tests)


KEEP_FILES = 8  # parsed files kept while judging (verdicts are memoised apart, so an evicted file is parsed again)


def _fails_or_empty(stmts) -> bool:
    from ..context.neuron_guarded import _fails

    return not stmts or _fails(stmts)


def _other_path(f: _File, node) -> bool:
    """Whether the guarded call `node` has a path beside it that runs on Neuron and goes on: the innermost `if` (or
    conditional expression) around it whose arm holding it is guarded and whose other path is not, that other
    path being its `else`, or the statements after the `if` when the arm returns; its test asks where a tensor is
    (`_device_test`)."""
    child, cur = node, f.parent.get(id(node))
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
        if type(cur) is ast.IfExp and child is not cur.orelse and not f.guarded(cur.orelse):
            return _kept_test(f, cur.test)
        if type(cur) is ast.If and child not in cur.orelse:
            if cur.orelse:
                if not f.guarded(cur.orelse[0]):
                    return not _fails_or_empty(cur.orelse) and _kept_test(f, cur.test)
            else:
                block = _block_of(f, cur)
                after = block[block.index(cur) + 1:] if block is not None else []
                ends = cur.body and type(cur.body[-1]) is ast.Return
                if ends and after and not f.guarded(after[0]):
                    return not _fails_or_empty(after) and _kept_test(f, cur.test)
        child, cur = cur, f.parent.get(id(cur))
    return False


def _kept_test(f: _File, test) -> bool:
    """A device test the port keeps as it is: it asks where a tensor is, and no finding still reported sits on its
    lines (a test the report asks to change, `x.device.type == "cuda"` in a reported device pick, may come to hold
    on Neuron once changed)."""
    lines = range(test.lineno, (test.end_lineno or test.lineno) + 1)
    return _device_test(f, test) and not any(ln in f.reported for ln in lines)


def _asks_device(node) -> bool:
    """`x.is_cuda`, `x.device.type` somewhere in the expression or statements."""
    return any(isinstance(n, ast.Attribute) and (n.attr == "is_cuda" or (
        n.attr == "type" and isinstance(n.value, ast.Attribute) and n.value.attr == "device")) for n in walk(node))


def _device_test(f: _File, test) -> bool:
    """The test asks on which device a tensor is (`x.device.type == "cuda"`, `x.is_cuda`), itself or through a
    function of the file it calls (`_should_use_custom_op(input)`). A check of the machine
    (`torch.cuda.is_available()`) does not count: the port turns it into an accelerator check that holds on Neuron,
    and its CUDA arm then runs there."""
    if _asks_device(test):
        return True
    named = {n.func.id for n in walk(test) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return any(isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name in named and _asks_device(st)
               for st in f.tree.body)


_DEVICE_TEXT = re.compile(r"\.is_cuda\b|device\.type\s*(?:[!=]=|in|not\s+in)\s*[\[(]?\s*['\"]cuda")


def _has_word(text: str, word: str) -> bool:
    """The word occurs in the text with no identifier character either side (str.find: a regular expression
    with look-arounds is slow over a large project)."""
    i = text.find(word)
    while i >= 0:
        j = i + len(word)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and \
                (j == len(text) or not (text[j].isalnum() or text[j] == "_")):
            return True
        i = text.find(word, j)
    return False


_HEADS = ("def ", "class ", "async def ")


@text_test("device-test")
def _device_text(text: str) -> bool:
    """The text may test a tensor's device for CUDA (`Judge.reachable` parses only such files)."""
    return ("is_cuda" in text or "device.type" in text) and _DEVICE_TEXT.search(text) is not None


@text_test("word")
def _word_test(text: str, word: str) -> bool:
    return _has_word(text, word)


@text_test("defines-any")
def _defines_any(text: str, *names: str) -> bool:
    return not set(names).isdisjoint(_top_names(text))


def _top_names(text: str) -> list:
    """Names of the `def` / `class` statements starting in column 0."""
    out = []
    for head in _HEADS:
        i = 0 if text.startswith(head) else text.find("\n" + head)
        while i >= 0:
            j = k = i + len(head) + (text[i] == "\n")
            while k < len(text) and (text[k].isalnum() or text[k] == "_"):
                k += 1
            if k > j:
                out.append(text[j:k])
            i = text.find("\n" + head, k)
    return out


def _callee(func) -> str | None:
    """The last name of a called expression (`_init`, `custom_ops.get_plugin` -> `get_plugin`)."""
    return func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None


def _fast_methods(f: _File, name: str) -> list:
    """(class, method) of the file's module-level classes for a private method of that name `guarded-helper` guards
    as a per-call CUDA fast path."""
    if not name.startswith("_"):
        return []
    from ..context.guarded_helper import _methods

    return [(c, m) for c, m in _methods(f.tree) if m.name == name and f.in_fast_path(m.body[0]) is m]


def _block_of(f: _File, st):
    """The statement list holding st."""
    parent = f.parent.get(id(st))
    for field in ("body", "orelse", "finalbody", "handlers"):
        stmts = getattr(parent, field, None)
        if isinstance(stmts, list) and any(s is st for s in stmts):
            return stmts
    return None


class Judge:
    """Which module-level definitions of the project run only on a CUDA-only path (memoised)."""

    def __init__(self, texts, values: dict, reported: dict | None = None):
        self.texts = texts  # rel -> text of each scanned Python file (None when unreadable)
        self.reported = reported or {}  # rel -> lines holding a finding still reported
        self.values = values
        self.files: dict = {}
        self.memo: dict = {}
        self.named: dict = {}  # word -> files naming it
        self._tops_of: dict = {}  # rel -> its module-level names, as `defined` read them
        self.searched = 0

    def file(self, rel: str) -> _File | None:
        if rel in self.files:
            self.files[rel] = self.files.pop(rel)  # most recently used last
        else:
            while len(self.files) >= KEEP_FILES:  # a parsed module is ten times its text: keep the last few
                del self.files[next(iter(self.files))]
            text = self.texts.get(rel)
            try:
                self.files[rel] = _File(rel, text, self.values, self.reported.get(rel, frozenset())) \
                    if text is not None else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self.files[rel] = None
        return self.files[rel]

    def cuda_only(self, rel: str, name: str, depth: int = 0, stack: frozenset = frozenset()) -> bool:
        key = (rel, name)
        if key in self.memo:
            return self.memo[key]
        if depth > MAX_DEPTH or key in stack:
            return False
        got = self._decide(rel, name, depth, stack | {key})
        if depth == 0 or got:
            self.memo[key] = got
        return got

    def reachable(self) -> set:
        """Names a CUDA-only definition can have: the callees of the calls on a path taken only for CUDA tensors in
        the files testing a tensor's device, and the callees of the project's definitions of those names,
        MAX_DEPTH deep. Only the files testing a device and those defining such names are parsed; a finding
        elsewhere is never judged."""
        names: set = set()
        for rel, text in self.texts.holding([("@device-test",)]):
            if text is None:
                continue
            f = self.file(rel)
            if f is None:
                continue
            for node in f.branches:
                if not _device_test(f, node.test):
                    continue
                arm = [node.test, *(node.body if type(node) is ast.If else [node.body])]
                for call in (n for part in arm for n in walk(part) if type(n) is ast.Call):
                    callee = _callee(call.func)
                    if callee and callee not in names and f.guarded(call) and _other_path(f, call):
                        names.add(callee)
                        # a fast-path method of the class (`self._optimized_ln(x)`): what it calls is reached too
                        for _c, m in (_fast_methods(f, callee) if type(call.func) is ast.Attribute else ()):
                            names |= {c for n in walk(m) if type(n) is ast.Call and (c := _callee(n.func))}
        if not names:
            return names
        defined = self.defined()
        frontier = names & defined.keys()
        for _ in range(MAX_DEPTH):
            more: set = set()
            for name in frontier:
                for rel in defined[name][:MAX_FILES]:
                    f = self.file(rel)
                    st = next((st for st in f.tree.body if getattr(st, "name", None) == name), None) if f else None
                    if st is not None:
                        more |= {c for n in walk(st) if type(n) is ast.Call and (c := _callee(n.func))}
            frontier = (more - names) & defined.keys()
            names |= more
            if not frontier:
                break
        # what `defined` read of a file is which of these names it defines (a step reading through
        # step_memo.TextReads keeps that, and judges an edited file defining none of them passed over)
        test = ("@defines-any", *sorted(names))
        for rel, _ in self.texts.py.items():
            self.texts.note(rel, any(n in names for n in self._tops_of.get(rel, ())), [test])
        return names

    def defined(self) -> dict:
        """name -> the files defining it at module level (`def name` / `class name` in column 0), found with
        substring searches (a multi-line regular expression over a large project costs seconds)."""
        out: dict = {}
        for rel, text in self.texts.peeked():
            tops = self._tops_of[rel] = _top_names(text or "")
            for name in tops:
                out.setdefault(name, []).append(rel)
        return out

    def _own_method(self, rel: str, name: str) -> bool:
        """No other scanned file names the method but to define one of that name itself (a subclass elsewhere
        calling `self._m()` may reach it on a path Neuron takes: the link step `imported-helper` says the same)."""
        own = re.compile(rf"def\s+{re.escape(name)}\s*\(")
        return all(own.search(self.texts.get(other) or "") for other in self.naming(name) if other != rel)

    def naming(self, name: str) -> list:
        """The scanned Python files whose text holds the word (one search per name, kept)."""
        if name not in self.named:
            self.named[name] = [rel for rel, text in self.texts.holding([("@word", name)]) if text is not None]
        return self.named[name]

    def _decide(self, rel: str, name: str, depth: int, stack: frozenset) -> bool:
        own = self.file(rel)
        if own is None or name not in own.tops or own.tops[name][2] or name.startswith("__"):
            return False
        if self.searched >= MAX_SEARCHES:
            return False
        self.searched += 1
        word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        # The definition's own file first: most names fail there, before any other file is read.
        calls = self._mentions(own, name, word, depth, stack)
        if calls is None:
            return False
        module = PurePosixPath(rel).parent.name if rel.endswith("__init__.py") else PurePosixPath(rel).stem
        module_word = re.compile(rf"(?<!\w){re.escape(module)}(?!\w)")
        naming = [r for r in self.naming(name) if r != rel]
        if len(naming) > MAX_FILES:
            return False
        for other in naming:
            f = self.file(other)
            if f is None:
                return False
            if name in f.tops and not module_word.search(f.text):
                continue  # its own definition of that name: another function
            got = self._mentions(f, name, word, depth, stack)
            if got is None:
                return False
            calls += got
        return calls > 0

    def _mentions(self, f: _File, name: str, word, depth: int, stack: frozenset) -> int | None:
        """How many CUDA-only calls of `name` the file makes, or None when some mention is anything else. The
        file's own definition of that name (the one judged, or another module's namesake) is left out."""
        skip = f.tops.get(name)
        first, last = (skip[0], skip[1]) if skip else (0, -1)
        lines = f.text.splitlines()
        written = sum(len(word.findall(ln)) for i, ln in enumerate(lines, 1) if not first <= i <= last)
        seen, calls = 0, 0
        for node in f.named.get(name, ()):
            line = getattr(node, "lineno", 0)
            if skip and first <= line <= last:
                continue
            if isinstance(node, ast.alias):
                if name in node.name.split(".") or node.asname == name:
                    if node.asname not in (None, name):
                        return None  # imported under another name: its uses are not counted here
                    seen += node.name.split(".").count(name) + (node.asname == name)
                continue
            if not ((isinstance(node, ast.Name) and node.id == name)
                    or (isinstance(node, ast.Attribute) and node.attr == name)):
                continue
            seen += 1
            call = f.parent.get(id(node))
            if type(call) is not ast.Call or call.func is not node or type(getattr(node, "ctx", None)) is not ast.Load:
                return None
            if f.guarded(call) and _other_path(f, call):
                calls += 1
                continue
            method = f.in_fast_path(call)
            if method is not None and self._own_method(f.rel, method.name):
                calls += 1  # inside a CUDA fast path of a class (`self._optimized_ln(x)` under `x.device.type`)
                continue
            outer = f.top_at(line)
            if outer is None or outer == name or not self.cuda_only(f.rel, outer, depth + 1, stack):
                return None
            calls += 1
        return calls if seen == written else None


def _under(build_path: str, cuda_path: str) -> bool:
    folder = str(PurePosixPath(build_path).parent)
    return folder in ("", ".") or cuda_path.startswith(folder + "/")


def cuda_only_paths(findings: list, files, engine, read_text, root, cache=None, digests=()) -> list:
    """Lower the custom-kernel findings, and guard the others, inside definitions the project runs only for CUDA
    tensors beside a PyTorch path (module docstring). `read_text(sf)`: a scanned Python file's text or None. The
    changes are kept in the result cache under the digests of the scanned files and the findings handed in
    (project/step_memo.py): a warm re-scan of an unchanged tree reads no file for this step."""
    from .step_memo import remembered

    # every kind read: the CUDA sources a build compiles are read by path
    return remembered(REASON, findings, files, cache, digests,
                      lambda fs, read: _decide(fs, files, engine, read, root), read_text, None)


def _decide(findings: list, files, engine, read_text, root) -> list:
    values = getattr(getattr(engine, "catalogue", None), "context_values", None) or {}
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    todo = [i for i, f in enumerate(findings) if f.path in py and f.cell is None and not f.guarded
            and not f.suppressed]
    if not todo:
        return findings
    texts = _Texts(py, read_text)
    reported: dict = {}
    for f in findings:
        if not f.guarded and not f.suppressed and f.cell is None:
            reported.setdefault(f.path, set()).update(range(f.line, f.end_line + 1))
    judge = Judge(texts, values, {rel: frozenset(lines) for rel, lines in reported.items()})
    reached = judge.reachable()
    out = list(findings)
    lowered_builds: list = []
    tops: dict = {}  # rel -> module-level definitions read from the text (no parse for files never judged)
    for i in todo:
        f = findings[i]
        if f.path not in tops:
            from .unreferenced import top_definitions

            tops[f.path] = top_definitions(texts.get(f.path) or "")
        top = next((d[0] for d in tops[f.path] if d[1] <= f.line <= d[2]), None)
        if top is None or top not in reached or not judge.cuda_only(f.path, top):
            continue
        if f.category == _CATEGORY:
            out[i] = replace(f, severity="advisory", message=f.message + LOWERED)
            lowered_builds.append(i)
        else:
            out[i] = replace(f, guarded=True, guarded_by=REASON)
    build_rules = set(values.get("extension-build-rules", ()))
    builds = [i for i in todo if out[i].rule in build_rules and out[i].path.endswith(".py")]
    cuda_paths = {sf.rel for sf in files if kind_of(PurePosixPath(sf.rel).name) == "cuda"}
    if not builds or not cuda_paths or root is None:
        return out
    from ..postprocess_cuda import cuda_texts

    cuda = cuda_texts(root, cuda_paths)
    if lowered_builds:
        out = _lower_sources(out, [i for i in lowered_builds if i in builds], builds, judge, cuda, cuda_paths)
    return instantiation_places(out, builds, judge, cuda, cuda_paths)


def _lower_sources(out: list, lowered: list, builds: list, judge: Judge, texts: dict, cuda_paths: set) -> list:
    """The CUDA files only lowered builds compile are lowered with them."""
    low: dict = {}  # CUDA path -> the lowered build naming it first
    for i in lowered:
        f = out[i]
        named = build_sources(judge.file(f.path), f, cuda_paths)
        for p in sorted(included(named, texts, cuda_paths)) if named else ():
            low.setdefault(p, f)
    if not low:
        return out
    for i in builds:  # another reported build compiling them keeps them blockers
        f = out[i]
        if i in lowered:
            continue
        named = build_sources(judge.file(f.path), f, cuda_paths)
        if named is None:
            for p in [p for p in low if _under(f.path, p)]:
                del low[p]
        else:
            for p in included(named, texts, cuda_paths):
                low.pop(p, None)
    for i, f in enumerate(out):
        build = low.get(f.path)
        if build is None or f.category != _CATEGORY or f.guarded or f.suppressed or f.severity == "advisory":
            continue
        out[i] = replace(f, severity="advisory",
                         message=f.message + LOWERED_SOURCE.format(build=f"{build.path}:{build.line}"))
    return out
