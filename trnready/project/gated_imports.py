"""Link step: a module of the project that is imported only under a CUDA check, and the CUDA files only it builds.

ParlAI's beam search loads its n-gram blocking kernel through a wrapper module that only one file imports, and only
inside `if torch.cuda.is_available():`:

    if torch.cuda.is_available():
        from parlai.ops.ngram_repeat_block import NGramRepeatBlock   # the module `load(...)`s the .cu file

On a Neuron machine that import never runs, so none of the module's code does: the file-level rules already guard
the body of such an `if` (neuron-guarded), and the module is part of that body. Every active finding of a module is
guarded (`guarded_by` "cuda-gated-import") when:

- some other scanned Python file names the module's file name as a word, and every such name is in an import
  statement (`import a.b.mod`, `from a.b.mod import X`, `from a.b import mod`, a relative `from .mod import X`)
  that neuron-guarded guards in its file; a name anywhere else (a string for `importlib`, an attribute, a call)
  leaves the module as it is, and so do more than MAX_FILES files naming it;
- the module is no script (no `if __name__ == "__main__":`), no `__init__.py`, `setup.py` or `conftest.py`.

A CUDA source file (`.cu`, `.cuh`) with an active finding is guarded with them when the Python files naming its file
name are all such modules, and no other Python file of the project builds extensions (`CUDAExtension`,
`cpp_extension`) from a folder listing (`glob`, `listdir`), which might compile it without naming it.

A package below the top level is judged as a whole: when every file outside it naming its folder does so in a
guarded import through it (fairseq's `DynamicConv()`: `if torch.cuda.is_available(): from
fairseq.modules.dynamicconv_layer import DynamicconvLayer`, else the PyTorch layer), everything below the folder is
guarded, its `__init__.py`, kernels and `setup.py` included.

A module (or package) that needs a CUDA-only package to be imported is gated the same way by an import inside
`try:` whose handler catches ImportError and goes on (`except ImportError: conv_fwd = None`, `except (ImportError,
OSError, RuntimeError): pass`): ocnn's Triton kernels package imports `triton` at its top level, nnue-pytorch's
CuPy kernels `cupy`. A package of `cuda-only-packages` is never installed on a Trainium host, so there the import
raises ImportError, the handler's path is the one taken and none of the module's code runs. "Needs" is read from the
module's unconditional top-level imports: a CUDA-only package, or a module of the same folder (`from .kernel import
x`) whose own top level imports one. An import of such a module made by another gated module counts as gated too
(nnue's fused kernel imports the sparse one at its top level, and is itself imported only in a `try`), and the
imports of the project's tests and benchmarks do not count when a file of another scope names the module: they
exercise the optional kernels (ocnn's Triton tests), the program does not need them.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import PurePosixPath

from ..astwalk import walk
from ..index import optional_import_try
from ..scope import classify
from .word_sets import Words, is_word

REASON = "cuda-gated-import"
MAX_FILES = 24  # files naming a module, read to judge it; a module named more widely is left as it is
_NOT_MODULES = frozenset({"__init__.py", "setup.py", "conftest.py", "__main__.py"})
_BUILDS = ("CUDAExtension", "cpp_extension")
# Ways a build script lists a folder for its sources instead of naming them.
_LISTINGS = ("glob", "listdir", "iterdir", "scandir", "os.walk")
_MAIN = re.compile(r"^if\s+__name__\s*==", re.M)
# the package's own tests and benchmarks of an optional module's CUDA path (they exercise it, the program does not
# need it)
_EXERCISING_SCOPES = frozenset({"test", "benchmark"})


def _NEVER() -> bool:
    """The `optional` answer of a module no `try` import may gate (the strict reading)."""
    return False


def guard_gated_modules(findings: list, files, values: dict, read_text) -> list:
    """`read_text(sf)`: a scanned Python file's text or None; `values`: the catalogue's context values."""
    active = [f for f in findings if not f.guarded and not f.suppressed and f.cell is None]
    modules = sorted({f.path for f in active if f.path.endswith(".py")
                      and PurePosixPath(f.path).name not in _NOT_MODULES})
    kernels = sorted({f.path for f in active if f.path.endswith((".cu", ".cuh"))})
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    packages = _sub_packages({f.path for f in active}, py)
    if not modules and not packages:
        return findings
    texts: dict = {}  # only the files a module name may be in (read again to confirm): not every file's text

    def read(rel: str) -> str:
        return texts[rel] if rel in texts else (read_text(py[rel]) if rel in py else None) or ""

    def text(rel: str) -> str:
        if rel not in texts:
            texts[rel] = read(rel)
        return texts[rel]

    named: dict = {}  # stem -> the files holding it as a whole word, in `py` order; built on first use

    def naming_files(stem: str) -> list:
        # One pass over every file answers every module's stem at once: each file's words (split once, then
        # dropped) are intersected with the stems sought. It replaces a lossy per-file filter asked once per
        # (module, file) pair: 176 modules x 1,031 files on diffusers/src, about 1 s of CPU under cProfile. A
        # name the regex finds as a whole word is always one of the file's words (word_sets.Words), so the
        # files kept are the ones the filter let through and the regex confirmed.
        if not named:
            sought = {s.encode("utf-8", "surrogatepass"): s for s in
                      {PurePosixPath(m).stem for m in modules} | {PurePosixPath(p).name for p in packages}
                      if is_word(s)}
            named[None] = []
            for r in py:
                for b in Words(read(r)).among(sought):
                    named.setdefault(sought[b], []).append(r)
        return named.get(stem, [])

    cuda_only = frozenset(values.get("cuda-only-packages", ()))
    needs: dict = {}  # rel -> whether it needs a CUDA-only package; asked only where an import sits in a `try`

    def needing(rel: str) -> bool:
        if rel not in needs:
            needs[rel] = _needs_cuda_only(rel, py, text, cuda_only)
        return needs[rel]

    gated: set = set()
    for _round in range(3):  # a gated module's imports count as gated: settled in a few rounds
        more = {rel for rel in modules if rel not in gated and
                _gated(rel, py, text, naming_files, values, lambda rel=rel: needing(rel), gated)}
        if not more:
            break
        gated |= more
    # a package imported only under a CUDA check takes everything below it along: its modules (which its own
    # `__init__.py` imports unguarded), the kernels it compiles and its own build script
    gated_packages = [p for p in packages if _gated_package(
        p, py, text, naming_files, values, lambda p=p: needing(p + "/__init__.py"), gated)]
    if gated_packages:
        inside = tuple(p + "/" for p in gated_packages)
        gated |= {f.path for f in active if f.path.startswith(inside)}
    if not gated:
        return findings
    if kernels:
        # one read of each file answers every kernel: which name it holds, and whether it builds from a listing
        names = {rel: PurePosixPath(rel).name for rel in kernels}
        naming: dict = {rel: [] for rel in kernels}
        lists_elsewhere = False
        for r in py:
            source = read(r)
            for rel, name in names.items():
                if name in source:
                    naming[rel].append(r)
            lists_elsewhere = lists_elsewhere or (r not in gated and _lists_sources(source))
        for rel in kernels:
            if naming[rel] and all(r in gated for r in naming[rel]) and not lists_elsewhere:
                gated.add(rel)
    return [replace(f, guarded=True, guarded_by=REASON)
            if f.path in gated and not f.guarded and not f.suppressed and f.cell is None else f
            for f in findings]


def _lists_sources(source: str) -> bool:
    """The file builds an extension from a folder listing: it may compile a CUDA file it does not name."""
    return any(b in source for b in _BUILDS) and any(w in source for w in _LISTINGS)


def _gated(rel: str, py: dict, text, naming_files, values: dict, optional=_NEVER,
           gated: "set | frozenset" = frozenset()) -> bool:
    own = text(rel)
    if not own or _MAIN.search(own):
        return False
    stem = PurePosixPath(rel).stem
    return _named_only_in_guarded_imports(stem, lambda r: r == rel, py, text, naming_files, values,
                                          optional=optional, gated=gated)


def _needs_cuda_only(rel: str, py: dict, text, cuda_only: frozenset, depth: int = 0) -> bool:
    """The module's unconditional top-level imports need a package of `cuda-only-packages` (`import triton`,
    `import cupy as cp`), directly or through a module of its own folder that does (`from .kernel import f`)."""
    if rel not in py or not cuda_only:
        return False
    source = text(rel)
    if not source or not ("from ." in source or any(p in source for p in cuda_only)):
        return False
    from ..readers.python import parse

    tree, _diag = parse(source, rel)
    if tree is None:
        return False
    folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
    for st in tree.body:
        if isinstance(st, ast.Import):
            if any(a.name.split(".")[0] in cuda_only for a in st.names):
                return True
        elif isinstance(st, ast.ImportFrom):
            if st.level == 0 and (st.module or "").split(".")[0] in cuda_only:
                return True
            if st.level == 1 and depth < 2:
                targets = [st.module] if st.module else [a.name for a in st.names]
                if any(_needs_cuda_only(folder + t.replace(".", "/") + ".py", py, text, cuda_only, depth + 1)
                       for t in targets):
                    return True
    return False


def _named_only_in_guarded_imports(name: str, own, py: dict, text, naming_files, values: dict,
                                   package: bool = False, optional=_NEVER,
                                   gated: "set | frozenset" = frozenset()) -> bool:
    """Some file other than `own(rel)` names `name`, and every such file does so only in guarded imports of it.
    The files holding the name as a word come from one split of each text into its words (a regex search of every
    text per module took minutes on a thousand files); they are confirmed by a substring test, then the regex, and
    the count stops as soon as the name is used too widely to be judged."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    naming = []
    for r in (naming_files(name) if is_word(name) else py):
        if own(r):
            continue
        source = text(r)
        if name in source and word.search(source):
            naming.append(r)
            if len(naming) > MAX_FILES:
                return False
    if not naming:
        return False
    # each naming file parsed at most once, and only until one answer settles it: "guarded", "tried" (the imports
    # left sit in an optional `try`) or None. On diffusers/src every one of 759 answers was None (a name in an
    # `__init__.py` string table, an attribute): parsing them all cost about a quarter of the cold scan.
    states: dict = {}

    def state(r: str):
        if r not in states:
            states[r] = "guarded" if r in gated else _import_state(r, text(r), name, values, package)
        return states[r]

    # A module needing a CUDA-only package may also be imported in a `try`. The package's own tests and benchmarks of
    # its CUDA path import it as they like (ocnn's Triton tests): they exercise the optional kernels, they do not make
    # the program need them
    kept = [r for r in naming if r not in gated and classify(r) not in _EXERCISING_SCOPES]
    if any(state(r) is None for r in kept):
        return False  # neither reading holds: that file names the module outside a guarded or tried import
    if all(state(r) == "guarded" for r in naming):
        return True
    if optional is _NEVER:
        return False
    return bool(kept) and all(state(r) in ("guarded", "tried") for r in kept) \
        and any(state(r) == "tried" for r in kept) and optional()


