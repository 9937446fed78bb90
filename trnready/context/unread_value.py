"""unread-value: a device value bound to a name that nothing reads."""
from __future__ import annotations

import ast

from .base import enclosing_function, parent_of, predicate, runs_as_script
from ..astwalk import walk


_QUERIES = frozenset({"is_available", "device_count"})


def _device_value(v) -> bool:
    """A value that only names a device: a string, or `torch.device("cuda")` of literals, or answers a question
    about the machine (`torch.cuda.is_available()`, `torch.cuda.device_count()`). Building it does nothing else
    (unlike `model.cuda()`, which moves the model whether or not the result is read)."""
    if type(v) is ast.Constant:
        return type(v.value) is str
    if type(v) is ast.IfExp:  # `"cuda" if x.is_cuda else "cpu"`: a pick between two such values
        return _device_value(v.body) and _device_value(v.orelse)
    if type(v) in (ast.Name, ast.Attribute, ast.JoinedStr) and not _calls(v):
        # a name read as one arm (`config_cuda_device if torch.cuda.is_available() else "cpu"`, contrastive-gap's
        # prepare_config, fresh84), `args.device`, an f-string: reading it does nothing else
        return True
    if type(v) is ast.BinOp and type(v.op) is ast.Add:  # `"cuda:" + str(gpu)`
        return all(_device_value(x) or type(x) is ast.Call and type(x.func) is ast.Name and x.func.id == "str"
                   and len(x.args) == 1 and not _calls(x.args[0]) for x in (v.left, v.right))
    if type(v) is ast.Call:
        f = v.func
        name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        # `torch.device("cuda")`, `torch.device("cuda" if torch.cuda.is_available() else "cpu")`
        if name == "device" and not v.keywords and all(_device_value(a) for a in v.args):
            return True
        # `WORLD_SIZE = torch.cuda.device_count()`: a question about the machine, answered and thrown away
        return name in _QUERIES and not v.args and not v.keywords and type(f) is ast.Attribute \
            and type(f.value) is ast.Attribute and f.value.attr == "cuda"
    return False


def _calls(v) -> bool:
    return any(type(n) is ast.Call for n in ast.walk(v))


def _program(ctx) -> bool:
    """A notebook, or a script: a module whose top level runs something (a call, an `if __name__ == "__main__":`
    block). Nobody imports a value out of a program, so its module-level names are read where it reads them."""
    def compute(c) -> bool:
        if c.tree is None:
            return False
        return c.path.lower().endswith(".ipynb") or runs_as_script(c.tree)
    return ctx.fact("unread-value-program", compute)


def _rebound_before_read(ctx, st, name: str) -> bool:
    """The statements after `st` in its block assign the name again before anything reads it, running straight
    through: `device = 'cuda' if torch.cuda.is_available() else 'cpu'`, then `net = get_model(...)`, then
    `device = "cpu"` (secml-torch's tutorial). A statement that branches or loops and mentions the name, or any
    read of it (the new value's own expression included), ends the search with the value possibly read."""
    up = parent_of(ctx, st)
    for field in ("body", "orelse", "finalbody"):
        block = getattr(up, field, None)
        if isinstance(block, list) and any(s is st for s in block):
            break
    else:
        return False
    after = block[next(i for i, s in enumerate(block) if s is st) + 1:]
    for nxt in after:
        if _read(walk(nxt), name):
            return False
        targets = nxt.targets if type(nxt) is ast.Assign else [nxt.target] if type(nxt) is ast.AnnAssign else []
        if targets and any(type(t) is ast.Name and t.id == name for t in targets):
            # only a new value naming no CUDA device undoes the pick: the same value again (`device = 'cuda'` twice:
            # ocnn's benchmark) or another CUDA pick (EasyMocap's `torch.device('cuda')`, then a CUDA-if-available
            # pick) is the same change again, and the repeat folds into the finding
            return nxt.value is not None and ast.dump(nxt.value) != ast.dump(st.value) and not any(
                type(n) is ast.Constant and isinstance(n.value, str) and "cuda" in n.value.lower()
                for n in walk(nxt.value))
        if not isinstance(nxt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Import, ast.ImportFrom,
                                ast.Pass)) and any(type(n) is ast.Name and n.id == name for n in walk(nxt)):
            return False  # a block that may bind it on one path only
    return False


