"""Helper of `optional-gpu-import`: an import under an availability `if` whose names the file uses unchecked.

`if importlib.util.find_spec("deepspeed"): from deepspeed.ops.adam import FusedAdam` with no `else`, then
`return FusedAdam(...)` in `configure_optimizers` with no test around it: where the package is missing the
name is unbound and that use raises NameError, so the import is not optional (issue 13)."""
from __future__ import annotations

import ast

from ..index import _is_availability_test
from .base import parent_of
from ..astwalk import walk

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _bound_names(node) -> set:
    return {a.asname or a.name.split(".", 1)[0] for a in node.names}


def _binds(stmts, names: set) -> bool:
    """Some statement of `stmts` (at any depth) binds one of `names`: the `else` path's fallback."""
    for st in stmts:
        for n in walk(st):
            if isinstance(n, (ast.Import, ast.ImportFrom)) and _bound_names(n) & names:
                return True
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name in names:
                return True
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names:
                return True
    return False


def _availability_if(ctx, node):
    """The `if <availability test>:` whose body holds the import, when no `try` and no def is around it."""
    child, p = node, parent_of(ctx, node)
    while p is not None and not isinstance(p, ast.If):
        if isinstance(p, (ast.Try, *_SCOPES)) or type(p).__name__ == "TryStar":
            return None
        child, p = p, parent_of(ctx, p)
    if p is None or child not in p.body or not _is_availability_test(p.test):
        return None
    q = parent_of(ctx, p)
    while q is not None:  # a `try` or a def further out: another guard, left to the existing rules
        if isinstance(q, (ast.Try, *_SCOPES)) or type(q).__name__ == "TryStar":
            return None
        q = parent_of(ctx, q)
    return p


def _flags(guard: ast.If) -> set:
    """Names the `if` body sets besides the import (`HAS_DS = True`): flags that say the import ran."""
    return {t.id for st in guard.body if isinstance(st, ast.Assign) for t in st.targets if isinstance(t, ast.Name)}


def _words(module: str) -> tuple:
    """Words of the package name that a def or class built for it carries (`flash` of flash_attn)."""
    top = module.split(".", 1)[0].lower()
    return tuple({top, *(w for w in top.split("_") if len(w) >= 4)})


def _tests(test, watched: set) -> bool:
    return _is_availability_test(test) or any(isinstance(n, ast.Name) and n.id in watched for n in walk(test))


def _checked(ctx, use, watched: set, words: tuple, selected: set) -> bool:
    """The use sits under a test of availability, of a flag or of the name itself, in a `try`, or in a def or
    class named for the package (`_flash_attention_forward`, `XFormersAttention`) or chosen under such a test."""
    child, p = use, parent_of(ctx, use)
    while p is not None:
        if isinstance(p, (ast.If, ast.IfExp, ast.While)) and child is not p.test and _tests(p.test, watched):
            return True
        if isinstance(p, ast.BoolOp) and any(v is not child and _tests(v, watched) for v in p.values):
            return True
        if isinstance(p, ast.Try) or type(p).__name__ == "TryStar":
            return True
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if any(w in p.name.lower() for w in words) or p.name in selected:
                return True
        child, p = p, parent_of(ctx, p)
    return False


def _selected(ctx, watched: set) -> set:
    """Names of defs and classes the file names under a test of availability or of a flag
    (`Attention = XFormersAttention if HAS_XFORMERS else Attention`, `if HAS_DS: opt = make_fused(...)`)."""
    found: set = set()
    for n in ctx.nodes(ast.IfExp) + ctx.nodes(ast.If):
        if _tests(n.test, watched):
            arms = [n.body, n.orelse] if isinstance(n, ast.IfExp) else [*n.body, *n.orelse]
            for arm in arms:
                found.update(x.id for x in walk(arm) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load))
    return found


def used_unchecked(ctx, node) -> bool:
    """`node`, an import in the body of an availability `if` with no `else` rebinding its names, binds a name the
    file uses outside every test of availability, of a flag the `if` sets, or of the name itself."""
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return False
    guard = _availability_if(ctx, node)
    if guard is None:
        return False
    names = _bound_names(node)
    if _binds(guard.orelse, names):
        return False
    watched = names | _flags(guard)
    module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
    words = _words(module or "")
    inside = {id(n) for n in walk(guard)}
    selected = None
    for use in ctx.nodes(ast.Name):
        if use.id not in names or not isinstance(use.ctx, ast.Load) or id(use) in inside:
            continue
        if selected is None:
            selected = _selected(ctx, watched)
        if not _checked(ctx, use, watched, words, selected):
            return True
    return False


def _import_time(ctx, use) -> bool:
    """The use runs when the module is imported: at module level or in a class body, or in a decorator or a
    default value of a def (not in the body of a def or a lambda)."""
    child, p = use, parent_of(ctx, use)
    while p is not None:
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = p.args
            outside_body = child in p.decorator_list or child in a.defaults or child in a.kw_defaults
            if not outside_body:
                return False
        elif isinstance(p, ast.Lambda) and child is p.body:
            return False
        child, p = p, parent_of(ctx, p)
    return True


def used_at_import(ctx, node) -> bool:
    """`node`, an import in the body of a module-level `try:` whose handler falls back (`except ImportError:
    WITH_TRITON = False`), binds a name the module uses when it is imported outside any test of it or of a flag
    the `try` sets, and that the handler does not bind again: `@triton.jit` on a module-level def. Without the
    package that use raises NameError as the module loads, so the fallback never runs and the import is not
    optional."""
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return False
    p = parent_of(ctx, node)
    if not isinstance(p, ast.Try) or parent_of(ctx, p) is not ctx.tree:
        return False
    # a name the handler binds again (`except ImportError: SwiGLU = SwiGLUFFN`, `FlashCrossAttention = None`) has
    # its fallback: using it as the module loads is fine
    names = {n for n in _bound_names(node) if not any(_binds(h.body, {n}) for h in p.handlers)}
    if not names:
        return False
    flags = {t.id for part in (p.body, *(h.body for h in p.handlers)) for st in part if isinstance(st, ast.Assign)
             for t in st.targets if isinstance(t, ast.Name)}
    watched = names | flags
    inside = {id(n) for n in walk(p)}
    for use in ctx.nodes(ast.Name):
        if use.id not in names or not isinstance(use.ctx, ast.Load) or id(use) in inside:
            continue
        if not _import_time(ctx, use):
            continue
        if not _checked(ctx, use, watched, (), set()):
            return True
    return False
