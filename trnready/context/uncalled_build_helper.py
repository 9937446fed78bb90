"""uncalled-build-helper: an extension built in a setup.py helper function that the setup.py never calls."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


def _top_function(ctx, node):
    """The module-level def holding `node`, or None."""
    p, top = parent_of(ctx, node), None
    while p is not None:
        if type(p) in (ast.FunctionDef, ast.AsyncFunctionDef):
            top = p
        p = parent_of(ctx, p)
    return top if top is not None and top in getattr(ctx.tree, "body", ()) else None


_BUILDERS = ("setuptools", "distutils", "skbuild", "numpy.distutils")


def _packaging_script(tree) -> bool:
    """The setup.py imports a packaging library: a build script. A module of a package that is only named setup.py
    (d2go's `d2go/setup.py`, imported by its tools for `setup_after_launch`) is imported, and its functions are
    called from elsewhere."""
    for st in tree.body:
        if type(st) is ast.Import and any(a.name.split(".", 1)[0] in _BUILDERS for a in st.names):
            return True
        if type(st) is ast.ImportFrom and not st.level and (st.module or "").startswith(_BUILDERS):
            return True
    return False


@predicate("uncalled-build-helper", kinds=("call", "reference"), effect="guard")
def uncalled_build_helper(ctx, hit) -> bool:
    """The extension is built inside a module-level function of a `setup.py` that no other line of that file names
    (mmcv-style projects keep `def make_cuda_ext(name, module, sources)` in a template setup.py and pass
    `ext_modules=[]`). A setup.py is run, never imported, so a helper it does not name never builds anything.
    Any mention outside the function counts (a call, `cmdclass={"build": helper}`, a name in a list, a string):
    `ext_modules=[make_cuda_ext(...)]` keeps the finding."""
    if ctx.tree is None or ctx.path.rsplit("/", 1)[-1] != "setup.py" or not _packaging_script(ctx.tree):
        return False
    fn = _top_function(ctx, hit.node)
    if fn is None:
        return False
    inside = {id(n) for n in ast.walk(fn)}
    for n in ast.walk(ctx.tree):
        if id(n) in inside:
            continue
        if isinstance(n, ast.Name) and n.id == fn.name or isinstance(n, ast.Attribute) and n.attr == fn.name:
            return False
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and fn.name in n.value:
            return False
    return True
