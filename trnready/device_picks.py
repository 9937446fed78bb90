"""Statement-form device picks: the device string an `if` / `elif` / `else` chain assigns or returns.

`if torch.cuda.is_available(): device_type = "cuda"` / `elif ...: device_type = "mps"` / `else: device_type = "cpu"`
(or `return "cuda"` ... `return "cpu"` after the `if`; also `return f"cuda:{idx}"` after `if idx == -1: return "cpu"`,
a device index turned into a device string): the "cuda" is a device string because another arm gives
the same name (or the function's return) another device's name. The names that make a chain a device pick are
catalogue data (`[context.values] device-pick-alternatives`); the check of the chain decides the rest
(neuron-guarded guards the CUDA arm, and the post-processing folds that value into the reported check).
"""

from __future__ import annotations

import ast


def _is_cuda(value: str) -> bool:
    return value == "cuda" or (value.startswith("cuda:") and value[5:].isdigit())


def _text(value: ast.expr) -> str | None:
    """The device name a returned or stored value spells: a literal string, or a CUDA device string built from an
    index (`f"cuda:{idx}"`, `"cuda:%d" % idx`, `"cuda:" + str(idx)`), read as `cuda:0` (its device type is what
    decides)."""
    if isinstance(value, ast.Constant):
        return value.value if type(value.value) is str else None
    if isinstance(value, ast.JoinedStr):
        parts = value.values
        if len(parts) == 2 and isinstance(parts[0], ast.Constant) and parts[0].value == "cuda:" \
                and isinstance(parts[1], ast.FormattedValue):
            return "cuda:0"
    elif isinstance(value, ast.BinOp) and isinstance(value.left, ast.Constant):
        left = value.left.value
        if (isinstance(value.op, ast.Mod) and left in ("cuda:%d", "cuda:%s", "cuda:%i")) \
                or (isinstance(value.op, ast.Add) and left == "cuda:"):
            return "cuda:0"
    return None


def _only_argument(value, callee: str) -> ast.expr | None:
    """The one positional argument of a call of `callee` (any receiver: `torch.set_default_device(...)`,
    `torch.device(...)`), or None."""
    if type(value) is not ast.Call or len(value.args) != 1 or value.keywords:
        return None
    f = value.func
    name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
    return value.args[0] if name == callee else None


def _default_device_arg(value) -> ast.expr | None:
    """The device argument of a `set_default_device(...)` call, or None."""
    return _only_argument(value, "set_default_device")


def _stores(arm: list, out: dict, built: bool = False) -> None:
    """Literal strings the arm assigns to one name / returns, by key, through nested `if`s of the arm; with `built`,
    also the name a device built by a call holds (`return torch.device("cuda")`, `dev = torch.device("cpu")`)."""
    for st in arm:
        t = type(st)
        if t is ast.If:
            _stores(st.body, out, built)
            _stores(st.orelse, out, built)
            continue
        # the value is read first: the key is written out (ast.unparse) only for a value that spells a device name
        if t is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) in (ast.Name, ast.Attribute):
            target, value = st.targets[0], st.value
        elif t is ast.AnnAssign and st.value is not None and type(st.target) in (ast.Name, ast.Attribute):
            target, value = st.target, st.value
        elif t is ast.Return and st.value is not None:
            target, value = None, st.value
        elif t is ast.Expr:
            target, value = None, st.value
        else:
            continue
        if built and _only_argument(value, "device") is not None:
            value = value.args[0]
        setter = _default_device_arg(value)
        if setter is not None:
            # `torch.set_default_device("cuda")` in one arm, `torch.set_default_device("cpu")` in another
            # (torch_DE_solver's `solver_device`, also as `return torch.set_default_device(...)`; blind80)
            text = _text(setter)
            if text is not None:
                out.setdefault("set_default_device", []).append((setter, text))
            continue
        if t is ast.Expr:
            continue
        text = _text(value)
        if text is not None:
            out.setdefault("return" if target is None else ast.unparse(target), []).append((value, text))


def _arms(node: ast.If, following: ast.stmt | None) -> list:
    """The arms of an `if` / `elif` / `else` chain; a chain without an `else` is completed by the statement after it."""
    arms = [node.body]
    orelse = node.orelse
    while len(orelse) == 1 and type(orelse[0]) is ast.If:
        arms.append(orelse[0].body)
        orelse = orelse[0].orelse
    arms.append(orelse if orelse else ([following] if following is not None else []))
    return arms


def pick_literals(node: ast.If, following: ast.stmt | None, alternatives: frozenset) -> list:
    """The "cuda" literals of a device pick written as statements: a chain whose arms give one name (or the
    return value) "cuda" in one arm and another device's name (`alternatives`) in another. A chain without an
    `else` is completed by the statement after it (`return "cpu"` after `if ...: return "cuda"`)."""
    return _picked(node, following, alternatives, built=False)


def _picked(node: ast.If, following: ast.stmt | None, alternatives: frozenset, built: bool) -> list:
    """The CUDA values of the chain's arms whose name (or return value) another arm gives one of `alternatives`."""
    stores: dict = {}
    for arm in _arms(node, following):
        _stores(arm, stores, built)
    out: list = []
    for values in stores.values():
        cuda = [v for v, text in values if _is_cuda(text)]
        if cuda and any(text.split(":", 1)[0].lower() in alternatives for _, text in values):
            out.extend(cuda)
    return out


def chooses_device(node: ast.If, following: ast.stmt | None, alternatives: frozenset) -> bool:
    """The chain is a device pick (as for `pick_literals`), also when its arms build the device
    (`return torch.device("cuda")` ... `return torch.device("cpu")`): one arm names CUDA, another one of
    `alternatives`, for the same name, the return value or `set_default_device`."""
    return bool(_picked(node, following, alternatives, built=True))


def falls_back_to_host(node: ast.If, name: ast.expr, alternatives: frozenset) -> bool:
    """The `if` body gives the compared name (or the return value, or `set_default_device`) another device's
    name and nothing CUDA: `if device == "cuda" and not torch.cuda.is_available(): device = "cpu"`. A caller asking
    for CUDA gets the CPU on a Trainium host, where the check answers no."""
    stores: dict = {}
    _stores(node.body, stores, built=True)
    key = ast.unparse(name)
    found = False
    for k, values in stores.items():
        if k not in (key, "return", "set_default_device"):
            continue
        if any(_is_cuda(text) for _, text in values):
            return False
        found = found or any(text.split(":", 1)[0].lower() in alternatives for _, text in values)
    return found
