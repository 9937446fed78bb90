"""The device value of a pick under a reported CUDA check (a step of post-processing, not a predicate).

`if torch.cuda.is_available():` then `device_type = "cuda"` / `return torch.device("cuda")`: the check is
reported, and the "cuda" of its arm is guarded (that arm never runs on Neuron). Yet the arm's value is where the
pick is written, the line a reader looks at: the guarded finding of a `pick-value-rules` rule in an assignment or
a return of an arm folds into the check's finding as a place of it. Other guarded code of the arm
(`torch.cuda.set_device`, `x = torch.zeros(3, device="cuda")`) stays guarded.
"""

from __future__ import annotations

import ast
from .astwalk import walk
from .project.syntax import dotted as _dotted




def _pick_value(value: ast.expr | None, types: frozenset = frozenset()) -> bool:
    """A device string, a `torch.device(...)` of one, or a CUDA tensor type of `pick-value-types`
    (`torch.cuda.FloatTensor`): the value a pick assigns or returns."""
    if type(value) is ast.Attribute:
        return _dotted(value) in types
    if type(value) is ast.Constant:
        return type(value.value) is str
    if type(value) is ast.Call:
        fn = value.func
        name = fn.attr if type(fn) is ast.Attribute else fn.id if type(fn) is ast.Name else None
        # `torch.set_default_device("cuda")` in an arm: the pick made as a statement (torch_DE_solver, blind80)
        return name in ("device", "set_default_device") and bool(value.args) and type(value.args[0]) is ast.Constant
    return False


def _conditional_pick(st: ast.AST, types: frozenset) -> ast.IfExp | None:
    """The `a if test else b` an assignment or return writes, when `a` is a pick value and `b` names no CUDA
    device (`Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`): a pick written as one expression."""
    if isinstance(st, ast.Assign) and len(st.targets) != 1:
        return None
    value = st.value if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Return)) else None
    if type(value) is not ast.IfExp or not _pick_value(value.body, types):
        return None
    return None if _names_cuda(value.orelse) else value


def _names_cuda(value: ast.expr) -> bool:
    """The expression holds a CUDA device string (`"cuda"`, `"cuda:1"`) anywhere."""
    return any(type(n) is ast.Constant and isinstance(n.value, str) and n.value.split(":")[0] == "cuda"
               for n in walk(value))


def _lines(st: ast.AST) -> range:
    first = getattr(st, "lineno", 0)
    return range(first, (getattr(st, "end_lineno", None) or first) + 1)


def pick_statements(trees, types: frozenset = frozenset()) -> set:
    """(cell, line) of the assignments and returns whose value is a device string, `torch.device("...")` or a
    CUDA tensor type, in an arm of an `if` (nested arms included) or as the first operand of a conditional
    expression: the statements a device pick is written with."""
    from .context.base import statements_of

    out: set = set()
    for tree, cell in trees:
        # only assignments and returns can be picks: the module's statements are all of them (no walk of every
        # expression); a tree other than a module (none the readers make) is still walked
        for node in statements_of(tree) if type(tree) is ast.Module else walk(tree):
            if _conditional_pick(node, types) is not None:
                out.update((cell, ln) for ln in _lines(node))
                continue
            if type(node) is not ast.If:
                continue
            for arm, other in ((node.body, node.orelse), (node.orelse, node.body)):
                if _cuda_values(other):
                    continue
                for st in arm:
                    if isinstance(st, ast.Assign) and len(st.targets) != 1:
                        continue
                    if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Return)) and _pick_value(st.value, types) \
                            or type(st) is ast.Expr and type(st.value) is ast.Call and _pick_value(st.value, types):
                        out.update((cell, ln) for ln in _lines(st))
    return out


def _cuda_values(arm) -> bool:
    """The arm assigns or returns a value naming a CUDA device itself (`device0 = torch.device('cuda' if
    torch.cuda.is_available() else 'cpu')`). An `if` whose two arms both do chooses between two CUDA layouts
    (InstantMesh's `if torch.cuda.is_available() and torch.cuda.device_count() >= 2: device0 =
    torch.device('cuda:0'); device1 = torch.device('cuda:1')`): on Neuron the other arm runs and its own value is
    the pick to change, so the skipped arm's strings are no place of the check's finding."""
    for st in arm:
        if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Return)) and st.value is not None and _names_cuda(st.value):
            return True
    return False


def _single_bindings(tree) -> dict:
    """name -> (first line, last line) of the one `name = value` statement binding it (anywhere in the tree); a
    name bound twice, or also by a loop, `with`, import or augmented assignment, is left out (which value
    the test reads is then unknown)."""
    seen: dict = {}
    twice: set = set()
    for node in walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if type(t) is ast.Name:
                    if t.id in seen:
                        twice.add(t.id)
                    seen[t.id] = (node.lineno, node.end_lineno or node.lineno)
        elif isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr)):
            target = getattr(node, "target", None) or getattr(node, "optional_vars", None)
            if type(target) is ast.Name:
                twice.add(target.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            twice.update(node.names)
    return {k: v for k, v in seen.items() if k not in twice}


def flag_checks(trees, types: frozenset = frozenset()) -> dict:
    """(cell, line) -> the lines of the statement binding the flag an `if` (or a conditional expression) tests,
    for the lines of the pick statements it chooses: `is_cuda = torch.cuda.is_available()` at module level, then
    `if is_cuda: device = "cuda"` in a function, or `Tensor = torch.cuda.FloatTensor if cuda else
    torch.FloatTensor`. The check is then written where the flag is bound, not in the `if`; the pick's value is
    listed at that binding's finding, as it is at a check written in the `if`."""
    out: dict = {}
    for tree, cell in trees:
        bound: dict | None = None
        for node in walk(tree):
            conditional = _conditional_pick(node, types)
            arm = node.body if isinstance(node, ast.If) else []
            test = conditional.test if conditional is not None else node.test if isinstance(node, ast.If) else None
            if type(test) is not ast.Name:
                continue
            if bound is None:
                bound = _single_bindings(tree)
            where = bound.get(test.id)
            if where is None:
                continue
            binding = tuple(range(where[0], where[1] + 1))
            if conditional is not None:
                out.update(((cell, ln), binding) for ln in _lines(node))
                continue
            for st in arm:
                if (isinstance(st, ast.Assign) and len(st.targets) == 1) or isinstance(st, (ast.AnnAssign, ast.Return)):
                    if _pick_value(st.value, types):
                        out.update(((cell, ln), binding) for ln in _lines(st))
    return out
