"""The C++ sources a setup script collects with `glob` for the build it keeps without CUDA (summary `exts`).

maskrcnn-benchmark's setup script, copied into many detection projects, gathers its sources from folders:

```python
this_dir = os.path.dirname(os.path.abspath(__file__))
extensions_dir = os.path.join(this_dir, "dyhead", "csrc")
main_file = glob.glob(os.path.join(extensions_dir, "*.cpp"))
source_cpu = glob.glob(os.path.join(extensions_dir, "cpu", "*.cpp"))
sources = main_file + source_cpu
extension = CppExtension
if torch.cuda.is_available() and CUDA_HOME is not None:
    extension = CUDAExtension
    sources += source_cuda
sources = [os.path.join(extensions_dir, s) for s in sources]
extension("dyhead._C", sources, ...)
```

`glob_sources` gives the patterns the build compiles when the CUDA arm is not taken (`dyhead/csrc/*.cpp`,
`dyhead/csrc/cpu/*.cpp`, relative to the script's folder); the link step matches them against the scanned files
and reads those files (project/cpu_less_sources.py). Only the forms above are followed: string literals,
`os.path.join`, the folder of `__file__`, names bound in the function (or the module) by statements that run
whatever the machine, `+` and `+=` of lists, `glob.glob(...)`, and a comprehension joining a folder to each item.
Additions made inside the arm that picks the CUDA build are left out, as that arm never runs on Neuron; any other
form, or a name also bound in another branch, makes the sources unknown (None): nothing is guessed.
"""
from __future__ import annotations

import ast
import posixpath

from ..astwalk import walk
from .syntax import dotted

MAX_DEPTH = 16  # names and calls followed (a glob of a join of a folder of a folder nests eight deep)
MAX_PATTERNS = 16
ROOT = "/"  # the setup script's own folder: a path built from `__file__`


def _dotted(node) -> str:
    return dotted(node) or ""


def _is_file_folder(node) -> bool:
    """`os.path.dirname(os.path.abspath(__file__))`, `os.path.dirname(__file__)`, `Path(__file__).parent`."""
    if type(node) is ast.Attribute and node.attr == "parent" and type(node.value) is ast.Call:
        inner = node.value
        return _dotted(inner.func).endswith("Path") and len(inner.args) == 1 and _is_file(inner.args[0])
    if type(node) is ast.Call and _dotted(node.func) in ("os.path.dirname", "path.dirname", "dirname") \
            and len(node.args) == 1:
        return _is_file(node.args[0])
    return False


def _is_file(node) -> bool:
    if type(node) is ast.Name and node.id == "__file__":
        return True
    return type(node) is ast.Call and _dotted(node.func).split(".")[-1] in ("abspath", "realpath") \
        and len(node.args) == 1 and _is_file(node.args[0])


def _statements(scope) -> list:
    """The statements of a function at any depth, or of a module outside its functions and classes."""
    out: list = []
    stack = list(reversed(scope.body))
    while stack:
        st = stack.pop()
        out.append(st)
        if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) and type(scope) is ast.Module:
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(reversed(getattr(st, field, ()) or ()))
        for h in getattr(st, "handlers", ()) or ():
            stack.extend(reversed(h.body))
    return out


