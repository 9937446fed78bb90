"""flag-selected-definition: a use of an optional CUDA-only package inside a def or class that the file picks
only when that package's import succeeded."""
from __future__ import annotations

import ast

from .base import parent_of, predicate, root_name
from ..astwalk import walk

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _optional(ctx) -> tuple:
    """(names a module-level `try` binds by importing a CUDA-only package, flags it sets to a bool), over the
    `try` statements whose handlers do not raise: without the package the module loads and the flags are False."""
    def compute(c) -> tuple:
        cuda_only = set(c.values.get("cuda-only-packages", ()))
        names: set = set()
        flags: set = set()
        for st in c.tree.body if c.tree is not None else ():
            if not isinstance(st, ast.Try) or not st.handlers:
                continue
            if any(isinstance(n, ast.Raise) for h in st.handlers for n in walk(h)):
                continue
            bound = set()
            for n in st.body:
                if isinstance(n, ast.Import):
                    bound |= {a.asname or a.name.split(".", 1)[0] for a in n.names
                              if a.name.split(".", 1)[0] in cuda_only}
                elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".", 1)[0] in cuda_only:
                    bound |= {a.asname or a.name for a in n.names}
            if not bound:
                continue
            names |= bound
            for n in [*st.body, *(s for h in st.handlers for s in h.body)]:
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) \
                        and isinstance(n.value.value, bool):
                    flags |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        return names, flags
    return ctx.fact("flag-selected-definition:optional", compute)


def _polarity(test, flags: set) -> int:
    """1 when the test is true only if the import worked (`FLAG`, `FLAG and x`, `mod is not None`), -1 for its
    negation (`not FLAG`), 0 otherwise."""
    if isinstance(test, ast.Name) and test.id in flags:
        return 1
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return 1 if any(_polarity(v, flags) == 1 for v in test.values) else 0
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
            and isinstance(test.left, ast.Name) and test.left.id in flags \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return 1
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return -_polarity(test.operand, flags)
    return 0


def _true_arm(node, flags: set):
    """The arm of an `if` / conditional expression that runs only with the package, or None."""
    side = _polarity(node.test, flags)
    if side == 0:
        return None
    if isinstance(node, ast.IfExp):
        return [node.body] if side == 1 else [node.orelse]
    return node.body if side == 1 else node.orelse


def _picked_strings(ctx, flags: set) -> set:
    """Strings the file uses only in such arms (`attn_mode = "softmax-xformers" if HAS_XF else "softmax"`): a
    mode name that exists only with the package."""
    def compute(c) -> set:
        inside: set = set()
        seen: set = set()
        for n in c.nodes(ast.IfExp) + c.nodes(ast.If):
            for st in _true_arm(n, flags) or ():
                for x in walk(st):
                    seen.add(id(x))
                    if isinstance(x, ast.Constant) and isinstance(x.value, str):
                        inside.add(x.value)
        # a string also written outside those arms (`Block(attn_mode="softmax-xformers")` in a class with no
        # fallback) picks the package-only definition unconditionally; dict keys and `==` tests only name it
        keys = {id(k) for d in c.nodes(ast.Dict) for k in d.keys if k is not None}
        tests = {id(v) for t in c.nodes(ast.Compare) for v in (t.left, *t.comparators)}
        outside = {x.value for x in c.nodes(ast.Constant) if isinstance(x.value, str) and x.value in inside
                   and id(x) not in seen and id(x) not in keys and id(x) not in tests}
        return inside - outside
    return ctx.fact("flag-selected-definition:strings", compute)


def _compares_with(test, strings: set) -> bool:
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and any(
        isinstance(v, ast.Constant) and v.value in strings for v in (test.left, *test.comparators))


def _picked(ctx, mention, flags: set, strings: set) -> bool:
    """The mention sits in the package-only arm of a flag test, under `if mode == "<such a string>":`, or is the
    value of a dict entry keyed by such a string."""
    child, p = mention, parent_of(ctx, mention)
    while p is not None:
        if isinstance(p, (ast.If, ast.IfExp)) and child is not p.test:
            arm = _true_arm(p, flags)
            if arm is not None and any(child is st for st in arm):
                return True
            if _compares_with(p.test, strings) and (child in p.body if isinstance(p, ast.If) else child is p.body):
                return True
        if isinstance(p, ast.BoolOp) and isinstance(p.op, ast.And) and child is not p.values[0] \
                and _polarity(p.values[0], flags) == 1:
            return True
        if isinstance(p, ast.Dict) and child in p.values:
            key = p.keys[p.values.index(child)]
            if isinstance(key, ast.Constant) and key.value in strings:
                return True
        child, p = p, parent_of(ctx, p)
    return False


def _selected(ctx, definition, flags: set, strings: set) -> bool:
    own = {id(n) for n in walk(definition)}
    mentions = [n for n in ctx.nodes(ast.Name) if n.id == definition.name and isinstance(n.ctx, ast.Load)
                and id(n) not in own]
    return bool(mentions) and all(_picked(ctx, m, flags, strings) for m in mentions)


@predicate("flag-selected-definition", kinds=("call", "method", "reference"), effect="guard")
def flag_selected_definition(ctx, hit) -> bool:
    """A use of a CUDA-only package (`cuda-only-packages`) imported in a module-level `try` whose handlers do not
    raise, inside a def or class that the file names only where the import worked: in the package arm of a test
    of the flag the `try` sets (`Attn = XFormersAttention if HAS_XF else Attention`), under a comparison with a
    mode string set only in such an arm (`if HAS_XF and attn_type == "vanilla": attn_type = "vanilla-xformers"`
    then `elif attn_type == "vanilla-xformers": return MemoryEfficientAttnBlock(...)`), or as a dict value keyed
    by such a string (`{"softmax-xformers": MemoryEfficientCrossAttention}[mode]`). On a Trainium host the
    import fails, the flag is False and the plain path the file already has runs (issue 13, class 6: xformers
    behind an availability flag is no blocker). A def or class also named anywhere else in the file (another
    call, an `isinstance`), or named nowhere, keeps its findings."""
    node = hit.node.func if isinstance(hit.node, ast.Call) else hit.node
    names, flags = _optional(ctx)
    if not names or root_name(node) not in names:
        return False
    flags = flags | names
    strings = _picked_strings(ctx, flags)
    p = parent_of(ctx, hit.node)
    while p is not None:
        if isinstance(p, _DEFS) and _selected(ctx, p, flags, strings):
            return True
        p = parent_of(ctx, p)
    return False
