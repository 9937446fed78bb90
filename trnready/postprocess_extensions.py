"""Report step: one finding per custom CUDA extension, its other places listed in it (`elsewhere`).

An extension the project builds is two items of work: its kernels (the CUDA files defining `__global__`
functions, ported to NKI) and its build (`CUDAExtension(...)` in a setup.py, `cpp_extension.load(...)`). The rest
are places of those two, not items of their own:

- an import of the built module (`import amp_C`, `from . import _C`), which the link step reports with the build in
  its chain, is a place of the build's finding when that finding is reported with the same standing (both active,
  or both guarded); an import with a working fallback never hides a build without one, and an import of a module
  whose build is not reported (built elsewhere, or guarded while the import is not) stays a finding;
- a CUDA file that defines no kernel but includes one that does, directly or through other headers (a host
  launcher calling the kernels of an included `.cuh`, a file expanding an instantiation macro of them), is a place
  of the first such kernel file's finding; so is one that declares with a prototype a host function a kernel file
  defines (a launcher calling `deformable_im2col(...)` of the kernel file, a header of launch declarations).

Runs after the kernel-test step, which reads the unguarded top-level imports of a test file to guard its code.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .filekinds import kind_of
from .postprocess_cuda import cuda_texts, joined_path as _joined, whole_file_cuda
from .read import read_bytes
from .readers.cuda import cuda_kernels, local_includes
from .astwalk import walk
from .project.syntax import dotted as _dotted

_CATEGORY = "custom-cuda-kernel"
_GATE_LIKE = ("source", "build")
MAX_BYTES = 2 * 1024 * 1024
MAX_NAMED = 5  # places named in the kept finding's message
_IMPORTED = "imported at"
_LAUNCHED = "also the files that include it and define no kernel:"
_DECLARING = "also the files that declare its host functions and define no kernel:"


def _standing(f) -> tuple:
    return (f.guarded, f.suppressed)


def _fold(target, moved) -> object:
    places = ((moved.path, moved.line, moved.column, moved.rule),
              *((moved.path, ln, col, rule) for ln, col, rule in moved.occurrences), *moved.elsewhere)
    more = tuple(dict.fromkeys((*target.elsewhere, *places)))
    return replace(target, elsewhere=more)


def _named(f, what: str, places: list) -> object:
    """The kept finding's message names the places folded into it (the text report shows no `elsewhere`)."""
    if not places:
        return f
    shown = ", ".join(places[:MAX_NAMED]) + (f" and {len(places) - MAX_NAMED} more" if len(places) > MAX_NAMED else "")
    return replace(f, message=f"{f.message}; {what} {shown}")


def _keeps(target, f) -> bool:
    """The target finding may carry `f`: same standing, and counted wherever `f` would be."""
    return _standing(target) == _standing(f) and (target.scope == f.scope or target.scope in _GATE_LIKE)


_CATCHES = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException", "OSError", "RuntimeError"})


def _catches(h) -> bool:
    """An `except` clause that takes a failed import of a compiled module and goes on (bare, ImportError,
    Exception, ...; its body does not end in `raise`)."""
    t = h.type
    names = [] if t is None else (t.elts if type(t) is ast.Tuple else [t])
    caught = t is None or any((n.attr if type(n) is ast.Attribute else getattr(n, "id", "")) in _CATCHES for n in names)
    return caught and not (h.body and type(h.body[-1]) is ast.Raise)


def _tried_lines(tree) -> set:
    """Lines of the import statements inside a `try:` body whose handlers go on without the import."""
    out: set = set()
    for node in walk(tree):
        if type(node) is ast.Try and node.handlers and all(_catches(h) for h in node.handlers):
            for st in node.body:
                for inner in walk(st):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        out.add(inner.lineno)
    return out


def _build_guarded(findings: list, at: dict, i: int) -> bool:
    """Whether the chain of imports from finding i ends at a build reported only as guarded (`from .cauchy import
    mult`, where cauchy.py imports the module a setup.py builds under `if torch.cuda.is_available():`)."""
    seen = {i}
    target = findings[i].link_target
    while target is not None:
        here = [k for k in at.get(tuple(target), ()) if k not in seen]
        if not here:
            return False
        nxt = [k for k in here if findings[k].link_target]
        if len(nxt) != len(here):  # the build itself
            return all(findings[k].guarded for k in here if not findings[k].link_target)
        seen.update(here)
        target = findings[nxt[0]].link_target
    return False


