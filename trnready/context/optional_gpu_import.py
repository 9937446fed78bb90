"""optional-gpu-import: an optional import of a package that a Trainium host never has."""
from __future__ import annotations

import ast

from .base import predicate


def _bound(node) -> set:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {a.asname or a.name.split(".", 1)[0] for a in node.names}
    return set()


def _demanded(ctx) -> set:
    """Names the file insists on: `assert X is not None`, `assert X`, or `if X is None: raise ...`."""
    def compute(c) -> set:
        found: set = set()

        def name_of(test):
            if isinstance(test, ast.Name):
                return test.id
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
                    and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
                return test.left.id
            return None
        for a in c.nodes(ast.Assert):
            t = a.test
            if isinstance(t, ast.Compare) and isinstance(t.ops[0], ast.IsNot):
                n = name_of(t)
            else:
                n = name_of(t) if isinstance(t, ast.Name) else None
            if n:
                found.add(n)
        for i in c.nodes(ast.If):
            t = i.test
            if isinstance(t, ast.Compare) and isinstance(t.ops[0], ast.Is) and i.body \
                    and isinstance(i.body[-1], ast.Raise):
                n = name_of(t)
                if n:
                    found.add(n)
        return found
    return ctx.fact("optional-gpu-import:demanded", compute)


@predicate("optional-gpu-import", kinds=("import",), effect="guard")
def optional_gpu_import(ctx, hit) -> bool:
    """An import of a package listed in `cuda-only-packages` (apex, xformers, flash_attn, ...) made under
    `try: ... except ImportError:` with a handler that does not re-raise, or under `if is_x_available():`.
    The package is never installed on a Trainium host, so the import fails there and the program takes the
    fallback it already has (PyTorch's LayerNorm instead of apex's, plain attention instead of xformers).
    Nothing needs porting; the uses of the name are behind the same guard (`optional-import`). An import
    of such a package without a fallback stays a blocker, and an optional import of any other library
    (TorchAO, for one) stays a change to check. So does an optional import one of whose names the file
    insists on somewhere (`assert fn is not None`, `if fn is None: raise ...`): that path needs the package."""
    if hit.node not in ctx.index.guarded:
        return False
    top = hit.name.split(".", 1)[0]
    if top not in ctx.values.get("cuda-only-packages", ()):
        return False
    # `assert flash_attn_with_kvcache is not None` (or `if X is None: raise`) somewhere in the file: one path
    # needs the package after all, so the import stays a change to check.
    return not (_bound(hit.node) & _demanded(ctx))
