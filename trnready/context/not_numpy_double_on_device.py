"""not-numpy-double-on-device: a tensor made from NumPy data is float64 on the device only in a few readable cases."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, host_or_dtype, imported_name, is_cpu, parent_of, predicate, \
    value_bound_once

# NumPy calls whose result is float64 whatever their input (unless given a dtype), with values that need more than
# float32 holds. `np.zeros(dims)` / `np.ones` / `np.eye` are float64 too, but hold exact values (a 0/1 mask or a
# buffer to fill), which float32 keeps: CutLER's `torch.from_numpy(np.zeros(dims)).cuda()` painting mask was judged
# no item (fresh34).
_FLOAT64_MAKERS = frozenset({"linspace", "logspace", "geomspace", "float64", "double", "random.rand", "random.randn",
                             "random.random", "random.uniform", "random.normal", "random.standard_normal",
                             # window functions (a tracker's cosine window, `np.hanning(bins)`: blind58)
                             "hanning", "hamming", "blackman", "bartlett", "kaiser"})
# tensor methods that change only the shape: `torch.tensor(np.hanning(n)).unsqueeze(0).cuda()` moves the same data
_RESHAPES = frozenset({"unsqueeze", "squeeze", "view", "reshape", "flatten", "t", "transpose", "permute", "expand",
                       "contiguous", "clone", "detach"})
# NumPy ufuncs: float64 for a Python number (a literal, or a parameter holding a scalar hyper-parameter).
_UFUNCS = frozenset({"log", "log2", "log10", "log1p", "exp", "exp2", "expm1", "sqrt", "cbrt", "power", "sin", "cos",
                     "tan", "tanh", "arctan", "arcsin", "arccos"})


def _numpy_call(ctx, node) -> str:
    """The NumPy function a call names (`log` for `np.log(...)`, `random.randn`), or ""."""
    if type(node) is not ast.Call:
        return ""
    name, bound = imported_name(ctx, node.func)
    return name[len("numpy."):] if bound and name.startswith("numpy.") else ""


def _python_number(node, fn) -> bool:
    """A numeric literal, or a parameter of the enclosing function (a scalar hyper-parameter such as
    `init_temperature`) that the function never rebinds."""
    if type(node) is ast.Constant:
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if type(node) is ast.UnaryOp and type(node.op) is ast.USub:
        return _python_number(node.operand, fn)
    if type(node) is not ast.Name or fn is None:
        return False
    params = {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs, *fn.args.posonlyargs)}
    if node.id not in params:
        return False
    return not any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
        type(t) is ast.Name and t.id == node.id for t in getattr(n, "targets", [getattr(n, "target", None)]))
        for n in ast.walk(fn))


# `astype` targets that are float64 by name: the cast states the dtype whatever the array held before
_FLOAT64_NAMES = frozenset({"float", "float64", "double", "f8", "builtins.float", "numpy.float64", "numpy.double",
                            "numpy.float_"})


def _astype_float64(ctx, node) -> bool:
    """`arr.astype(float)`, `.astype("float64")`, `.astype(np.double)`: an explicit cast to float64."""
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != "astype" \
            or len(node.args) != 1:
        return False
    arg = node.args[0]
    if type(arg) is ast.Constant:
        return arg.value in _FLOAT64_NAMES
    if type(arg) is ast.Name and arg.id == "float":
        return True
    name, bound = imported_name(ctx, arg)
    return bound and name in _FLOAT64_NAMES


def _float64(ctx, node, fn, depth: int = 0) -> bool:
    if type(node) is ast.Name and fn is not None and depth == 0:
        # data bound once in the function to a float64 value (`grid = np.linspace(...)`, then `torch.tensor(grid)`)
        value = value_bound_once(fn, node.id)
        return value is not None and _float64(ctx, value, fn, 1)
    if _astype_float64(ctx, node):
        return True
    name = _numpy_call(ctx, node)
    if not name or any(k.arg == "dtype" for k in node.keywords):
        return False
    if name in _FLOAT64_MAKERS:
        return True
    return name in _UFUNCS and bool(node.args) and all(_python_number(a, fn) for a in node.args)


def _on_device(ctx, call) -> bool:
    """The tensor goes to an accelerator at once: `device=` other than the CPU, or `.to(x)` / `.cuda()` chained on
    the call with a device that is not the CPU, possibly after methods that only change the shape (`.unsqueeze(0)`)."""
    for k in call.keywords:
        if k.arg == "device":
            return not is_cpu(k.value)
    node = call
    for _ in range(4):
        up = parent_of(ctx, node)
        if type(up) is not ast.Attribute or up.value is not node:
            return False
        outer = parent_of(ctx, up)
        if type(outer) is not ast.Call or outer.func is not up:
            return False
        if up.attr == "cuda":
            return True
        if up.attr == "to" and outer.args and not any(k.arg == "dtype" for k in outer.keywords):
            return not host_or_dtype(outer.args[0])
        if up.attr not in _RESHAPES:
            return False
        node = outer
    return False


@predicate("not-numpy-double-on-device", kinds=("call",))
def not_numpy_double_on_device(ctx, hit) -> bool:
    """Holds (the match is dropped) unless all of these hold: the call (`torch.tensor`, `torch.as_tensor`,
    `torch.from_numpy`) names no dtype; its data is a NumPy value that is float64 by NumPy's own rules, written in the
    call: a maker that defaults to float64 with values beyond float32 (`np.linspace`, `np.random.randn`,
    `np.float64(x)`; not `np.zeros` / `np.ones` / `np.eye`, whose exact values float32 keeps) without a dtype, an
    explicit cast `arr.astype(float)` / `.astype("float64")`, a name the function binds once to one of these, or a
    ufunc of Python numbers (`np.log(init_temperature)`, with `init_temperature` a parameter the function never
    rebinds); and the tensor goes to an accelerator at once (`device=` other than the CPU, or `.to(device)` /
    `.cuda()` chained on the call). SAC agents build their trainable temperature this way
    (`torch.tensor(np.log(init_temperature)).to(device)`), a float64 tensor on the device. Data of unknown dtype (an
    array read from a file, a NumPy array passed in) is never judged float64."""
    call = hit.node
    if type(call) is not ast.Call or not call.args:
        return True
    if any(k.arg == "dtype" for k in call.keywords) or (len(call.args) > 1 and dotted(call.func).endswith("tensor")):
        return True
    return not (_float64(ctx, call.args[0], enclosing_function(ctx, call)) and _on_device(ctx, call))