def _optional(findings: list, at: dict, root) -> list:
    """An import of a built extension whose build is reported only as guarded (built only where CUDA is: never on
    a Trainium host), directly or through the project module importing it, inside a `try:` that goes on without
    it, takes its fallback there: guarded (`optional-extension`). Unguarded, a missing build fails the import."""
    if root is None:
        return findings
    trees: dict = {}
    out = list(findings)
    for i, f in enumerate(findings):
        if not f.link_target or f.guarded or f.suppressed or f.category != _CATEGORY:
            continue
        if not _build_guarded(findings, at, i):
            continue
        if f.path not in trees:
            data, _ = read_bytes(Path(root) / f.path, f.path, MAX_BYTES)
            try:
                trees[f.path] = _tried_lines(ast.parse(data)) if data is not None else set()
            except (SyntaxError, ValueError, RecursionError):
                trees[f.path] = set()
        if f.line in trees[f.path]:
            out[i] = replace(f, guarded=True, guarded_by="optional-extension")
    return out


def built_imports(findings: list, root=None) -> list:
    """Fold each import of a built extension (a finding with `link_target`: the build's place, or the import of
    the module through which it reaches the build) into the finding its chain of targets ends at."""
    if not any(f.link_target for f in findings):
        return findings
    at: dict = {}  # (path, line) -> indices of custom-kernel findings placed there (own line or occurrences)
    for i, f in enumerate(findings):
        if f.category == _CATEGORY:
            for line, _rule in f.places():
                at.setdefault((f.path, line), []).append(i)
    findings = _optional(findings, at, root)
    parent: dict = {}
    for i, f in enumerate(findings):
        if f.link_target and f.category == _CATEGORY:
            k = next((k for k in at.get(tuple(f.link_target), ()) if k != i and _keeps(findings[k], f)), None)
            if k is not None:
                parent[i] = k
    out = list(findings)
    drop: set = set()
    named: dict = {}  # index of a kept finding -> the places folded into it
    for i in parent:
        root_i, seen = parent[i], {i}
        while root_i in parent and root_i not in seen:
            seen.add(root_i)
            root_i = parent[root_i]
        if root_i in seen:
            continue  # a cycle of imports: nothing to fold into
        f = findings[i]
        out[root_i] = _fold(out[root_i], f)
        named.setdefault(root_i, []).append(f"{f.path}:{f.line}")
        drop.add(i)
    return [_named(f, _IMPORTED, named.get(i, [])) for i, f in enumerate(out) if i not in drop]


def _resolve(target: str, includer: str, paths: set) -> str | None:
    """The scanned file an include names: relative to the including file's folder or, nearest first, to a folder
    above it (`#include "cuda/im2col.cuh"` from src/cuda/ops.cu built with src/ as include directory), else the
    one scanned path ending in it."""
    for folder in PurePosixPath(includer).parents:
        cand = _joined(folder, target)
        if cand is not None and cand in paths:
            return cand
    tail = target.lstrip("./")
    found = [p for p in paths if p == tail or p.endswith("/" + tail)]
    return found[0] if len(found) == 1 else None


def cuda_launchers(findings: list, engine, root=None) -> list:
    """Fold the finding of a CUDA file with no `__global__` kernel into the finding of the first reported kernel
    file it includes (directly or through other scanned CUDA files)."""
    cuda = whole_file_cuda(findings, engine, root)
    if len(cuda) < 2:
        return findings
    texts = cuda_texts(root, {f.path for f in findings if kind_of(PurePosixPath(f.path).name) == "cuda"})
    kernel_files = {rel for rel, t in texts.items() if t is not None and cuda_kernels(t)}
    launchers = {findings[i].path for i in cuda if texts.get(findings[i].path) is not None} - kernel_files
    if not kernel_files or not launchers:
        return findings
    paths = set(texts)
    kept: dict = {}  # (kernel path, rule) -> indices of its findings
    for i in cuda:
        if findings[i].path in kernel_files:
            kept.setdefault((findings[i].path, findings[i].rule), []).append(i)
    out = list(findings)
    drop: set = set()
    named: dict = {}
    defined: dict = {}  # kernel path -> the functions it defines, read when a launcher declares any
    declaring: dict = {}
    for i in cuda:
        f = findings[i]
        if f.path not in launchers:
            continue
        # the nearest kernel file (the header the launcher names) wins
        owner = nearest_included(f.path, texts, paths, lambda hit, f=f: next(
            (k for k in kept.get((hit, f.rule), ()) if _keeps(out[k], f)), None))
        via = named
        if owner is None:
            owner, via = _declaring_owner(f, texts, kernel_files, kept, out, defined), declaring
        if owner is None:
            continue
        out[owner] = _fold(out[owner], f)
        via.setdefault(owner, []).append(f.path)
        drop.add(i)
    return [_named(_named(f, _LAUNCHED, sorted(named.get(i, []))), _DECLARING, sorted(declaring.get(i, [])))
            for i, f in enumerate(out) if i not in drop]


