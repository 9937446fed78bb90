"""extension-never-called: an imported module the file never calls into."""
from __future__ import annotations

import ast

from .base import predicate, root_name


def _bound(node, module: str) -> set:
    """The names an import statement binds for `module` (`import focal_cpp as fc` -> fc; `from ext import f` -> f)."""
    out: set = set()
    if type(node) is ast.Import:
        for a in node.names:
            if a.name == module or module.startswith(a.name + "."):
                out.add(a.asname or a.name.split(".", 1)[0])
    elif type(node) is ast.ImportFrom:
        for a in node.names:
            if f"{node.module}.{a.name}" == module or node.module == module:
                out.add(a.asname or a.name)
    return out


def _called_roots(ctx) -> frozenset:
    return frozenset(root_name(n.func) for n in ctx.nodes(ast.Call)) - {None}


@predicate("extension-never-called", kinds=("import",))
def extension_never_called(ctx, hit) -> bool:
    """An import of a module named like a compiled extension (`import focal_cpp`) whose names the file never calls
    (`focal_cpp.focalloss_forward(...)`, or `f(...)` after `from focal_cpp import f`): an import kept for its side
    effects or left over shows no op the port must replace, and the name alone is weak evidence of one."""
    names = _bound(hit.node, hit.qualname or hit.name or "")
    return not names or not (names & ctx.fact("extension-never-called", _called_roots))