def _read(nodes, name: str) -> bool:
    """Some node reads the name, or may: a load, a `global` / `nonlocal` of it, a string naming it (`__all__`,
    `getattr`), `locals()` / `vars()` / `globals()` / `eval`."""
    for n in nodes:
        k = type(n)
        if k is ast.Name and (n.id == name and type(n.ctx) is not ast.Store or n.id in ("locals", "vars", "globals",
                                                                                    "eval", "exec")):
            return True
        if k in (ast.Global, ast.Nonlocal) and name in n.names:
            return True
        if k is ast.Constant and n.value == name:
            return True
    return False


@predicate("unread-value", effect="guard")
def unread_value(ctx, hit) -> bool:
    """A device value assigned to a local name that nothing reads (`local = torch.device("cuda")` in a function that
    places its tensors on another device, or `device = "cuda" if batch.is_cuda else "cpu"` left unused in DomainBed's
    `IRM.update`): the value is built and thrown away, so nothing runs on that device.
    Only a plain string, `torch.device(...)` of literals, or a conditional expression choosing between two of them
    counts (a `.cuda()` call moves its
    receiver whether or not its result is read; `torch.device(...)` of such a pick counts too), bound by a one-target
    assignment to a plain name. In a function, no read in the function (nested functions included). A module-level
    name is the module's interface (another file or project may import it): judged only in a notebook or a script
    (a call or a `__main__` block at its top level), with no read anywhere in the file. Anywhere, a value the
    statements after it (in the same block, running straight through) bind again before any read is thrown away
    too (`device = ... else 'cpu'` then `device = "cpu"`)."""
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    st = ctx.statement_at(pos)
    if type(st) is ast.If:
        # `if torch.cuda.is_available(): device = torch.device('cuda')` / `else: device = torch.device('cpu')`, the
        # name never read (Reservoir_Pytorch's research scripts, blind80): the test only picks a value thrown away
        name = _pick_only(st, pos)
        if name is None:
            return False
        return _unread(ctx, st, name)
    if type(st) is not ast.Assign or len(st.targets) != 1 or type(st.targets[0]) is not ast.Name:
        return False
    if not _device_value(st.value) or not (st.value.lineno, st.value.col_offset) <= pos:
        return False
    name = st.targets[0].id
    if _rebound_before_read(ctx, st, name):
        return True
    return _unread(ctx, st, name)


def _pick_only(st: ast.If, pos: tuple) -> str | None:
    """The one name every arm of the `if` (whose test holds `pos`) binds to a device value, when the arms do nothing
    else but print; else None."""
    t = st.test
    if not (t.lineno, t.col_offset) <= pos <= (t.end_lineno or t.lineno, t.end_col_offset or 0) or not st.orelse:
        return None
    names = set()
    for block in (st.body, st.orelse):
        bound = False
        for s in block:
            if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                    and _device_value(s.value):
                names.add(s.targets[0].id)
                bound = True
            elif type(s) is ast.Expr and (type(s.value) is ast.Constant or type(s.value) is ast.Call
                                          and type(s.value.func) is ast.Name and s.value.func.id == "print"):
                continue
            else:
                return None
        if not bound:
            return None
    return names.pop() if len(names) == 1 else None


def _unread(ctx, st, name: str) -> bool:
    fn = enclosing_function(ctx, st)
    if fn is not None:
        return not _read(_outside_prints(fn), name)
    # at module level a name is also the module's interface (another file or project may import it): judged only in
    # a notebook or a script (widedeep's and pytorch-frame's examples: `device = ... if torch.cuda.is_available()
    # else "cpu"`, never read), and then no read anywhere in the file
    return _program(ctx) and not _read(_outside_prints(ctx.tree), name)


def _outside_prints(root):
    """The nodes below `root` outside the arguments of `print(...)` calls: a device only shown to the user
    (`print(f"Device: {device}")` in Reservoir_Pytorch's sweep scripts, blind80) places nothing."""
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == "print":
            # only the values shown as they are: `print(device)`, `print(f"Device: {device}")`; a value computed in
            # the call (`print(torch.zeros(2).to(device))`) is a read
            stack.extend(a for a in (*n.args, *(k.value for k in n.keywords)) if not _shown_as_is(a))
            continue
        stack.extend(ast.iter_child_nodes(n))


def _shown_as_is(arg) -> bool:
    if type(arg) is ast.Name:
        return True
    return type(arg) is ast.JoinedStr and all(
        type(v) is ast.Constant or type(v) is ast.FormattedValue and type(v.value) is ast.Name for v in arg.values)