def _declaring_owner(f, texts: dict, kernel_files: set, kept: dict, out: list, defined: dict):
    """The finding of the kernel file (first in path order) that defines a host function the file declares with a
    prototype and does not define (GLIP's `deform_conv_cuda.cu`: `void deformable_im2col(...);`, defined with its
    `__global__` kernels in `deform_conv_kernel_cuda.cu`; flownet2's `resample2d_kernel.cuh`, declaring the two
    launch functions of `resample2d_kernel.cu`): the same op's host side, ported with its kernels."""
    from .readers.cuda import declared_functions, defined_functions

    wanted = declared_functions(texts.get(f.path) or "")
    if not wanted:
        return None
    for kpath in sorted(kernel_files):
        if kpath not in defined:
            defined[kpath] = defined_functions(texts.get(kpath) or "")
        if wanted & defined[kpath]:
            got = next((k for k in kept.get((kpath, f.rule), ()) if _keeps(out[k], f)), None)
            if got is not None:
                return got
    return None


def nearest_included(start: str, texts: dict, paths: set, accept):
    """Breadth-first over the local includes of `start` among `paths` (directly, then through other included
    files): the first value `accept(path)` gives that is not None, for the nearest such file; None when none."""
    seen, todo = {start}, [start]
    while todo:
        nxt = []
        for cur in todo:
            for target in local_includes(texts.get(cur) or ""):
                hit = _resolve(target, cur, paths)
                if hit is None or hit in seen:
                    continue
                seen.add(hit)
                got = accept(hit)
                if got is not None:
                    return got
                nxt.append(hit)
        todo = nxt
    return None


def extension_places(findings: list, engine, root=None) -> list:
    from .postprocess_cython import cython_wrappers

    return cython_wrappers(cuda_launchers(built_imports(built_module_calls(findings, engine, root), root), engine,
                                          root), engine, root)


MAX_PLACES = 100  # as postprocess.MAX_OCCURRENCES


def _module_binding(tree, line: int) -> str | None:
    """The name a top-level `name = load(...)` statement spanning `line` binds (the built module), or None."""
    for st in tree.body:
        if type(st) is ast.Assign and st.lineno <= line <= (st.end_lineno or st.lineno) \
                and len(st.targets) == 1 and type(st.targets[0]) is ast.Name and type(st.value) is ast.Call:
            return st.targets[0].id
    return None




def _op_calls(tree, bound: str) -> list:
    """(line, byte offset) of the calls that run the built module `bound` in its own file: its functions
    (`fused.fused_bias_act(...)`) and the file's top-level functions and classes that use it, called by name or
    through an attribute (`FusedLeakyReLUFunction.apply(...)`, `fused_leaky_relu(...)`)."""
    users = {st.name for st in tree.body if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
             and any(type(n) is ast.Name and n.id == bound for n in walk(st))}
    heads = {bound, *users}
    out = []
    for node in walk(tree):
        if type(node) is ast.Call:
            callee = _dotted(node.func)
            if callee is not None and (callee in users or callee.split(".", 1)[0] in heads and "." in callee):
                out.append((node.lineno, node.col_offset))
    return sorted(out)


def built_module_calls(findings: list, engine, root=None) -> list:
    """A file that builds a CUDA extension at its top (`fused = load("fused", sources=[... .cu])`) and calls it
    there: each call that runs the built module, directly or through the file's own function or autograd Function
    using it, is a place of the build's finding, unless the code around it never runs on Neuron (neuron-guarded:
    the `if x.device.type == "cuda":` arm; the `else` of `if x.device.type == "cpu":` runs there)."""
    if root is None:
        return findings
    out = list(findings)
    for i, f in enumerate(findings):
        if f.category != _CATEGORY or f.guarded or f.suppressed or f.cell is not None or f.link_target \
                or not f.path.endswith(".py"):
            continue
        data, _ = read_bytes(Path(root) / f.path, f.path, MAX_BYTES)
        if data is None or b"load" not in data:
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        bound = _module_binding(tree, f.line)
        if bound is None:
            continue
        calls = [(ln, col) for ln, col in _op_calls(tree, bound) if not f.line <= ln <= f.end_line]
        if not calls:
            continue
        from .context.base import FileContext
        from .context.neuron_guarded import guarded_at
        from .readers.python import _column

        values = getattr(getattr(engine, "catalogue", None), "context_values", {})
        ctx = FileContext(index=None, tree=tree, resolver=None, values=values, path=f.path)
        lines = data.decode("utf-8", "replace").splitlines()
        places = [(ln, _column(lines[ln - 1], col) if 0 < ln <= len(lines) else col + 1, f.rule)
                  for ln, col in calls if not guarded_at(ctx, (ln, col), f.category, ("call",))]
        ctx.memo.clear()
        if places:
            more = tuple(sorted({*f.occurrences, *places}))[:MAX_PLACES]
            out[i] = replace(f, occurrences=more)
    return out
