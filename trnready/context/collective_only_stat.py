"""collective-only-stat: a tensor of host numbers made only to be summed across ranks, or read back."""
from __future__ import annotations

import ast

from .base import assigned_name, call_taking, dotted, parent_of, predicate
from ..astwalk import walk

# torch functions (and the tensor method `new_tensor`) that build a tensor from the Python values they are given.
_FROM_VALUES = frozenset({"tensor", "as_tensor", "DoubleTensor", "Tensor", "new_tensor"})
# Modules whose functions answer host values (`np.sum(ious)`): a number of the host, as a Python scalar is.
_HOST_MODULES = ("np.", "numpy.", "math.", "statistics.")
# Collectives that take the tensor as their input (and, in place, as their output).
_COLLECTIVES = frozenset({"all_reduce", "reduce", "broadcast", "all_reduce_multigpu"})
# Conversions that hand the values back to host Python.
_TO_HOST = frozenset({"tolist", "item", "numpy", "cpu"})


@predicate("collective-only-stat", kinds=("reference",), effect="guard")
def collective_only_stat(ctx, hit) -> bool:
    """The match is an argument of `torch.tensor([...])` whose data is a list of Python numbers (names,
    attributes, constants, arithmetic on them: `[self.count, self.total]`), the result is assigned to a name, and
    every read of that name in the function (up to a line that binds it again: `t = t.tolist()`) is the tensor
    argument of a collective (`dist.all_reduce(t)`, `reduce`, `broadcast`) or a conversion back to the host
    (`t.tolist()`, `t[0].item()`). Such a tensor only carries host statistics (a logger's count and total, an
    IoU sum kept for the log) through the collective because collectives take tensors, or straight back to the
    host: no model arithmetic sees it, so its dtype is no port item. `x.new_tensor([...])` builds one too, and a
    NumPy or `math` function of host values (`np.sum(ious)`) is a host number. The device it is made on is a
    separate finding of its own rule."""
    call = call_taking(ctx, hit.node)
    if call is None or dotted(call.func).rpartition(".")[2] not in _FROM_VALUES or not call.args:
        return False
    data = call.args[0]
    if not isinstance(data, (ast.List, ast.Tuple)) or not data.elts or not all(_python_number(e) for e in data.elts):
        return False
    bound = assigned_name(ctx, call)
    if bound is None:
        return False
    (name, fn), line = bound, parent_of(ctx, call).lineno
    names = [n for n in walk(fn) if type(n) is ast.Name and n.id == name]
    # `t = t.tolist()` rebinds the name to a list: reads after that line are of the list
    rebound = min((n.lineno for n in names if type(n.ctx) is ast.Store and n.lineno > line), default=None)
    reads = [n for n in names if type(n.ctx) is ast.Load and n.lineno > line
             and (rebound is None or n.lineno <= rebound)]
    uses = [_use(ctx, n) for n in reads]
    return bool(uses) and all(u is not None for u in uses)


def _python_number(e) -> bool:
    """A name, attribute or constant, or arithmetic of them: a scalar the code keeps in Python."""
    if type(e) in (ast.Name, ast.Attribute, ast.Constant):
        return type(e) is not ast.Constant or isinstance(e.value, (int, float))
    if type(e) is ast.BinOp:
        return _python_number(e.left) and _python_number(e.right)
    if type(e) is ast.UnaryOp:
        return _python_number(e.operand)
    if type(e) is ast.Call and type(e.func) is ast.Name and e.func.id in ("float", "int", "len") and e.args:
        return True
    if type(e) is ast.Call and dotted(e.func).startswith(_HOST_MODULES):
        return all(_host_argument(a) for a in e.args)
    return False


def _host_argument(e) -> bool:
    """An argument of a NumPy / math call that is no tensor expression: a name, a constant, a Python number."""
    return type(e) in (ast.Name, ast.Constant, ast.List, ast.Tuple) or _python_number(e)


def _use(ctx, name):
    """'collective' for `dist.all_reduce(t)`, 'host' for `t.tolist()` / `t[0].item()`, None for anything else."""
    up = parent_of(ctx, name)
    if type(up) is ast.Call and name in up.args and dotted(up.func).rpartition(".")[2] in _COLLECTIVES:
        return "collective"
    if type(up) is ast.Subscript and up.value is name:
        name, up = up, parent_of(ctx, up)
    if type(up) is ast.Attribute and up.value is name and up.attr in _TO_HOST \
            and type(parent_of(ctx, up)) is ast.Call:
        return "host"
    return None
