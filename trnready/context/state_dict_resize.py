"""state-dict-resize: the tensor resized is a weight read out of a checkpoint or state dict, once, as it loads."""
from __future__ import annotations

import ast

from .base import dotted, enclosing_function, is_cpu, name_globs, predicate

# Methods that reshape or retype a tensor without making it anything but the same weights.
# (`.to(device)` and `.cuda()` are not among them: a table moved to the device is resized there.)
_SHAPING = frozenset({"reshape", "view", "permute", "transpose", "unsqueeze", "squeeze", "flatten", "contiguous",
                      "float", "double", "half", "cpu", "clone", "detach", "type", "unflatten", "movedim"})
# Checkpoint loaders (`torch.load`, `load_state_dict_from_url`, safetensors' `load_file`) a function may show.
_LOADERS = frozenset({"load", "load_file", "load_state_dict_from_url", "load_url"})
_MAX_DEPTH = 4


def _unshaped(expr, ctx=None, words=None):
    """The expression under shaping calls and constant indexes (`sd[k].unsqueeze(0)[0].permute(0, 3, 1, 2)`); with
    `words`, an item of a state dict found on the way is returned as it is (`torch.load(path)["pos_embed"]`)."""
    while True:
        t = type(expr)
        if t is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in _SHAPING:
            expr = expr.func.value
        elif t is ast.Subscript and words is not None and _state_dict(ctx, _unshaped(expr.value), words):
            return expr
        elif t is ast.Subscript and type(expr.slice) in (ast.Constant, ast.Slice, ast.Tuple) and \
                type(expr.value) is not ast.Name:
            expr = expr.value
        else:
            return expr


def _state_dict(ctx, node, words) -> bool:
    """A mapping that holds checkpoint weights: a name of `state-dict-names` (whose loader, when its function shows
    one, puts the weights on the CPU), or a module's `state_dict()`."""
    if type(node) in (ast.Name, ast.Attribute):
        name = node.id if type(node) is ast.Name else node.attr
        if not (words and words.match(name)):
            return False
        if type(node) is not ast.Name:
            return True
        loader = _loaded_here(ctx, node)
        if loader is None:
            return True
        # a loader the function shows counts only when it puts the weights on the CPU (`map_location="cpu"`):
        # loaded onto the device, or where they were saved (CUDA), the resize runs there (as `host-built-value` reads)
        return any(k.arg == "map_location" and is_cpu(k.value) for k in loader.keywords)
    if type(node) is ast.Call:
        return dotted(node.func).rsplit(".", 1)[-1] == "state_dict"
    return False


def _loaded_here(ctx, name):
    """The loader call (`torch.load`, `load_state_dict_from_url`, also under a subscript: `torch.load(path)["model"]`)
    `name` is assigned from in its function, or None."""
    fn = enclosing_function(ctx, name) if ctx is not None else None
    if fn is None:
        return None
    for node in ast.walk(fn):
        if type(node) is ast.Assign and any(type(t) is ast.Name and t.id == name.id for t in node.targets):
            value = node.value
            while type(value) is ast.Subscript:
                value = value.value
            if type(value) is ast.Call and dotted(value.func).rsplit(".", 1)[-1] in _LOADERS:
                return value
    return None


