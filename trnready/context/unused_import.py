"""unused-import: an import of a CUDA-only name the file never uses, where the import itself fails nothing."""
from __future__ import annotations

import ast

from .base import predicate


def _bound(st, names) -> list | None:
    """The local names the import statement binds for what the matcher names (`DeformConv` of `from
    detectron2.layers import Conv2d, DeformConv`; `apex` of `import apex`); None for a star import."""
    out = []
    for a in st.names:
        if a.name == "*":
            return None
        if type(st) is ast.ImportFrom:
            full = f"{st.module}.{a.name}" if st.module else a.name
            if any(full == n or full.startswith(n + ".") or n.startswith(full + ".") for n in names):
                out.append(a.asname or a.name)
        elif any(a.name == n or a.name.startswith(n + ".") or n.startswith(a.name + ".") for n in names):
            out.append(a.asname or a.name.split(".", 1)[0])
    return out


def _read_names(ctx) -> frozenset:
    def compute(c) -> frozenset:
        out = {n.id for n in c.nodes(ast.Name) if type(n.ctx) is ast.Load}
        # `__all__ = ["DeformConv"]`, `getattr(mod, "apex")`: a name used by its string
        out |= {k.value for k in c.nodes(ast.Constant) if type(k.value) is str and k.value.isidentifier()}
        return frozenset(out)
    return ctx.fact("unused-import:read", compute)


@predicate("unused-import", kinds=("import",), effect="guard")
def unused_import(ctx, hit) -> bool:
    """An import of a CUDA-only name the file never reads (no use of the bound name, no string naming it), when the
    import by itself fails nothing on a Neuron host: a name taken from a module the file imports anyway (`from
    detectron2.layers import Conv2d, DeformConv` in AdelaiDet's VoVNet, which never builds a DeformConv), or an
    optional import whose handler goes on (`try: import apex` / `except: print("No APEX!")` in CenterPoint's demo,
    which never uses apex). Nothing runs the operator, so there is nothing to port; the line can simply go. A
    plain `import apex` unused still fails at import time where apex is missing, so it stays, and so does any
    import in a package's `__init__.py` (it hands the name on)."""
    st = hit.node
    if type(st) not in (ast.Import, ast.ImportFrom) or ctx.path.endswith("__init__.py"):
        return False
    bound = _bound(st, hit.matcher.names)
    if not bound or not _read_names(ctx).isdisjoint(bound):
        return False
    if st in ctx.index.guarded:
        # the handler goes on without the package, unless a flag it sets is turned into a raise (`if not _available:
        # raise ImportError(...)`): then the package is required after all
        from ._raising_fallback import fallback_raises
        return not ctx.fact("raising-fallback:%d" % id(st), lambda c: fallback_raises(c, st))
    # a name out of a module the matcher does not name itself: importing that module fails nothing
    module = st.module if type(st) is ast.ImportFrom and not st.level else None
    return module is not None and not any(module == n or module.startswith(n + ".") for n in hit.matcher.names)
