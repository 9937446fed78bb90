"""Link step `caller-places`: the calls of a project helper are places of a finding in its body when what the
finding changes belongs to the caller.

Two shapes of helper, read from the finding's own file (the rules it applies to are `caller-place-rules` in
blockers.toml):

- the finding moves the helper's parameter (`def wrap_model(args, model): ... model.cuda()`): the module moved is
  the caller's, so each call handing that parameter an argument (`model = wrap_model(args, model)`) is where the
  caller's model goes to the GPU;
- the finding is the whole helper (every statement of its body but the docstring is the finding or one of its
  folded places: `def configure_nccl(): os.environ["NCCL_..."] = ...`): calling it is doing the thing;
- the helper hands the finding out (rules `handed-out-rules`): a function returning it (`return
  torch.cuda.amp.autocast(...)`, the bare API, or a lambda calling it) or a class keeping it from its constructor
  (`self._scaler = torch.cuda.amp.GradScaler(...)` in `__init__`): each call of the function or construction of the
  class is where the caller obtains the CUDA object. Several findings in one such helper put the calls on the first.

The finding stays one (one finding per thing); the calls are listed in it as `elsewhere` places and named in its
message. A call is recognised in the helper's own file and in files importing the helper by name from its module
or from the package holding it (a re-export in `__init__.py`); tests are left out (they exercise the helper with
their own setup). Only files whose text holds `name(` are parsed, and only when such a finding exists.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from ..astwalk import calls, statements, walk
from ..scope import classify
from .acting_helpers import acting_helper, calls_of, char_column as _column, code_lines
from .helper_imports import from_helper as _from_helper, imported_names as _imported_names
from .link import module_names
from .step_memo import holding, text_test

MAX_NAMED = 3
# A longer function is the run itself (a `train()` holding one resize among its statements), not a helper of it.
ACTING_MAX_LINES = 40
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def caller_places(findings: list, files, text_of, values: dict) -> list:
    """`text_of(rel)`: a scanned Python file's text or None; `values`: the catalogue's context values."""
    from ..match import showing_calls

    showing = showing_calls(values)
    rules = frozenset(values.get("caller-place-rules", ()))
    host_rules = frozenset(values.get("caller-place-host-rules", ()))
    handing = frozenset(values.get("handed-out-rules", ()))
    active = [i for i, f in enumerate(findings) if not f.guarded and not f.suppressed and f.cell is None
              and f.path.endswith(".py")]
    held = [i for i in active if findings[i].rule in rules]
    bracketing = frozenset(values.get("bracketing-rules", ()))
    brackets = [i for i in active if findings[i].rule in bracketing]
    handed = [i for i in active if findings[i].rule in handing and findings[i].rule not in rules]
    options = [i for i in active if "default" in findings[i].snippet]  # `default="nccl"` of an option
    apis: dict = {}  # rule -> the API calls where an option defaulting to its flagged value takes effect
    for pair in values.get("option-api-calls", ()):
        rule, _, api = pair.partition(":")
        apis.setdefault(rule, set()).add(api)
    acts = frozenset(values.get("acting-helper-rules", ()))
    effects = frozenset(values.get("acting-helper-effect-rules", ()))
    resolving = frozenset(values.get("resolving-helper-rules", ()))
    doing = [i for i in active if findings[i].rule in acts | effects | resolving]
    if not held and not options and not handed and not brackets and not doing:
        return findings
    trees: dict = {}
    helpers: dict = {}  # index -> (defining rel, helper name, parameter index or None, parameter name or None)
    whole: dict = {}  # index -> (line, column) of the `def` of a helper the finding is the whole body of
    renamable: set = set()  # indexes of helpers whose calls are followed under an imported alias too
    seen: set = set()  # (rel, helper name) already given to a finding that it hands out
    for i in sorted(handed, key=lambda k: (findings[k].path, findings[k].line, findings[k].column)):
        f = findings[i]
        tree = _tree(trees, f.path, text_of)
        name = _handed_out_by(tree, f, (text_of(f.path) or "").splitlines()) if tree is not None else None
        if name is not None and (f.path, name) not in seen:
            seen.add((f.path, name))
            helpers[i] = (f.path, name, None, None)
            renamable.add(i)
    for i in sorted(brackets, key=lambda k: (findings[k].path, findings[k].line, findings[k].column)):
        f = findings[i]
        tree = _tree(trees, f.path, text_of)
        name = _bracketing(tree, f) if tree is not None else None
        if name is not None and (f.path, name) not in seen:  # the helper's calls go on its first such finding
            seen.add((f.path, name))
            helpers[i] = (f.path, name, None, None)
    for i in held:
        f = findings[i]
        tree = _tree(trees, f.path, text_of)
        if tree is None:
            continue
        got = _helper_of(tree, f, (text_of(f.path) or "").splitlines())
        if got is not None:
            helpers[i] = (f.path, *got[:3])
            if got[3] is not None:
                whole[i] = got[3]
    acting: dict = {}  # index -> Acting, for a helper that does the finding's thing at each call
    longest = ACTING_MAX_LINES
    split: dict = {}  # rel -> the file's lines
    given = seen | {(h[0], h[1]) for h in helpers.values()}  # helpers of another shape keep their calls
    for i in sorted(doing, key=lambda k: (findings[k].path, findings[k].line, findings[k].column)):
        f = findings[i]
        tree = None if i in helpers else _tree(trees, f.path, text_of)
        if tree is None:
            continue
        if f.path not in split:
            split[f.path] = (text_of(f.path) or "").splitlines()
        if f.rule in resolving and f.rule not in acts | effects:
            # a device resolver acts by handing the device out: only a "cuda" it returns makes its calls places
            if not _resolves_to(tree, f):
                continue
        got = acting_helper(tree, f, split[f.path], f.rule in effects and f.rule not in acts, longest)
        if got is not None and (f.path, got.name) not in given:
            acting[i] = got
            helpers[i] = (f.path, got.name, None, None)
    py = [sf.rel for sf in files if sf.kind == "python"]
    names = None
    places: dict = {}  # index -> [(rel, line, column)]
    for i in options:
        f = findings[i]
        if "add_argument" not in (text_of(f.path) or ""):
            continue
        tree = _tree(trees, f.path, text_of)
        if tree is None:
            continue
        lines = (text_of(f.path) or "").splitlines()
        # the finding and the defaults folded into it (one finding per thing in a file)
        dests = [_option_at(tree, ln, c, lines) for ln, c in ((f.line, f.column), *(o[:2] for o in f.occurrences))]
        at = []
        for dest in dict.fromkeys(d for d in dests if d):
            names = names if names is not None else module_names(py)
            reads = _option_reads_elsewhere(tree, f.path, dest, names, trees, text_of, showing)
            if not reads and apis.get(f.rule):  # no helper of this file's namespace reads it: the API's calls do
                reads = _option_api_reads(dest, apis[f.rule], f.path, py, trees, text_of)
            at += reads
        if at:
            places[i] = list(dict.fromkeys(at))
    if not helpers and not places:
        return findings
    names = names if names is not None else module_names(py)
    wanted = {h[1] for h in helpers.values()}
    # what a file defining no helper must pass to be parsed: it names a helper, and can call an acting one (below)
    tests = sorted({("@may-call", h[1], h[0]) if i in acting else (h[1],) for i, h in helpers.items()})
    for rel in py if helpers else ():
        own = {h for h in helpers.values() if h[0] == rel}
        if classify(rel) == "test" and not own:
            continue
        text = (text_of(rel) if own else holding(text_of, rel, tests)) or ""
        if not any(n in text for n in wanted):
            continue
        # an acting helper is often a common method name (`forward`, `downsample`): another module can only call
        # it after importing it by name or binding its module, which the text shows before anything is parsed
        said = _said(text)
        live = [i for i, h in helpers.items() if h[1] in text and (i not in acting or h[0] == rel
                                                                   or _may_call(text, h[1], h[0], said))]
        if not live:
            continue
        # the files a helper is defined in stay parsed; a caller's tree is dropped after use (memory stays flat)
        tree = _tree(trees, rel, text_of) if own or rel in trees else _parse(text)
        if tree is None:
            continue
        imported = _imported_names(tree, rel, names, renamed=True)
        for i in live:
            where, name, pos, param = helpers[i]
            if where != rel and classify(rel) == "test":
                continue
            if where == rel:
                local_names = {name}
            else:  # imported by its own name, or (for a helper handing an object out) under another
                local_names = {local for local, original, mod in imported
                               if original == name and (local == name or i in renamable)
                               and _from_helper(mod, where, names)}
            if not any(n + "(" in text for n in local_names) and "." + name + "(" not in text:
                continue
            lines = text.splitlines()
            if i in acting:
                # also through a project module or package the file binds (`mpu.seed_all(s)`, `from pkg import mpu`)
                modules = set() if where == rel else _module_aliases(tree, imported, where, names)
                for node in calls_of(acting[i], tree, local_names, where == rel, modules):
                    places.setdefault(i, []).append((rel, node.lineno, _column(lines, node)))
                continue
            # followed through the helper's module or package too (`utils.cuda(batch)`, `utils.sparse_coo_tensor(...)`
            # after `from pkg import utils`): the call is the same call of the helper
            modules = set() if where == rel else _module_aliases(tree, imported, where, names)
            hosted = _dataset_spans(tree) if findings[i].rule in host_rules else ()
            for node in calls(tree):  # the file's calls in walk order, found once for every helper asked of it
                func = node.func
                if (isinstance(func, ast.Name) and func.id in local_names
                        or isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name)
                        and func.value.id in modules) and (param is None or _passes(node, pos, param)) \
                        and not any(a <= node.lineno <= b for a, b in hosted):
                    places.setdefault(i, []).append((rel, node.lineno, _column(lines, node)))
    # several acting findings of one helper: each call goes on the first whose arm it reaches
    taken: set = set()
    for i in sorted(acting, key=lambda k: (findings[k].path, findings[k].line, findings[k].column)):
        key = (findings[i].path, acting[i].name)
        kept = [p for p in places.get(i, ()) if (key, p) not in taken]
        taken.update((key, p) for p in kept)
        if kept:
            places[i] = kept
        else:
            places.pop(i, None)
    if not places:
        return findings
    out = list(findings)
    for i, at in places.items():
        f = out[i]
        if i in whole:  # the finding stands for the helper: its `def` is where the port replaces it
            ln, c = whole[i]
            f = replace(f, occurrences=tuple(sorted({*f.occurrences, (ln, c, f.rule)})))
        more = tuple(dict.fromkeys((*f.elsewhere, *((p, ln, c, f.rule) for p, ln, c in at))))
        shown = [f"{p}:{ln}" for p, ln, _c in at]
        named = ", ".join(shown[:MAX_NAMED]) + (f" and {len(shown) - MAX_NAMED} more" if len(shown) > MAX_NAMED
                                                 else "")
        what = f"{helpers[i][1]}() called at" if i in helpers else "read at"
        out[i] = replace(f, elsewhere=more, message=f"{f.message}; {what} {named}")
    return out


def listed_callers(findings: list) -> list:
    """A linked finding at a helper's call whose value chain (`(via train.py:962 make_scaler() → utils.py:59
    make_scaler(device='cuda') → utils.py:71 GradScaler)`) ends at a finding that already lists that call as a
    place of its own (`make_scaler() called at train.py:962`, from `caller_places`), whatever its rule: the
    helper's finding says what the call does (a GradScaler on the CUDA default, cuda-amp) and the linked one says
    it again through the default it reaches (a "cuda" string, cuda-device). One edit of the helper fixes both, so
    the linked finding goes; its own occurrences (other calls on its lines' file) join the helper's places."""
    from .report import _chain_end

    listed: dict = {}  # (path, line) of a place -> index of the active finding listing it
    for i, f in enumerate(findings):
        if f.elsewhere and not f.guarded and not f.suppressed and f.cell is None:
            for p, ln, _c, _r in f.elsewhere:
                listed.setdefault((p, ln), i)
    if not listed:
        return findings
    gone: dict = {}  # index of a linked finding -> index of the finding listing its call
    for j, f in enumerate(findings):
        if f.guarded or f.suppressed or f.cell is not None or " (via " not in f.message:
            continue
        end = _chain_end(f.message)
        at = listed.get((f.path, f.line))
        if end is None or at is None or at == j:
            continue
        target = findings[at]
        if (target.path, target.line) == end or any(o[0] == end[1] for o in target.occurrences) \
                and target.path == end[0]:
            gone[j] = at
    if not gone:
        return findings
    out = list(findings)
    for j, at in gone.items():
        f, t = findings[j], out[at]
        more = tuple((f.path, ln, c, r) for ln, c, r in f.occurrences)
        out[at] = replace(t, elsewhere=tuple(dict.fromkeys((*t.elsewhere, *more))))
    return [f for k, f in enumerate(out) if k not in gone]


def mask_places(findings: list, files, text_of, values: dict) -> list:
    """A subclass's mask handed to its base class's attention method in another module (project/inherited_masks.py)."""
    from .inherited_masks import inherited_mask_places

    cats = frozenset(values.get("mask-source-categories", ()))
    if not any(f.category in cats and not f.guarded for f in findings):
        return findings
    py = [sf.rel for sf in files if sf.kind == "python"]
    trees: dict = {}
    return inherited_mask_places(findings, py, text_of, values, module_names(py),
                                 lambda rel: _tree(trees, rel, text_of), _column)


def _dataset_spans(tree) -> list:
    """(first, last) lines of the classes named, or based on a class named, `...Dataset` (as `in-dataset-class`)."""
    def tail(x) -> str:
        x = x.value if isinstance(x, ast.Subscript) else x
        return x.attr if isinstance(x, ast.Attribute) else x.id if isinstance(x, ast.Name) else ""
    return [(n.lineno, n.end_lineno or n.lineno) for n in statements(tree) if isinstance(n, ast.ClassDef)
            and (n.name.endswith("Dataset") or any(tail(b).endswith("Dataset") for b in n.bases))]


def _tree(trees: dict, rel: str, text_of):
    if rel not in trees:
        try:
            trees[rel] = ast.parse(text_of(rel) or "")
        except (SyntaxError, ValueError, RecursionError):
            trees[rel] = None
    return trees[rel]


def _parse(text: str):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


# the import statements of a file (a parenthesised name list included), found once per file
_IMPORTS = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import\b(?:[ \t]*\([^)]*\)|[^\n]*)", re.M)


def _may_call(text: str, name: str, where: str, imports: dict) -> bool:
    """Whether a file's text can call the acting helper `name` of file `where`: it imports the name (`from m
    import name`, also inside parentheses) or calls `.name(` on something while importing the helper's module or a
    package holding it by name (`from pkg import dist`, `import pkg.dist as d`). `imports` memoises the file's
    import text."""
    if "text" not in imports:
        imports["text"] = "\n".join(_IMPORTS.findall(text))
    said = imports["text"]
    if re.search(r"\b" + re.escape(name) + r"\b", said):
        return True
    if "." + name + "(" not in text:
        return False
    parts = [p for p in (where[:-3] if where.endswith(".py") else where).split("/") if p and p != "__init__"]
    return any(re.search(r"\b" + re.escape(p) + r"\b", said) for p in parts)


_SAID: list = [None, {}]  # the text last asked about, and its import text


def _said(text: str) -> dict:
    """`_may_call`'s memo of one file's import text, shared by the step's test and its loop (one file at a time)."""
    if _SAID[0] is not text:
        _SAID[:] = [text, {}]
    return _SAID[1]


@text_test("may-call")
def _may_call_test(text: str, name: str, where: str) -> bool:
    """A file other than `where` can call its acting helper `name` (`caller_places`' test of every file)."""
    return name in text and _may_call(text, name, where, _said(text))


def _helper_of(tree: ast.Module, f, lines: list):
    """(helper name, parameter index, parameter name, None) when the finding moves a parameter of the module-level
    function holding it; (name, None, None, (line, column) of its `def`) when the finding is that function's whole
    body; else None."""
    fn = next((d for d in tree.body if isinstance(d, _FUNCS) and d.lineno <= f.line <= (d.end_lineno or d.lineno)),
              None)
    if fn is None:
        return None
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    keyword_only = {a.arg for a in fn.args.kwonlyargs}
    for node in walk(fn):
        if isinstance(node, ast.Call) and node.lineno == f.line and _column(lines, node) == f.column \
                and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            receiver = node.func.value.id
            if receiver in params:
                return fn.name, params.index(receiver), receiver, None
            if receiver in keyword_only:
                return fn.name, None, receiver, None
            # A function nested in the helper moving its own parameter (`def _to(t): return t.cuda()`, mapped over
            # the caller's sample) or the helper returning what it moved: the caller's data goes to the GPU at
            # each call, whichever argument carries it (branch rec26w)
            if (receiver in _nested_params(fn, node) or _returned(fn, node)) and code_lines(fn) <= ACTING_MAX_LINES:
                return fn.name, None, None, None
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    covered = {*range(f.line, (f.end_line or f.line) + 1), *(ln for ln, _c, _r in f.occurrences)}
    if body and all(s.lineno in covered for s in body):
        return fn.name, None, None, (fn.lineno, _column(lines, fn))
    return None


def _nested_params(fn, call) -> set:
    """The parameters of the innermost function nested in `fn` that holds the call (empty when none does)."""
    inner = None
    for d in walk(fn):
        if isinstance(d, (*_FUNCS, ast.Lambda)) and d is not fn and call in walk(d):
            if inner is None or d.lineno >= inner.lineno:
                inner = d
    if inner is None:
        return set()
    return {a.arg for a in (*inner.args.posonlyargs, *inner.args.args, *inner.args.kwonlyargs)}


def _returned(fn, call) -> bool:
    """Whether the call is the value a `return` of the function itself hands back."""
    stack: list = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return) and n.value is call:
            return True
        if not isinstance(n, (*_FUNCS, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return False


def _bracketing(tree: ast.Module, f) -> str | None:
    """The name of the module-level function holding the finding when its body calls one of its own parameters
    (`result = closure()`): the finding brackets the caller's code, so each call of the helper is a place."""
    fn = next((d for d in tree.body if isinstance(d, _FUNCS) and d.lineno <= f.line <= (d.end_lineno or d.lineno)),
              None)
    if fn is None:
        return None
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for node in walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in params:
            return fn.name
    return None


def _end_column(lines: list, node) -> int:
    """The 1-based character column just after a node (ast gives a UTF-8 byte offset)."""
    from ..readers.python import _column as char_column

    end = node.end_lineno or node.lineno
    line = lines[end - 1] if 0 < end <= len(lines) else ""
    return char_column(line, node.end_col_offset or 0)


def _handed_out_by(tree: ast.Module, f, lines: list) -> str | None:
    """The name of the module-level function that returns the finding's API (`return torch.cuda.amp.autocast(...)`,
    `return torch.cuda.amp.autocast`, `return lambda: torch.cuda.amp.autocast(...)`), or of the module-level class
    whose `__init__` keeps it in an attribute (`self._scaler = torch.cuda.amp.GradScaler(...)`); else None."""
    def at_finding(node) -> bool:  # the finding lies inside the node (`torch.cuda.amp` of the call, a "cuda" argument)
        end = node.end_lineno or node.lineno
        start = (node.lineno, _column(lines, node))
        stop = (end, _end_column(lines, node))
        return start <= (f.line, f.column) < stop

    def gives(value) -> bool:
        if isinstance(value, ast.Lambda):
            value = value.body
        return isinstance(value, (ast.Call, ast.Attribute, ast.Name)) and at_finding(value)

    for d in tree.body:
        if not d.lineno <= f.line <= (d.end_lineno or d.lineno):
            continue
        if isinstance(d, _FUNCS):
            # returns of the function itself, not of functions nested in it
            stack: list[ast.AST] = list(d.body)
            while stack:
                n = stack.pop()
                if isinstance(n, ast.Return) and n.value is not None and gives(n.value):
                    return d.name
                if not isinstance(n, (*_FUNCS, ast.ClassDef, ast.Lambda)):
                    stack.extend(ast.iter_child_nodes(n))
        elif isinstance(d, ast.ClassDef):
            init = next((m for m in d.body if isinstance(m, _FUNCS) and m.name == "__init__"), None)
            if init is None or not init.args.args:
                return None
            me = init.args.args[0].arg
            for n in walk(init):
                if isinstance(n, ast.Assign) and any(
                        isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
                        for t in n.targets) and gives(n.value):
                    return d.name
        return None
    return None


def _resolves_to(tree: ast.Module, f) -> bool:
    """The finding is a value the module-level function returns: written in a `return`, or assigned (`device =
    "cuda"`, `device = torch.device("cuda")`) to a name that a `return` of the function hands back, alone or wrapped
    in a call (`return torch.device(device)`). `def resolve_device(device=None): if device is None: device = "cuda"
    ...; return device` gives every caller leaving the device out a CUDA device."""
    fn = next((d for d in tree.body if isinstance(d, _FUNCS) and d.lineno <= f.line <= (d.end_lineno or d.lineno)),
              None)
    if fn is None:
        return False

    def holds(node) -> bool:
        return node.lineno <= f.line <= (node.end_lineno or node.lineno)

    returned: set = set()
    stored: set = set()
    stack: list = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (*_FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Return) and n.value is not None:
            value = n.value
            if holds(value) and not any(isinstance(c, ast.Compare) and holds(c) for c in walk(value)):
                return True
            while isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
                value = value.args[0]
            if isinstance(value, ast.Name):
                returned.add(value.id)
        elif isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and holds(n.value) \
                and not any(isinstance(c, ast.Compare) and holds(c) for c in walk(n.value)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            stored.update(t.id for t in targets if isinstance(t, ast.Name))
        stack.extend(ast.iter_child_nodes(n))
    return bool(stored & returned)


def _passes(call: ast.Call, pos, param: str) -> bool:
    """Whether the call hands the parameter an argument (positionally, before any `*args`, or by keyword)."""
    if any(k.arg == param for k in call.keywords):
        return True
    if pos is None:
        return False
    before = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            return False
        before.append(a)
    return pos < len(before)


def _module_aliases(tree: ast.Module, imported: list, where: str, names: dict) -> set:
    """Local names the file binds to the helper's module or to the package re-exporting it: `from pkg import mpu`,
    `import pkg.mpu as mpu`."""
    out = {local for local, original, mod in imported if _from_helper(f"{mod}.{original}", where, names)}
    for node in statements(tree):  # imports are statements: expressions are not entered
        if isinstance(node, ast.Import):
            out.update(a.asname for a in node.names if a.asname and _from_helper(a.name, where, names))
    return out


# ---------------------------------------------------------------- option defaults read in another module
def _option_at(tree: ast.Module, line: int, column: int, lines: list) -> str | None:
    """The option's attribute name when (line, column) is the `default=` value of a `*.add_argument(...)` call."""
    from ..match import _option_dest

    for node in walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument" \
                and node.lineno <= line <= (node.end_lineno or node.lineno):
            for k in node.keywords:
                if k.arg == "default" and k.value.lineno == line and _column(lines, k.value) == column:
                    return _option_dest(node)
    return None


def _parsed(tree: ast.Module) -> set:
    """Names bound to the namespace the file's parser makes: `args = parser.parse_args()`, or the value of a
    function of the file that returns it (`args = get_args()`)."""
    parse = ("parse_args", "parse_known_args")

    def parses(v) -> bool:
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in parse

    makers = set()
    for d in tree.body:
        if isinstance(d, _FUNCS):
            held = {t.id for n in walk(d) if isinstance(n, ast.Assign) and parses(n.value)
                    for t in n.targets if isinstance(t, ast.Name)}
            if any(isinstance(n, ast.Return) and n.value is not None and (
                    parses(n.value) or isinstance(n.value, ast.Name) and n.value.id in held) for n in walk(d)):
                makers.add(d.name)
    out = set()
    for n in walk(tree):
        if isinstance(n, ast.Assign) and (parses(n.value) or isinstance(n.value, ast.Call) and isinstance(
                n.value.func, ast.Name) and n.value.func.id in makers):
            for t in n.targets:
                first = t.elts[0] if isinstance(t, ast.Tuple) and t.elts else t
                if isinstance(first, ast.Name):
                    out.add(first.id)
    return out


def _option_reads_elsewhere(tree, rel: str, dest: str, names: dict, trees: dict, text_of, showing) -> list:
    """[(file, line, column)] of the reads `p.dest` handed to a call (not one that only shows it) in project
    functions of other modules that this file calls with its parsed namespace as parameter `p`."""
    parsed = _parsed(tree)
    if not parsed:
        return []
    by_name: dict = {}
    for local, mod in _imported_names(tree, rel, names):
        where = next((r for r, ns in names.items() if mod in ns and r != rel), None)
        if where is not None:
            by_name.setdefault(local, where)
    out = []
    for call in walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in by_name):
            continue
        where = by_name[call.func.id]
        passed = [k for k, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id in parsed]
        keys = [k.arg for k in call.keywords if isinstance(k.value, ast.Name) and k.value.id in parsed]
        if not passed and not keys:
            continue
        other = _tree(trees, where, text_of)
        fn = next((d for d in other.body if isinstance(d, _FUNCS) and d.name == call.func.id), None) \
            if other is not None else None
        if fn is None:
            continue
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        held = {params[k] for k in passed if k < len(params)} | (set(keys) & {*params, *(
            a.arg for a in fn.args.kwonlyargs)})
        lines = (text_of(where) or "").splitlines()
        for n in walk(fn):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if (f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "") in showing:
                continue
            for v in (*n.args, *(k.value for k in n.keywords)):
                if isinstance(v, ast.Attribute) and v.attr == dest and isinstance(v.value, ast.Name) \
                        and v.value.id in held:
                    out.append((where, n.lineno, _column(lines, n)))
    return list(dict.fromkeys(out))


def _option_api_reads(dest: str, apis: set, rel: str, py: list, trees: dict, text_of) -> list:
    """[(file, line, column)] of the arguments of calls of an API the option's rule flags (`option-api-calls`:
    `TRN271:init_process_group`) that hand it the option by its attribute name, `backend=args.dist_backend`, in the
    project's non-test modules other than the option's own. The parsed namespace often travels through a third
    module (`params.py` parses, `main.py` passes `args` on, `distributed.py` calls `init_process_group`), and no
    other attribute of that name reaches this API: the read is where the option's default takes effect."""
    out = []
    needle = "." + dest
    for other in py:
        if other == rel or classify(other) == "test":
            continue
        text = text_of(other) or ""
        if needle not in text or not any(a + "(" in text for a in apis):
            continue
        tree = _tree(trees, other, text_of) if other in trees else _parse(text)
        if tree is None:
            continue
        lines = text.splitlines()
        for n in walk(tree):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if (f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "") not in apis:
                continue
            for v in (*n.args, *(k.value for k in n.keywords)):
                if isinstance(v, ast.Attribute) and v.attr == dest:  # at the argument, the line handing it over
                    out.append((other, v.lineno, _column(lines, v)))
    return out