def _bindings(fn, name: str, use) -> list | None:
    """What `name` is bound to in `fn` before its read `use`: assigned values and `for` iterables (as ("for", it)),
    or None when it is bound any other way (a parameter, a `with`, an augmented assignment). An assignment whose
    value holds the read itself (`pos = F.interpolate(pos, ...)`) binds it after the read."""
    out: list = []
    before = use.lineno
    for node in ast.walk(fn):
        if getattr(node, "lineno", before) > before:
            continue
        if type(node) is ast.Assign and any(n is use for n in ast.walk(node.value)):
            continue
        if getattr(node, "lineno", before) == before and type(node) is not ast.Assign:
            continue
        if type(node) is ast.Assign and any(type(t) is ast.Name and t.id == name for t in node.targets):
            if len(node.targets) != 1 or type(node.targets[0]) is not ast.Name:
                return None
            out.append(node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            targets = node.target.elts if isinstance(node.target, ast.Tuple) else [node.target]
            if any(type(t) is ast.Name and t.id == name for t in targets):
                out.append(("for", node.iter))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and \
                isinstance(node.target, ast.Name) and node.target.id == name:
            return None
    if any(a.arg == name for a in (*fn.args.args, *fn.args.kwonlyargs, *fn.args.posonlyargs)):
        return None
    return out


def _from_state_dict(ctx, expr, fn, words, seen: frozenset, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    expr = _unshaped(expr, ctx, words)
    if type(expr) is ast.Subscript:
        return _state_dict(ctx, _unshaped(expr.value), words)
    if type(expr) is not ast.Name or fn is None:
        return False
    if expr.id in seen:
        return True  # `pos = pos.reshape(...)`: the name's other bindings decide
    if ctx is not None and _parameter_index(fn, expr.id) is not None:
        return _callers_pass_state_dict(ctx, fn, expr.id, words, depth)
    bound = _bindings(fn, expr.id, expr)
    if not bound:
        return False
    seen = seen | {expr.id}
    for b in bound:
        if type(b) is tuple:  # `for k, v in state_dict.items():`
            it = b[1]
            if not (type(it) is ast.Call and type(it.func) is ast.Attribute and it.func.attr in ("items", "values")
                    and _state_dict(ctx, _unshaped(it.func.value), words)):
                return False
        elif not _from_state_dict(ctx, b, fn, words, seen, depth + 1):
            return False
    # at least one binding that is not the name re-bound from itself (`pos = pos.reshape(...)`)
    return any(type(b) is tuple or not (type(u := _unshaped(b)) is ast.Name and u.id in seen) for b in bound)


def _parameter_index(fn, name: str) -> int | None:
    """The position of parameter `name` among those a call passes (`self` of a method not counted), or None."""
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if name not in params:
        return None
    index = params.index(name)
    if params and params[0] in ("self", "cls"):
        index -= 1
    return index


def _callers_pass_state_dict(ctx, fn, name: str, words, depth: int) -> bool:
    """Every call of `fn` in the file (`resize_pos_embed(...)`, `self.resize_pos_embed(...)`), at least one, hands
    parameter `name` a value read out of a checkpoint (GLIP's `self.resize_pos_embed_1d(old_pos_embed, ...)` with
    `old_pos_embed = pretrained_dict[k]`)."""
    index = _parameter_index(fn, name)
    found = False
    for call in ctx.calls():
        f = call.func
        if not ((type(f) is ast.Name and f.id == fn.name) or (type(f) is ast.Attribute and f.attr == fn.name)):
            continue
        arg = next((k.value for k in call.keywords if k.arg == name), None)
        if arg is None and index is not None and 0 <= index < len(call.args):
            arg = call.args[index]
        if arg is None or type(arg) is ast.Starred:
            return False
        if not _from_state_dict(ctx, arg, enclosing_function(ctx, call), words, frozenset(), depth + 1):
            return False
        found = True
    return found


@predicate("state-dict-resize", kinds=("call",), effect="guard")
def state_dict_resize(ctx, hit) -> bool:
    """The tensor resized (the call's first argument, through reshapes, permutes, `unsqueeze(0)[0]` and local names
    bound only to such values) is read out of a checkpoint: an item of a mapping named by `[context.values]
    state-dict-names` (`state_dict[k]`, `checkpoint["pos_embed"]`, `swin_state_dict[x]`) or of `model.state_dict()`,
    or a value of a `for k, v in state_dict.items()` loop; or a parameter of a helper every call of which in the file
    passes such a value (`resize_pos_embed_1d(old_pos_embed, ...)` from a checkpoint loader). When the function
    shows the mapping's loader (`checkpoint = torch.load(path, ...)`), it counts only with `map_location="cpu"`:
    weights loaded onto the device, or where they were saved, are resized there (as `host-built-value` reads it).
    A table resized while pretrained weights load is host work done once, not a step on the device (guarded, as
    host data code is). `.to(device)` ends the chain, and a resize of the module's own parameter (`self.pos_embed`
    in a forward) stays a finding."""
    call = hit.node
    if type(call) is not ast.Call or not call.args:
        return False
    words = name_globs(ctx, "state-dict-names")
    return _from_state_dict(ctx, call.args[0], enclosing_function(ctx, call), words, frozenset(), 0)
