"""The device value of a pick under a reported CUDA check (a step of post-processing, not a predicate).

`if torch.cuda.is_available():` then `device_type = "cuda"` / `return torch.device("cuda")`: the check is
reported, and the "cuda" of its arm is guarded (that arm never runs on Neuron). Yet the arm's value is where the
pick is written, the line a reader looks at: the guarded finding of a `pick-value-rules` rule in an assignment or
a return of an arm folds into the check's finding as a place of it. Other guarded code of the arm
(`torch.cuda.set_device`, `x = torch.zeros(3, device="cuda")`) stays guarded.
"""

from __future__ import annotations

import ast


def _pick_value(value: ast.expr | None) -> bool:
    """A device string, or a `torch.device(...)` of one: the value a pick assigns or returns."""
    if type(value) is ast.Constant:
        return type(value.value) is str
    if type(value) is ast.Call:
        fn = value.func
        name = fn.attr if type(fn) is ast.Attribute else fn.id if type(fn) is ast.Name else None
        return name == "device" and bool(value.args) and type(value.args[0]) is ast.Constant
    return False


def pick_statements(trees) -> set:
    """(cell, line) of the assignments and returns whose value is a device string or `torch.device("...")`, in
    an arm of an `if` (nested arms included): the statements a device pick is written with."""
    out: set = set()
    for tree, cell in trees:
        for node in ast.walk(tree):
            if type(node) is not ast.If:
                continue
            for st in (*node.body, *node.orelse):
                if (isinstance(st, ast.Assign) and len(st.targets) == 1) or isinstance(st, (ast.AnnAssign, ast.Return)):
                    if _pick_value(st.value):
                        out.update((cell, ln) for ln in range(st.lineno, (st.end_lineno or st.lineno) + 1))
    return out
