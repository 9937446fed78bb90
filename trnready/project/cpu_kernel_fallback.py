"""Link step: a compiled extension whose Python wrappers fall back to its own CPU kernel off CUDA.

torchsparse builds one extension, `torchsparse.backend`, with a CUDA and a CPU kernel of each op, and its wrappers
pick by the tensor's device:

    if coords.device.type == "cuda":
        return torchsparse.backend.hash_cuda(coords)
    elif coords.device.type == "cpu":
        return torchsparse.backend.hash_cpu(coords)
    else:
        return torchsparse.backend.hash_cpu(coords.cpu()).to(device)   # any other device: a host round trip

Its setup.py builds a `CppExtension` (the CPU kernels only) when CUDA is absent. On Neuron such an op runs: the CPU
kernel does the work and the result comes back to the device. The extension's finding in the wrapper module (its
import, the uses folded into it) is then a performance item, not a blocker. It is lowered to an advisory when:

- the finding is of the custom-kernel category, unguarded and not advisory already, and its line imports the
  extension (`import pkg.backend`, `from pkg import backend`, `import pkg.backend as B`);
- every call of the extension in the file either sits in the arm of an `if` that tests for a CUDA tensor
  (`x.device.type == "cuda"`, `x.is_cuda`), or calls a function whose name says neither CUDA nor GPU (`hash_cpu`;
  `GPUHashTable(...)` built on every device is no fallback);
- every function of the file calling the extension also calls it on a host copy and moves the result back
  (`ext.f(x.cpu(), ...).to(...)`): the path any other device takes;
- a build script of the project (a scanned Python file named like `*setup*.py`) builds a `CppExtension`.

A wrapper that raises off CUDA, calls a CUDA-named kernel unconditionally, or has no host round trip keeps its
finding.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import PurePosixPath

from ..astwalk import walk
from .syntax import dotted

_CATEGORY = "custom-cuda-kernel"
LOWERED = ("; every call of the extension here picks its CUDA kernel only for CUDA tensors and otherwise runs its CPU "
           "kernel on a host copy (`f(x.cpu()).to(device)`), and the project builds it without CUDA (CppExtension): "
           "on Neuron it runs with a host round trip, so porting the kernel to NKI is a performance item")




def _imported_names(tree, line: int) -> list:
    """The names the import statement on `line` binds, as they are written in calls (`torchsparse.backend`)."""
    out = []
    for node in tree.body if isinstance(tree, ast.Module) else ():
        for st in walk(node):
            if not isinstance(st, (ast.Import, ast.ImportFrom)) or st.lineno != line:
                continue
            for a in st.names:
                if isinstance(st, ast.Import):
                    out.append(a.asname or a.name)
                elif a.name != "*":
                    out.append(a.asname or a.name)
    return out


def _cuda_test(test) -> bool:
    """`x.device.type == "cuda"`, `x.is_cuda` (or an `and` holding one)."""
    for n in walk(test):
        if isinstance(n, ast.Attribute) and n.attr == "is_cuda":
            return True
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.Eq):
            sides = [n.left, *n.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "type" for s in sides) and \
                    any(isinstance(s, ast.Constant) and s.value == "cuda" for s in sides):
                return True
    return False


def _round_trip(call: ast.Call, parents: dict) -> bool:
    """`ext.f(x.cpu(), ...).to(device)`: the call takes a host copy and its result is moved back."""
    takes_host = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "cpu"
                     for a in call.args for n in walk(a))
    up = parents.get(id(call))
    return takes_host and isinstance(up, ast.Attribute) and up.attr == "to" and up.value is call


def falls_back(tree, line: int) -> bool:
    """The extension imported on `line` is called only as the module docstring says."""
    names = _imported_names(tree, line)
    if not names:
        return False
    parents: dict = {}
    for node in walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    functions: dict = {}  # id(function) -> [has a round trip]
    found = False
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        d = dotted(node.func) or ""
        if not any(d.startswith(n + ".") for n in names):
            continue
        found = True
        fn, in_cuda_arm, cur = None, False, node
        while id(cur) in parents:
            up = parents[id(cur)]
            if isinstance(up, ast.If) and cur in up.body and _cuda_test(up.test):
                in_cuda_arm = True
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn is None:
                fn = up
            cur = up
        if fn is None:
            return False  # a call at module level runs on import, whatever the device
        if not in_cuda_arm and any(w in d.rsplit(".", 1)[-1].lower() for w in ("cuda", "gpu")):
            return False  # a CUDA kernel called on every device
        entry = functions.setdefault(id(fn), [False])
        if _round_trip(node, parents):
            entry[0] = True
    return found and all(e[0] for e in functions.values())


def cpu_kernel_fallbacks(findings: list, files, read_text) -> list:
    """Lower to advisories the extension findings of wrappers that fall back to the CPU kernel (module docstring)."""
    todo = [i for i, f in enumerate(findings) if f.category == _CATEGORY and not f.guarded and not f.suppressed
            and f.severity != "advisory" and f.cell is None and f.path.endswith(".py")
            and (f.snippet or "").lstrip().startswith(("import ", "from "))]
    if not todo:
        return findings
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    builds = [sf for sf in py.values() if "setup" in PurePosixPath(sf.rel).name.lower()]
    if not any("CppExtension" in (read_text(sf) or "") for sf in builds):
        return findings
    out = list(findings)
    trees: dict = {}
    for i in todo:
        f = findings[i]
        sf = py.get(f.path)
        if sf is None:
            continue
        if f.path not in trees:
            try:
                trees[f.path] = ast.parse(read_text(sf) or "")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                trees[f.path] = None
        tree = trees[f.path]
        if tree is not None and falls_back(tree, f.line):
            out[i] = replace(f, severity="advisory", message=f.message + LOWERED)
    return out
