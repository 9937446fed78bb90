"""dataset-cache: a dataset class loading the file it saves itself."""
from __future__ import annotations

import ast

from .base import dotted, parent_of, predicate
from .in_dataset_class import _tail
from ..astwalk import walk


@predicate("dataset-cache", kinds=("call",))
def dataset_cache(ctx, hit) -> bool:
    """The `torch.load` call sits in a dataset class (its name or a base class ends in `Dataset`) that also saves to
    the same path with `torch.save`: `torch.save(self.collate(data_list), self.processed_paths[0])` in `process()`
    and `torch.load(self.processed_paths[0])` in `__init__` (PyG's InMemoryDataset), or `if osp.exists(path):
    loaded = torch.load(path)` with `torch.save({...}, path)` in the other branch. The file is the class's own
    processed cache, built from raw files by the class's host-side preprocessing, so it holds no CUDA storages. The
    path is compared as written (`self.processed_paths[0]`), or as a name bound once in the loading function to an
    expression the saving call spells the same way. A load of a file another module writes (a downloaded split, a
    checkpoint) still matches."""
    call = hit.node
    if type(call) is not ast.Call or not call.args:
        return False
    cls = _dataset_class(ctx, call)
    if cls is None:
        return False
    wanted = _path_forms(cls, call, call.args[0])
    for node in walk(cls):
        if type(node) is ast.Call and node is not call and len(node.args) > 1 \
                and dotted(node.func).rsplit(".", 1)[-1] == "save" and dotted(node.func).startswith(("torch.", "save")):
            if _path_forms(cls, node, node.args[1]) & wanted:
                return True
    return False


def _dataset_class(ctx, node):
    p = parent_of(ctx, node)
    while p is not None:
        if type(p) is ast.ClassDef:
            return p if any(_tail(x).endswith("Dataset") for x in (p.name, *p.bases)) else None
        p = parent_of(ctx, p)
    return None


def _path_forms(cls, call, path) -> set:
    """The text of the path expression, and of the one value a plain name is bound to in the function around
    `call` (one assignment only)."""
    forms = {ast.dump(path)}
    if type(path) is ast.Name:
        for fn in walk(cls):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and fn.lineno <= call.lineno <= (fn.end_lineno or fn.lineno):
                values = [n.value for n in walk(fn) if type(n) is ast.Assign and len(n.targets) == 1
                          and type(n.targets[0]) is ast.Name and n.targets[0].id == path.id]
                if len(values) == 1:
                    forms.add(ast.dump(values[0]))
    return forms
