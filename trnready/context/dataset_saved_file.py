"""dataset-saved-file: a dataset reads back the file its own processing wrote with torch.save."""
from __future__ import annotations

import ast

from .base import call_scope, enclosing_function, parent_of, predicate
from ._class_spans import class_name_tail as _tail
from ..astwalk import walk

# calls in a saved value that may put tensors on a device or take a model's weights: such a file stays a checkpoint
_DEVICE_CALLS = frozenset({"cuda", "to", "state_dict", "half", "bfloat16"})


@predicate("dataset-saved-file", kinds=("call",))
def dataset_saved_file(ctx, hit) -> bool:
    """`torch.load(self.processed_paths[0])` in a dataset class (its name or a base ends in `Dataset`) that saves
    the same path expression itself (`torch.save(self.collate([data]), self.processed_paths[0])` in `process()`, or
    `torch.save({'graph': g, 'labels': y}, path)` in the `else` of the cache check that loads it, or a method of the
    class that saves under its own parameter the path the loading function hands it: `self.ids =
    self._preprocess(ids, ids_file)` with `torch.save(new_ids, ids_file)` in `_preprocess`): the file holds what
    the dataset's processing built on the host, and loads without a map_location on any machine. A local path name
    counts only within one function; a saved value that moves tensors or takes a model's weights (`.cuda()`,
    `.to(...)`, `.state_dict()`) is a checkpoint and the load stays reported, as does a load of any other file (a
    feature file saved elsewhere, perhaps from a GPU)."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    path = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "f"), None)
    if path is None:
        return False
    cls = parent_of(ctx, call)
    while cls is not None and type(cls) is not ast.ClassDef:
        cls = parent_of(ctx, cls)
    if cls is None or not any(_tail(x).endswith("Dataset") for x in (cls.name, *cls.bases)):
        return False
    local = type(path) is ast.Name
    fn = enclosing_function(ctx, call)
    if _saves(ctx, fn if local and fn is not None else cls, ast.dump(path)):
        return True
    # `self.ids = self._preprocess(ids, ids_file)` in the other arm of the cache check: the method saves what it
    # is handed under its own parameter name (PyTorch-Encoding's COCO and PContext datasets and their copies)
    if not isinstance(path, ast.Name) or fn is None:
        return False
    methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in walk(fn):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) \
                or not isinstance(node.func.value, ast.Name) or node.func.value.id != "self" \
                or node.func.attr not in methods:
            continue
        method = methods[node.func.attr]
        params = [a.arg for a in method.args.args[1:]]
        handed = [params[i] for i, a in enumerate(node.args)
                  if isinstance(a, ast.Name) and a.id == path.id and i < len(params)]
        handed += [k.arg for k in node.keywords
                   if isinstance(k.value, ast.Name) and k.value.id == path.id and k.arg in params]
        if any(p is not None and _saves(ctx, method, ast.dump(ast.Name(id=p, ctx=ast.Load()))) for p in handed):
            return True
    return False


def _saves(ctx, owner, shape: str) -> bool:
    """The code under `owner` torch.saves a value that moves nothing to a device to the path expression `shape`."""
    resolver = ctx.resolver
    for node in walk(owner):
        if type(node) is not ast.Call or len(node.args) < 2 or ast.dump(node.args[1]) != shape:
            continue
        f = node.func
        if (f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else "") != "save":
            continue
        if not any(resolver.canonical(q) == "torch.save" for q in resolver.qualnames(f, call_scope(ctx, node))):
            continue
        if not _device_value(node.args[0]):
            return True
    return False


def _device_value(e) -> bool:
    for n in walk(e):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in _DEVICE_CALLS:
            return True
    return False
