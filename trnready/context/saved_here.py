"""saved-here: a file this code has just written (torch.save, a saving helper, a fresh temporary directory) is read
back by torch.load."""
from __future__ import annotations

import ast
import re

from .base import call_scope, enclosing_function, predicate
from ..astwalk import walk


@predicate("saved-here", kinds=("call",))
def saved_here(ctx, hit) -> bool:
    """The torch.load call sits in a function (or, outside any function, in a module) that wrote the file earlier,
    so it holds tensors from the device this very run uses: on a Trainium host it never carries CUDA storages and
    loads without a map_location. Written earlier means one of:

    - a torch.save call on an earlier line (`torch.save(state, path)` then `torch.load(path)` in one test);
    - an earlier call handing the same path expression to a helper that saves it: a callee named for saving
      (`save_checkpoint(model, path)`, `export_weights(..., path)`) or a keyword named for an output
      (`convert(model, save_path=path)`, `out_file=path`);
    - an earlier call of an early-stopping object handed a directory name the loaded path is built from
      (`early_stopping(vali_loss, self.model, path)` in the epoch loop, then `best_model_path = path + '/' +
      'checkpoint.pth'` and `torch.load(best_model_path)`: the best weights this run saved);
    - a path under a temporary directory the function made or was given fresh (`with
      tempfile.TemporaryDirectory() as d`, `d = tempfile.mkdtemp()`, pytest's `tmp_path` / `tmpdir`, or a fixture of
      the same file that yields one), followed through the local names built from it (`exp_dir =
      train(checkpoint_dir=d)`, `p = os.path.join(exp_dir, "last.pt")`): such a directory starts empty, so
      everything in it was written by this run, unless the function unpacks, copies or downloads files into it
      (`archive.extractall(tmp)`: a pretrained checkpoint made elsewhere).

    A load with no such write before it in the same function (a checkpoint made elsewhere, possibly on a GPU
    machine), a save after the load, a top-level load after a save inside some other function, and a path under
    a fixed directory another function saves to (a resume of a checkpoint a GPU run may have written) still
    match."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    owner = enclosing_function(ctx, call) or ctx.tree
    line = call.lineno
    resolver = ctx.resolver
    path = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "f"), None)
    shape = ast.dump(path) if path is not None else None
    earlier = []
    for node in _walk(owner):
        if type(node) is not ast.Call or node.lineno >= line:
            continue
        earlier.append(node)
        func = node.func
        tail = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
        if tail == "save" and any(resolver.canonical(q) == "torch.save"
                                  for q in resolver.qualnames(func, call_scope(ctx, node))):
            return True
        if shape is not None and _saves_path(node, tail, shape):
            return True
        if path is not None and _STOPPER.search(tail) and _into_directory(node, path, owner, line):
            return True
    return path is not None and _under_fresh_directory(ctx, owner, path, line)


def _into_directory(node: ast.Call, path, owner, line: int) -> bool:
    """An early-stopping object called with a directory name (`early_stopping(vali_loss, self.model, path)`, which
    saves the best weights there) before a load of a path built from that name (`torch.load(path + '/' +
    'checkpoint.pth')`, directly or through one local name bound to it)."""
    dirs = {a.id for a in (*node.args, *(k.value for k in node.keywords)) if type(a) is ast.Name}
    if not dirs:
        return False
    if any(type(n) is ast.Name and n.id in dirs for n in walk(path)):
        return type(path) is not ast.Name
    if type(path) is not ast.Name:
        return False
    bound = [n for n in _walk(owner) if type(n) is ast.Assign and n.lineno < line and any(
        type(t) is ast.Name and t.id == path.id for t in n.targets)]
    return len(bound) == 1 and any(type(n) is ast.Name and n.id in dirs for n in walk(bound[0].value))


# A callee or keyword named for writing a file: `save_checkpoint(...)`, `export(...)`, `save_path=`, `out_file=`.
_SAVER = re.compile(r"(?i)save|write|export|dump")
# An object that saves the best weights into the directory it is handed, called once per epoch (Informer's
# `early_stopping(vali_loss, self.model, path)`, torch.save of `path + '/' + 'checkpoint.pth'`).
_STOPPER = re.compile(r"(?i)early_?stop|stopper|checkpointer")
_OUTPUT_KEYWORD = re.compile(r"(?i)save|^out|output|^dst$|^dest")
_FRESH_DIRS = frozenset({"TemporaryDirectory", "mkdtemp", "NamedTemporaryFile", "mkstemp"})
# Calls that put files made elsewhere into a directory: unpacking an archive, copying, moving, downloading.
_BRINGS_IN = re.compile(r"(?i)extract|unpack|untar|unzip|copy|move|rename|download|retriev|fetch|clone|get_file")
_TMP_FIXTURES = frozenset({"tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory"})


def _saves_path(node: ast.Call, tail: str, shape: str) -> bool:
    """An earlier call hands the loaded path expression to a helper that writes it."""
    if _SAVER.search(tail) and any(ast.dump(a) == shape for a in node.args):
        return True
    return any(k.arg and (_OUTPUT_KEYWORD.search(k.arg) or _SAVER.search(tail)) and ast.dump(k.value) == shape
               for k in node.keywords)


def _makes_fresh_directory(e) -> bool:
    if type(e) is not ast.Call:
        return False
    f = e.func
    return (f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else "") in _FRESH_DIRS


def _fresh_fixtures(ctx) -> frozenset:
    """Functions of the file decorated as pytest fixtures that make a fresh temporary directory (or take pytest's
    own): a test parameter of that name is one."""
    def compute(ctx):
        out = set()
        for fn in ctx.nodes(ast.FunctionDef):
            if not any("fixture" in ast.dump(d) for d in fn.decorator_list):
                continue
            if any(a.arg in _TMP_FIXTURES for a in fn.args.args) or \
                    any(_makes_fresh_directory(n) for n in walk(fn)):
                out.add(fn.name)
        return frozenset(out)
    return ctx.fact("saved-here-fixtures", compute)


def _under_fresh_directory(ctx, owner, path, line: int) -> bool:
    """The loaded path is built from a temporary directory made fresh for this function (see saved_here)."""
    if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    fresh = {a.arg for a in owner.args.args if a.arg in _TMP_FIXTURES}
    if owner.args.args:
        fixtures = _fresh_fixtures(ctx)
        fresh |= {a.arg for a in owner.args.args if a.arg in fixtures}
    binds = []  # (line, target names, value) of the function's bindings before the load, in order
    for node in walk(owner):
        if type(node) is ast.withitem:
            if node.optional_vars is not None and node.context_expr.lineno < line:
                binds.append((node.context_expr.lineno,
                              [n.id for n in walk(node.optional_vars) if type(n) is ast.Name], node.context_expr))
        elif type(node) is ast.Assign and node.lineno < line:
            binds.append((node.lineno, [n.id for t in node.targets for n in walk(t) if type(n) is ast.Name],
                          node.value))
    binds.sort(key=lambda b: b[0])
    for _ in range(2):  # a name built from one bound later in the text (a loop) is seen on the second pass
        for _ln, targets, value in binds:
            if _makes_fresh_directory(value) or any(type(n) is ast.Name and n.id in fresh for n in walk(value)):
                fresh.update(targets)
    if not fresh or not any(type(n) is ast.Name and n.id in fresh for n in walk(path)):
        return False
    # files brought in from elsewhere (`archive.extractall(tmp)`, `shutil.copy(ckpt, tmp)`, a download into it)
    # may come from a GPU machine: then the directory holds more than this run wrote
    for node in walk(owner):
        if type(node) is ast.Call and getattr(node, "lineno", line) < line:
            f = node.func
            tail = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if _BRINGS_IN.search(tail) and any(type(n) is ast.Name and n.id in fresh
                                               for a in (*node.args, *(k.value for k in node.keywords))
                                               for n in walk(a)):
                return False
    return True


def _walk(owner):
    """The nodes of a function, or of a module outside its functions and classes (a save inside some other
    function of the module is not known to run before a top-level load)."""
    if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        yield from walk(owner)
        return
    todo = list(getattr(owner, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))