class _Sources:
    def __init__(self, tree: ast.Module, func, cuda_arm):
        self.tree, self.func = tree, func
        # the statements of the arm that picks the CUDA build: its additions are left out
        self.cuda_arm = {id(n) for b in (cuda_arm.body if cuda_arm is not None else ()) for n in walk(b)}
        self.scopes = [s for s in (func, tree) if s is not None]

    def _bindings(self, name: str, before: int):
        """The statements binding `name` in the innermost scope that binds it, before line `before`, in order;
        None when one of them sits in a branch other than the CUDA arm (its value depends on the run)."""
        for scope in self.scopes:
            found = []
            for st in _statements(scope):
                if getattr(st, "lineno", before) >= before:
                    continue
                if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == name for t in st.targets) \
                        or type(st) is ast.AugAssign and type(st.target) is ast.Name and st.target.id == name:
                    found.append(st)
                elif type(st) in (ast.For, ast.AsyncFor) and any(
                        type(t) is ast.Name and t.id == name for t in walk(st.target)):
                    return None
            if not found:
                continue
            body = scope.body
            kept = []
            for st in sorted(found, key=lambda s: (s.lineno, s.col_offset)):
                if any(st is b for b in body):
                    kept.append(st)
                elif id(st) in self.cuda_arm:
                    continue
                else:
                    return None
            return kept
        return None

    def name(self, ident: str, before: int, depth: int, as_list: bool):
        sts = self._bindings(ident, before)
        if not sts:
            return None
        # the value is the last plain binding, extended by the `+=` after it
        start = max((i for i, st in enumerate(sts) if type(st) is ast.Assign), default=None)
        if start is None:
            return None
        value = self.paths(sts[start].value, sts[start].lineno, depth + 1) if as_list \
            else self.path(sts[start].value, sts[start].lineno, depth + 1)
        for st in sts[start + 1:]:
            more = self.paths(st.value, st.lineno, depth + 1) if as_list else None
            if more is None or value is None:
                return None
            value = value + more
        return value

    def path(self, node, before: int, depth: int = 0):
        """One path string (ROOT-based when built from `__file__`), or None."""
        if depth > MAX_DEPTH:
            return None
        if type(node) is ast.Constant and isinstance(node.value, str):
            return node.value
        if _is_file_folder(node):
            return ROOT
        if type(node) is ast.Name:
            return self.name(node.id, before, depth, False)
        if type(node) is ast.Call and _dotted(node.func) in ("os.path.join", "path.join", "osp.join", "join") \
                and node.args and not node.keywords:
            parts = [self.path(a, before, depth + 1) for a in node.args]
            if any(p is None for p in parts):
                return None
            return posixpath.join(*parts)
        if type(node) is ast.Call and _dotted(node.func).split(".")[-1] in ("abspath", "realpath") \
                and len(node.args) == 1:
            inner = self.path(node.args[0], before, depth + 1)
            return None if inner is None else posixpath.join(ROOT, inner)
        return None

    def paths(self, node, before: int, depth: int = 0):
        """The list of path strings (glob patterns among them), or None."""
        if depth > MAX_DEPTH:
            return None
        if type(node) in (ast.List, ast.Tuple):
            out = [self.path(e, before, depth + 1) for e in node.elts]
            return None if any(p is None for p in out) else out
        if type(node) is ast.BinOp and type(node.op) is ast.Add:
            left, right = self.paths(node.left, before, depth + 1), self.paths(node.right, before, depth + 1)
            return None if left is None or right is None else left + right
        if type(node) is ast.Name:
            return self.name(node.id, before, depth, True)
        if type(node) is ast.Call and _dotted(node.func) in ("glob.glob", "glob") and len(node.args) == 1:
            pattern = self.path(node.args[0], before, depth + 1)
            return None if pattern is None else [pattern]
        if type(node) is ast.ListComp and len(node.generators) == 1 and not node.generators[0].ifs \
                and isinstance(node.generators[0].target, ast.Name):
            gen = node.generators[0]
            items = self.paths(gen.iter, before, depth + 1)
            if items is None or not isinstance(gen.target, ast.Name):
                return None
            elt, var = node.elt, gen.target.id
            if type(elt) is ast.Name and elt.id == var:
                return items
            if type(elt) is ast.Call and _dotted(elt.func) in ("os.path.join", "path.join", "osp.join", "join") \
                    and len(elt.args) == 2 and type(elt.args[1]) is ast.Name and elt.args[1].id == var:
                folder = self.path(elt.args[0], before, depth + 1)
                return None if folder is None else [posixpath.join(folder, i) for i in items]
        return None


def glob_sources(tree: ast.Module, func, call: ast.Call, sources, cuda_arm) -> list | None:
    """The source paths and glob patterns (relative to the setup script's folder) the build call compiles when
    the CUDA arm `cuda_arm` is not taken, or None when any of them is unknown."""
    found = _Sources(tree, func, cuda_arm).paths(sources, call.lineno)
    if not found or len(found) > MAX_PATTERNS:
        return None
    out = []
    for p in found:
        if not p.startswith(ROOT):
            # a relative path is read from the folder the script runs in: its own, as `python setup.py` is run
            p = ROOT + p
        rel = posixpath.normpath(p)[1:]
        if not rel or rel.startswith(".."):
            return None
        out.append(rel)
    return out