def _sub_packages(paths: set, py: dict) -> list:
    """The package folders below the top level (`fairseq/modules/dynamicconv_layer`: an `__init__.py`, two or more
    folders deep) holding one of `paths`, outermost first."""
    out: set = set()
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(2, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder + "/__init__.py" in py and is_word(parts[depth - 1]):
                out.add(folder)
    return sorted(out, key=lambda p: (p.count("/"), p))


def _gated_package(folder: str, py: dict, text, naming_files, values: dict, optional=_NEVER,
                   gated: "set | frozenset" = frozenset()) -> bool:
    """Every file outside the package naming its folder's name does so in import statements of the package
    (`from fairseq.modules.dynamicconv_layer import DynamicconvLayer`) that neuron-guarded guards: fairseq's
    `DynamicConv()` imports its CUDA layer only under `if torch.cuda.is_available():`, and falls back to the
    PyTorch one."""
    inside = folder + "/"
    return _named_only_in_guarded_imports(PurePosixPath(folder).name, lambda r: r.startswith(inside), py, text,
                                          naming_files, values, package=True, optional=optional, gated=gated)


def _import_state(rel: str, source: str, stem: str, values: dict, package: bool = False) -> str | None:
    """"guarded" when every node of the file naming `stem` is an import of it that neuron-guarded guards; "tried"
    when the imports left sit in the body of an optional `try` (a handler catching ImportError goes on: index.py
    `optional_import_try`); None otherwise. With `package`, `stem` is a package's folder and an import through it
    counts (`from a.pkg import X`, `import a.pkg.mod`)."""
    from ..readers.python import parse
    from ..context.base import FileContext
    from ..context.neuron_guarded import guarded_at

    tree, _diag = parse(source, rel)
    if tree is None:
        return None
    imports: list = []
    for node in walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names]
            if any(stem in parts for parts in names):
                if not package and any(stem in parts[:-1] for parts in names):
                    return None  # `import pkg.mod.sub`: a package of that name, not the module
                imports.append(node)
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            if not package and stem in parts[:-1]:
                return None
            if (stem in parts if package else parts[-1] == stem) or any(a.name == stem for a in node.names):
                imports.append(node)
        elif isinstance(node, ast.Name) and node.id == stem or isinstance(node, ast.Attribute) and node.attr == stem:
            return None
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and stem in node.value:
            return None
    if not imports:
        return None
    ctx = FileContext(index=None, tree=tree, resolver=None, values=values, path=rel)
    left = [n for n in imports if not guarded_at(ctx, (n.lineno, n.col_offset), "", ("import",))]
    if not left:
        return "guarded"
    tried = {id(st) for node in walk(tree) if isinstance(node, ast.Try) and optional_import_try(node)
             for st in node.body if isinstance(st, (ast.Import, ast.ImportFrom))}
    return "tried" if all(id(n) in tried for n in left) else None
