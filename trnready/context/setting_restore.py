"""setting-restore: a setting put back to the value saved before it was changed."""
from __future__ import annotations

import ast
import re

from .base import dotted, enclosing_function, parent_of, predicate, stored_target


def _saved_names(ctx, setting: str) -> set:
    """Names and `self.x` attributes assigned straight from a read of the setting (`old = torch._inductor.config.x`,
    `self._benchmark = torch.backends.cudnn.benchmark`), spelled as written."""
    found: dict = ctx.memo.setdefault("setting-restore:saved", {})
    if setting not in found:
        found[setting] = {dotted(t) for st in ctx.nodes(ast.Assign) if dotted(st.value) == setting
                          for t in st.targets if dotted(t)}
    return found[setting]


def _writers(ctx) -> dict:
    """Setting as written (`ic.epilogue_fusion`) -> the functions assigning it (None at module level)."""
    found = ctx.memo.get("setting-restore:writers")
    if found is None:
        found = {}
        ctx.memo["setting-restore:writers"] = found
        for st in ctx.nodes(ast.Assign):
            for t in st.targets:
                if type(t) is ast.Attribute and dotted(t):
                    found.setdefault(dotted(t), set()).add(id(enclosing_function(ctx, st)))
    return found


def _paired_reset(ctx, stmt, target: str) -> bool:
    """A literal written by a function whose name starts with a reset word (`_reset_inductor_flags`, `__exit__`,
    `restore_defaults`) while another function of the file writes the same setting: the pair sets and puts back."""
    fn = enclosing_function(ctx, stmt)
    if fn is None or type(stmt.value) is not ast.Constant:
        return False
    first = re.match(r"[a-z]+|[A-Z][a-z]*", fn.name.strip("_"))
    if first is None or first.group().lower() not in ctx.values.get("restore-function-words", ()):
        return False  # `save_and_restore` changes a setting itself before it puts it back
    return bool(_writers(ctx).get(target, set()) - {id(fn)})


@predicate("setting-restore", kinds=("reference",))
def setting_restore(ctx, hit) -> bool:
    """An assignment that puts a setting back. Either the value is a name or `self.x` saved from the same
    setting earlier in the file (`old = torch._inductor.config.x` ... `finally: torch._inductor.config.x = old`;
    `self._saved = torch.backends.cudnn.benchmark` in `__enter__`, written back in `__exit__`), or the write
    is a literal written by a function whose name starts with a reset word (`[context.values]
    restore-function-words`: `_reset_flags`, `__exit__`, `restore_defaults`) while another function of the file
    writes the same setting (the pair
    `_set_inductor_flags` / `_reset_inductor_flags`). The change being undone is reported where it is made;
    the restore changes nothing of its own. Any other value, or a reset function with no setter, still matches."""
    target = stored_target(ctx, hit.node)
    stmt = parent_of(ctx, target) if target is not None else None
    if type(stmt) is not ast.Assign or target not in stmt.targets:
        return False
    written = dotted(target)
    if not written:
        return False
    saved = dotted(stmt.value)
    if saved and (saved in _saved_names(ctx, written) or saved in _saved_from_namesake(ctx, stmt, written)):
        return True
    return _paired_reset(ctx, stmt, written)


def _saved_from_namesake(ctx, stmt, written: str) -> set:
    """Names saved, in the same function, from another setting of the same last name: BEVFormer saves
    `allow_tf32 = torch.backends.cuda.matmul.allow_tf32`, turns both TF32 switches off, and writes the saved value
    back to both (`torch.backends.cudnn.allow_tf32 = allow_tf32`). The second write puts back the pair the function
    switched off; the change is reported where it is made."""
    last = written.rsplit(".", 1)[-1]
    if last == written:
        return set()
    fn = enclosing_function(ctx, stmt)
    if fn is None:
        return set()
    out: set = set()
    for st in ast.walk(fn):
        if type(st) is ast.Assign and st.lineno < stmt.lineno:
            src = dotted(st.value)
            if src and src != written and "." in src and src.rsplit(".", 1)[-1] == last:
                out.update(dotted(t) for t in st.targets if dotted(t))
    return out
