"""optional-gpu-import: an optional import of a package that a Trainium host never has."""
from __future__ import annotations

import ast

from ._unchecked_use import used_at_import, used_unchecked
from .base import parent_of, predicate
from ..astwalk import walk


def _bound(node) -> set:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {a.asname or a.name.split(".", 1)[0] for a in node.names}
    return set()


def _against_none(test, op) -> str | None:
    """`X is None` (op ast.Is) or `X is not None` (ast.IsNot) -> "X"."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], op) \
            and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        return test.left.id
    return None


def _demanded(ctx) -> set:
    """Names the file insists on: `assert X is not None`, `assert X`, or `if X is None: raise ...`."""
    def compute(c) -> set:
        found: set = set()
        for st in c.statements():  # asserts and ifs are statements: no walk over expressions
            if isinstance(st, ast.Assert):
                name = st.test.id if isinstance(st.test, ast.Name) else _against_none(st.test, ast.IsNot)
            elif isinstance(st, ast.If) and st.body and isinstance(st.body[-1], ast.Raise):
                name = _against_none(st.test, ast.Is)
            else:
                continue
            if name:
                found.add(name)
        return found
    return ctx.fact("optional-gpu-import:demanded", compute)


def _handler_falls_back(ctx, node, cuda_only) -> bool:
    """The `except` clauses of the nearest `try` around the import bind something (`fn = None`,
    `HAVE_APEX = False`, `from torch.nn import LayerNorm`) or return a value from the function (a probe:
    `return False`), and import no other CUDA-only package. A handler
    that only prints or passes leaves the names unbound: the first use fails, so there is no fallback.
    An import under `if is_x_available():` (no `try`) has its fallback in the `else` path or none needed."""
    p = parent_of(ctx, node)
    while p is not None and not isinstance(p, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        p = parent_of(ctx, p)
    if not isinstance(p, ast.Try):
        return True
    binds = False
    for h in p.handlers:
        for n in walk(h):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                mod = n.module if isinstance(n, ast.ImportFrom) else n.names[0].name
                if (mod or "").split(".", 1)[0] in cuda_only:
                    return False  # apex missing -> DeepSpeed's CUDA FusedAdam: still CUDA
                binds = True
            elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                binds = True
            elif isinstance(n, ast.Return) and n.value is not None:
                binds = True  # a probe: `except ImportError: return False` answers the caller without the package
            elif isinstance(n, ast.Raise):
                return False
    return binds


@predicate("optional-gpu-import", kinds=("import",), effect="guard")
def optional_gpu_import(ctx, hit) -> bool:
    """An import of a package listed in `cuda-only-packages` (apex, xformers, flash_attn, ...) made under
    `try: ... except ImportError:` with a handler that does not re-raise, or under `if is_x_available():`.
    The package is never installed on a Trainium host, so the import fails there and the program takes the
    fallback it already has (PyTorch's LayerNorm instead of apex's, plain attention instead of xformers).
    Nothing needs porting; the uses of the name are behind the same guard (`optional-import`). An import
    of such a package without a fallback stays a blocker, and an optional import of any other library
    (TorchAO, for one) stays a change to check. A handler that only prints or passes is no fallback (the
    names stay unbound and their first use fails), nor is one that imports another CUDA-only package
    (Apex missing, so DeepSpeed's CUDA FusedAdam): both stay changes. So does an optional import one of
    whose names the file insists on somewhere (`assert fn is not None`, `if fn is None: raise ...`):
    that path needs the package. So does an import under an availability `if` (no `try`) with no `else`
    that binds its names again, one of whose names the file uses outside every `if`/`try` that tests
    availability, a flag set with the import, or the name itself, and outside defs and classes named for
    the package or chosen under such a test: without the package that use raises NameError. So does an import
    in a module-level `try` one of whose names the module uses as it loads (a decorator `@triton.jit` of a
    module-level def, a module-level call) outside a test of it or of a flag the `try` sets."""
    if hit.node not in ctx.index.guarded:
        return False
    top = hit.name.split(".", 1)[0]
    cuda_only = ctx.values.get("cuda-only-packages", ())
    if top not in cuda_only:
        return False
    if not _handler_falls_back(ctx, hit.node, cuda_only):
        return False
    # `if find_spec("deepspeed"): from deepspeed.ops.adam import FusedAdam` with no `else`, then `return
    # FusedAdam(...)` with no test around it: without the package that use raises NameError (issue 13)
    if used_unchecked(ctx, hit.node):
        return False
    # `try: import triton` / `except ImportError: WITH_TRITON = False`, then `@triton.jit` on a module-level def:
    # the decorator runs as the module loads, so without the package the import of the module fails anyway
    if used_at_import(ctx, hit.node):
        return False
    # `assert flash_attn_with_kvcache is not None` (or `if X is None: raise`) somewhere in the file: one path
    # needs the package after all, so the import stays a change to check.
    if _bound(hit.node) & _demanded(ctx):
        return False
    # `_available = True` in the `try`, then `if not _available: raise ImportError(...)` where a function
    # starts: that function (a model's constructor) cannot run without the package
    return not (_try_flags(ctx, hit.node) & _demanded_flags(ctx))


def _demanded_flags(ctx) -> set:
    """Names a function body requires at its own level (not under a further condition): `if not X: raise`
    or `assert X`."""
    def compute(c) -> set:
        found: set = set()
        # the statements directly in a function body, read from each def (asking every statement of the file
        # for its parent searched the tree once per statement)
        for st in (st for fn in c.statements() if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for st in fn.body):
            if isinstance(st, ast.Assert) and isinstance(st.test, ast.Name):
                found.add(st.test.id)
            elif isinstance(st, ast.If) and st.body and isinstance(st.body[-1], ast.Raise) \
                    and isinstance(st.test, ast.UnaryOp) and isinstance(st.test.op, ast.Not) \
                    and isinstance(st.test.operand, ast.Name):
                found.add(st.test.operand.id)
        return found
    return ctx.fact("optional-gpu-import:demanded-flags", compute)


def _try_flags(ctx, node) -> set:
    """Names the `try` around the import sets to True or False (`_unicornn_available = True` after the import,
    `= False` in the handler): flags that say whether the import worked."""
    p = parent_of(ctx, node)
    while p is not None and not isinstance(p, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        p = parent_of(ctx, p)
    if not isinstance(p, ast.Try):
        return set()
    found: set[str] = set()
    for st in [*p.body, *(s for h in p.handlers for s in h.body)]:
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, bool):
            found.update(t.id for t in st.targets if isinstance(t, ast.Name))
    return found
