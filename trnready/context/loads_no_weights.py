"""loads-no-weights: torch.load of a file that nothing marks as a model's weights (statistics, splits, caches)."""
from __future__ import annotations

import ast

from .base import enclosing_function, parent_of, predicate
from .dataset_saved_file import _device_value
from ..astwalk import walk


@predicate("loads-no-weights", kinds=("call",))
def loads_no_weights(ctx, hit) -> bool:
    """A `torch.load` whose file nothing in its code marks as a model's weights. Only a file written from CUDA
    tensors fails without a map_location, and what a project saves from the GPU is its model: a checkpoint, a
    state dict, pretrained weights. Files of another kind (feature statistics, index splits, alignments,
    metadata, tuned configurations, a dataset's processed tensors) are built on the host and load anywhere; audits
    judged such loads false (`split_dict = torch.load(...)`, `stats = torch.load(stats_file)`).

    The load counts as reading weights, and stays reported, when any of these holds:

    - a word of `weight-load-words` (`ckpt`, `checkpoint`, `weight`, `model`, `state`, `pretrain`, `.pth`, ...)
      appears in the path expression (or in what the function assigns to the path's name), in the name the
      result is assigned to, in a string key read from the result
      (`torch.load(p)["model"]`, `pkg["state_dict"]` after `pkg = torch.load(p)`) or in the enclosing function's
      name (`def load_checkpoint(path)`);
    - the enclosing function (or the module, for a top-level load) calls one of `weight-load-calls`
      (`load_state_dict`, ...), since the loaded object may be what it restores;
    - the result leaves the function (`return torch.load(path)`, or the name it is assigned to is returned or
      yielded): the caller decides what it is;
    - the file saves a value placed on a device or a state dict (`.cuda()`, `.to(...)`, `.state_dict()`) to the
      same path expression (`torch.save(model.encoder.weight.cuda(), self.path)`).

    Anything else (`Jd = torch.load(os.path.join(here, "Jd.pt"))` then `register_buffer`, `ali = torch.load(fname)`
    read for its alignment lists) is dropped. So is, before any of the above, a load whose path ends in a file name
    of `argument-file-names` (`torch.load(op.join(args.eval_model_dir, 'training_args.bin'))`: the pickled
    argparse Namespace Hugging Face-style scripts save beside the weights, which unpickles without CUDA even when it
    holds a `torch.device("cuda")`; Oscar, fresh56)."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    words = tuple(w.lower() for w in ctx.values.get("weight-load-words", ()))
    restorers = frozenset(ctx.values.get("weight-load-calls", ()))
    fn = enclosing_function(ctx, call)
    owner = fn if fn is not None else ctx.tree
    texts = [fn.name] if fn is not None else []
    path = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "f"), None)
    names = tuple(n.lower() for n in ctx.values.get("argument-file-names", ()))
    if path is not None and names and any(
            type(n) is ast.Constant and type(n.value) is str and n.value.lower().rsplit("/", 1)[-1] in names
            for n in walk(path)):
        return True
    if path is not None:
        texts.append(ast.unparse(path))
        if type(path) is ast.Name:
            texts.extend(_assigned_texts(owner, path.id))
    targets = set()
    node, up = call, parent_of(ctx, call)
    while up is not None and not isinstance(up, ast.stmt):
        if type(up) is ast.Subscript and up.value is node and type(up.slice) is ast.Constant:
            texts.append(str(up.slice.value))
        node, up = up, parent_of(ctx, up)
    if type(up) is ast.Return or type(up) is ast.Expr and isinstance(node, (ast.Yield, ast.YieldFrom)):
        return False  # handed back: `return torch.load(p)`, `yield torch.load(p)`
    if isinstance(up, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        for tgt in (up.targets if isinstance(up, ast.Assign) else [up.target]):
            for n in walk(tgt):
                if type(n) is ast.Name:
                    targets.add(n.id)
                elif type(n) is ast.Attribute:
                    texts.append(n.attr)
        texts.extend(targets)
    if targets and fn is not None:
        texts.extend(_keys_read(fn, targets))
    text = " ".join(texts).lower()
    if any(w in text for w in words):
        return False
    shape = ast.dump(path) if path is not None else None
    for n in ctx.calls():
        if len(n.args) >= 2 and ast.dump(n.args[1]) == shape and _device_value(n.args[0]):
            f = n.func
            if (f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else "") == "save":
                return False
    for n in _own_nodes(owner):
        t = type(n)
        if t is ast.Call:
            f = n.func
            tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if tail in restorers:
                return False
        elif fn is not None and t in (ast.Return, ast.Yield, ast.YieldFrom) and n.value is not None and \
                any(type(x) is ast.Name and x.id in targets for x in _handed_out(n.value)):
            return False
    return True


def _assigned_texts(owner, name: str) -> list:
    """The source of what the function (or the module's top-level code) assigns to a path name: `source =
    sys.argv[1]` makes `torch.load(source)` a load of the file the user named."""
    return [ast.unparse(n.value) for n in _own_nodes(owner) if type(n) is ast.Assign
            and any(type(x) is ast.Name and x.id == name for x in n.targets)]


def _keys_read(fn, names: set) -> list:
    """The string keys the function reads from the named results: `pkg["state_dict"]`, `ckpt.get("model")`."""
    keys = []
    for n in walk(fn):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in names and \
                isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            keys.append(n.slice.value)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" and \
                isinstance(n.func.value, ast.Name) and n.func.value.id in names and n.args and \
                isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            keys.append(n.args[0].value)
    return keys


def _own_nodes(owner):
    """The nodes of a function, or of a module's top-level code (not the functions and classes it defines)."""
    if type(owner) is not ast.Module:
        return walk(owner)
    return (n for s in owner.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for n in walk(s))


def _handed_out(value) -> list:
    """The names a return hands back whole: `return state`, `return model, state`; not a value computed from them
    (`return cls(stats["mean"])`, `return ali["alignments"]`)."""
    if type(value) in (ast.Tuple, ast.List):
        return [e for e in value.elts if type(e) is ast.Name]
    return [value] if type(value) is ast.Name else []
