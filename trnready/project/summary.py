"""One Python module -> a small JSON summary the project-wide link step works from.

Computed in the per-file pass from the syntax tree already in hand and cached with the file's
result, so a warm re-scan links from cached summaries without parsing anything. The summary holds
only what another module can see or what can carry a value across a module boundary:

    imports  local name -> [module, level, name or None]   (how the name is bound)
    consts   module-level NAME = literal                    -> [line, literal source]
    classes  class attribute attr = literal                 -> {class: {attr: [line, literal source]}}
    aliases  NAME = dotted.name / pkg.attr = dotted.name    -> {target: [line, dotted source]}
    funcs    function or `Class.method` -> [line, params, defaults, calls using a parameter or `self.x`
             [line, col, call source], default places {param: [line, col, end_line, end_col]}]
    stores   attributes a class's __init__ sets from a parameter or to a dotted name
             -> {class: {attr: ["param", name] | ["alias", dotted source]}}
    reads    library API calls given an attribute of an object (`init_process_group(dev.dist_backend)`)
             -> [line, col, end_line, end_col, call source, enclosing class or ""]
    stars    `from module import *` -> [module, level]
    uses     calls that name an import or a module function
             -> [line, col, end_line, end_col, call source, dotted names, passes a literal]
    flags    module-level names assigned only from never-on-Neuron checks (`_SUPPORTS_FLEX = torch.cuda...`); an
             entry [NAME, dep, ...] is a flag when every dep (a name the module imports or binds) is one
    guards   blocks run only when an imported project name is true -> [first line, last line, name, choice]
    exts     modules this file builds from CUDA sources (a build call a custom-cuda-kernel rule reported, with a
             literal name, or one computed from literals: build_names.py) -> [name, line, col, call source, rule,
             confidence, message], and for a build picked with a C++ fallback that compiles no CUDA file an eighth
             field, the C++ sources the link step reads (cpu_less_sources.py); name "" stands for
             the file itself when it defines kernels (a finding of a rule in `kernel-definition-rules`, neither
             guarded nor suppressed): one entry, for its first kernel, the source naming how many there are,
             and an eighth field: the module-level names that reach a kernel (None: importing runs one)
    imported every import statement outside the well-known libraries, at any depth
             -> [line, col, end_line, end_col, module, level, name or None]
    callers  the call sites of project functions with what they pass, signatures, instances kept on self
             (None in a module that neither defines functions nor calls a project name): see project/callers.py
    defs     the names of the calls the module's top level makes as statements (`warnings.filterwarnings(...)`
             -> "filterwarnings"), or None when its top level does anything else than import, define, assign and
             test availability (a loop, a `with`, another expression: a script); project/unimported.py
"""
from __future__ import annotations

import ast
import bisect
import sys

from .call_text import call_text
from .syntax import MAX_ITEMS, _Attribute, _Name, dotted, literal_source, unconditional_nodes  # noqa: F401 (imported from here too)
from ..astwalk import loaded_names, statements, walk
from ..context.neuron_guarded import RETURNED

# 39 (s38): a function's calls carry the parameter arms holding them; 40 (s39): instance flags (`self.x`) among
# the flags, blocks guarded by an inherited instance flag (or one read through a local instance) among the guards
VERSION = 50  # 35 merged in session 21; prec28b (s22): setUp-skipping test classes as skip markers; 37 (rec29b):
# a library subclass's super().__init__ recorded as the base's construction; 38 (s31): a module without functions
# records its calls of project names; 42 (s40): a local bound once to a literal is passed as that literal; 43: a
# module flag holding a CUDA test is passed as False; 44 (s41): a config setting's note carries its whole key path;
# 45 (s44): `cfghanded`, config keys read by name and handed on as a keyword of another name; 46 (s46): names a
# function imports with `from m import x` count as the file's imports (lazy imports of project functions); 47
# (s47): a call through a dict written in it (`{"a": A, "b": B}[k](...)`) is a call of each value; 48 (s50): guards
# keyed on a check of a module imported whole (`hy.hybrid_available()`) and tests under a module-level skip marker
# of the file (`needs_stack = pytest.mark.skipif(not hy.hybrid_available(), ...)`, then `@needs_stack`); 49 (s51):
# flags on what a function returns (`get_args().cuda`) and guards keyed on them (`args = get_args()`, `if args.cuda:`);
# 50 (s55): instances kept as in-place deepcopy lists and read for their weights (`.state_dict()`, `.eval()`)
MAX_TEMPLATE = 400  # a call longer than this is not carried (generated code, data tables)

# Imports from these never lead into the project: calls naming only them need no summary entry.
# (An optimisation only: the link step decides what is the project's from the files it has.)
_EXTERNAL = frozenset(sys.stdlib_module_names) | {
    "torch", "numpy", "np", "transformers", "torchvision", "scipy", "pandas", "jax", "tensorflow",
    "triton", "apex", "deepspeed", "accelerate", "einops", "timm", "__future__"}

_LITERALS = (ast.Constant,)


def _roots(call: ast.Call, callee=0):
    """Root names of the dotted expressions a call mentions (callee and arguments, not nested calls; an
    argument `a if cond else b` stands for its two arms). `callee`: dotted(call.func) when the caller already
    has it."""
    yield dotted(call.func) if callee == 0 else callee
    for a in call.args:
        a = a.value if isinstance(a, ast.Starred) else a
        if type(a) is _IfExp:
            yield from map(dotted, arms(a))
        else:
            yield dotted(a)
    for k in call.keywords:
        if type(k.value) is _IfExp:
            yield from map(dotted, arms(k.value))
        else:
            yield dotted(k.value)


_IfExp = ast.IfExp


def arms(node) -> list:
    """The values a conditional expression may take (`a if c else (b if d else e)` -> a, b, e); the test is not
    one of them."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if type(n) is _IfExp:
            stack += (n.orelse, n.body)
        else:
            out.append(n)
    return out


def value_needles(engine) -> tuple:
    """The literal values the selected rules' argument predicates look for (`mode in ["bilinear", ...]`)."""
    found = getattr(engine, "_link_needles", None)
    if found is None:
        vals = {v for r in engine.rules for m in r.matchers for a in m.args if a.op in ("equals", "in")
                for v in a.values if isinstance(v, str) and v}
        found = tuple(sorted(vals, key=len))
        engine._link_needles = found
    return found


def worth_parsing(text: str, name: str, engine) -> bool:
    """For a file nothing matched in: whether its summary could matter to another module. `= False`: it may
    set a linked flag (`try: from .te import HAVE_TE; HAVE_GTP = HAVE_TE` / `except ImportError: HAVE_GTP = False`),
    a flag only the link step can judge, for the modules importing it (project/flags.py). `import_module(`: it may
    define a helper importing the module its caller names (`_IMPORTERS`)."""
    return name == "__init__.py" or "= False" in text or "import_module(" in text \
        or any(v in text for v in value_needles(engine))


# A helper that imports the module its parameter names (`def try_import(name): ... importlib.import_module(name)`):
# a project call of it with a literal (`awq_ext, msg = try_import("awq_ext")`) is an import of that module, which the
# link step evaluates as `importlib.import_module("awq_ext")` (the per-file pass reads a literal one as an import).
# Only function bodies keep such calls: a module-level `import_module(name)` given a project value is no helper.
_IMPORTERS = frozenset({"import_module", "__import__"})


def api_names(engine) -> frozenset:
    """Last parts of the names the rules look for (`interpolate`, `init_process_group`), and the device
    positions of the `[device]` table (`.to(device)`): a wrapper handing its parameter to one is a device sink."""
    found = getattr(engine, "_link_api_names", None)
    if found is None:
        found = engine._link_api_names = frozenset(getattr(engine, "prefilter_tokens", ())) | frozenset(
            getattr(engine, "device_methods", ()))
    return found


def summarize(tree: ast.Module, apis: frozenset = frozenset(), calls: list | None = None,
              values: dict | None = None, built: dict | None = None, import_nodes: list | None = None,
              full_callers: bool = False) -> dict:
    """`calls`: every Call node of the tree when the caller already walked it (else walked here);
    `values`: the catalogue's [context.values] (for the never-on-Neuron flags); `built`: (line, column) ->
    [rule, confidence, message] of the file's custom-cuda-kernel findings; `import_nodes`: every Import and
    ImportFrom node when the caller already collected them."""
    if calls is None:
        calls = [n for n in walk(tree) if isinstance(n, ast.Call)]
    imports: dict = {}
    consts: dict = {}
    classes: dict = {}
    aliases: dict = {}
    funcs: dict = {}
    uses: list = []
    reads: list = []
    stores: dict = {}
    stars: list = []
    assigned_twice: set = set()
    body = tree.body
    for st in _top_statements(body):
        if isinstance(st, ast.Import):
            for a in st.names:
                if a.asname:
                    imports[a.asname] = [a.name, 0, None]
                else:
                    top = a.name.split(".", 1)[0]
                    imports.setdefault(top, [top, 0, None])
        elif isinstance(st, ast.ImportFrom):
            for a in st.names:
                if a.name != "*":
                    imports[a.asname or a.name] = [st.module or "", st.level, a.name]
                elif len(stars) < 64:  # `from .ops import *`: names looked up there when not found here
                    stars.append([st.module or "", st.level])
        elif isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            for t in targets:
                name = dotted(t)
                if name is None:
                    continue
                if name in consts or name in aliases:
                    assigned_twice.add(name)
                lit = literal_source(st.value) or _device_literal(st.value, imports)
                target = dotted(st.value)
                if lit is not None and isinstance(t, ast.Name):
                    consts[name] = [st.lineno, lit]
                elif target is not None and "." in target:
                    aliases[name] = [st.lineno, target]
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs[st.name] = st
        elif isinstance(st, ast.ClassDef):
            _methods(st, funcs, stores)
            attrs = {}
            for s in st.body:
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                    lit = literal_source(s.value)
                    if lit is not None:
                        attrs[s.targets[0].id] = [s.lineno, lit]
                elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is not None:
                    lit = literal_source(_field_default(s.value))
                    if lit is not None:
                        attrs[s.target.id] = [s.lineno, lit]
            if attrs:
                classes[st.name] = attrs
    # A name bound twice at module level has no single value: never guess which one reaches a call.
    for name in assigned_twice:
        consts.pop(name, None)
        aliases.pop(name, None)
    _local_imports(tree, import_nodes, imports, funcs, classes, consts, aliases)
    interesting = {n for n, (mod, level, _) in imports.items()
                   if level or mod.split(".", 1)[0] not in _EXTERNAL} | {f for f in funcs if "." not in f} \
        | set(classes) | set(stores)
    callees = interesting | set(aliases) | {a.split(".", 1)[0] for a in aliases}
    # Each call's dotted callee, computed once for the three passes below (None: not a dotted name).
    heads = [dotted(n.func) for n in calls]
    lazy = {n for n, (_m, _l, orig) in imports.items() if orig == "LazyCall"}
    if lazy:
        heads = [_lazy_callee(n, lazy) if h is None else h for n, h in zip(calls, heads)]
    from .call_sites import record
    # The file's own classes construct instances too (`self.layers = nn.ModuleList([Block(d) ...])` beside `class
    # Block`): their names are project names for the callers record, as imported ones are.
    own_classes = {f.split(".", 1)[0] for f in funcs if "." in f}
    # A script without functions still calls the project's (`prune(model, device)` at module level): its record
    # holds those calls, so that the callee's callers are all known.
    from ..context.neuron_guarded import module_flags
    flags = module_flags(tree, values or {})[:MAX_ITEMS]
    # a flag handed to a project function is False there (`train(loader, model, use_cuda)`): the names alone
    # `{"alg": AlgNet, "vol": VolNet}[name](config, device=device)`: a dispatch through a dict written in the call
    # is a call of each class or function it holds, with these arguments (learnable-triangulation's train.py)
    rcalls, rheads = calls, heads
    picked = [(n, h) for n in calls if type(n.func) is ast.Subscript and type(n.func.value) is ast.Dict
              for h in (dotted(v) for v in n.func.value.values) if h is not None]
    if picked:
        rcalls, rheads = calls + [n for n, _h in picked], heads + [h for _n, h in picked]
    callers = record(list(_top_statements(body)), funcs, rcalls, rheads,
                     interesting | own_classes | _star_names(stars, rheads), full_callers,
                     frozenset(f for f in flags if isinstance(f, str))) \
        if funcs or any(h is not None and h.split(".", 1)[0] in interesting for h in rheads) else None
    if callers is not None and not callers["sigs"] and not callers["calls"]:
        callers = None
    # a body's `importlib.import_module(name)` leads somewhere (an import helper), a module-level one does not
    body_calls, body_heads = _base_inits(body, imports, apis, calls, heads) if funcs and apis else (calls, heads)
    spans = _function_calls(funcs, body_calls, stores, callees, apis | _IMPORTERS if apis else apis, uses,
                            body_heads) if funcs else []
    interesting = {n for n in interesting if n in imports or n in funcs or n in classes or n in stores}
    # `from modelutils import *` then `model.to(DEV)`: a name passed to a call that nothing in the file binds may be
    # the star's (gptq's `DEV = torch.device('cuda:0')`); the link step resolves it through the star or not at all
    interesting |= _star_values(tree, stars, calls, imports, funcs, classes, consts, aliases)
    if apis:
        _attribute_reads(calls, imports, apis, spans, reads, heads)
    if interesting:
        for node, callee in zip(calls, heads):
            if len(uses) < MAX_ITEMS:
                # Every branch below needs a dotted callee that is a project name, `partial` or a
                # library API: anything else is decided before its arguments are looked at.
                if callee is None:
                    # `layers[0].to(CUDA_0)`: a library method on a receiver no dotted name spells, given a project
                    # value; the receiver plays no part in what the value causes
                    if type(node.func) is not _Attribute or node.func.attr not in apis:
                        continue
                    names = [r for r in _roots(node, None) if r]
                    args = names
                    if any(a.split(".", 1)[0] in interesting for a in args):
                        src = call_text(node)
                        if len(src) <= MAX_TEMPLATE:
                            uses.append([node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, src,
                                         sorted(set(names)), False])
                    continue
                last = callee.rsplit(".", 1)[-1]
                if callee.split(".", 1)[0] not in interesting and last != "partial" and last not in apis \
                        and not (node.keywords and _device_keyword(node, interesting)):
                    continue
                names = [r for r in _roots(node, callee) if r]
                args = names[1:]
                lit = any(literal_source(a) is not None for a in (*node.args, *(k.value for k in node.keywords)))
                # Kept: a library API (by its last name) given or reached through a project name, or
                # a project callee given a literal or a project value. Anything else cannot gain.
                project_arg = any(a.split(".", 1)[0] in interesting for a in args)
                if callee and callee.split(".", 1)[0] in interesting:
                    keep = lit or project_arg or callee.rsplit(".", 1)[-1] in apis
                elif callee and callee.rsplit(".", 1)[-1] == "partial" and args and lit:
                    # functools.partial(resize, mode="bilinear"): a later call of the result calls resize
                    keep = args[0].split(".", 1)[0] in interesting
                else:
                    keep = project_arg and callee is not None and (callee.rsplit(".", 1)[-1] in apis
                                                                   or _device_keyword(node, interesting))
                if keep:
                    src = call_text(node)
                    if len(src) <= MAX_TEMPLATE:
                        # the dotted names and whether a literal is passed let the link step skip
                        # most calls without parsing them again
                        uses.append([node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, src,
                                     sorted(set(names)), lit])
    from ..context._needs_cuda import cuda_functions
    flags += cuda_functions(tree, project_modules(imports), (values or {}).get("cuda-device-queries", ()))[:MAX_ITEMS]
    project_names = {n for n, (mod, level, name) in imports.items()
                     if name is not None and (level or mod.split(".", 1)[0] not in _EXTERNAL)}
    # a project module imported whole (`import pkg.engines.hybrid as hy`): its checks are read as `hy.check()`
    project_modules_whole = {n for n, (mod, level, name) in imports.items()
                             if name is None and (level or mod.split(".", 1)[0] not in _EXTERNAL)}
    guards = guards_of(tree, project_names, project_modules_whole) if project_names or project_modules_whole else []
    if project_names:
        from .inherited_flags import inherited_guards, instance_guards
        guards += inherited_guards(tree, project_names, MAX_GUARDS - len(guards))
        guards += instance_guards(tree, project_names, MAX_GUARDS - len(guards))
    return {"v": VERSION, "imports": imports, "consts": consts, "classes": classes, "aliases": aliases,
            "funcs": funcs, "uses": uses, "stars": stars, "stores": stores, "reads": reads, "flags": flags,
            "guards": guards,
            "exts": (_built(calls, built, tree) + _kernels(tree, built, values or {})) if built else [],
            "imported": _imported(tree, import_nodes), "callers": callers, "defs": top_calls(body)}


_DEFINING = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign,
             ast.AugAssign, ast.Pass)


def top_calls(body: list, limit: int = 64):
    """The names of the calls a module's top level makes as statements, or None when it does anything else than
    import, define, assign, or call (a docstring, `if TYPE_CHECKING:` / `if is_x_available(): import x` and
    optional-import `try` blocks are looked into): a loop, a `with`, any other expression makes it a script. A
    `raise` in an arm of those (`else: raise SystemExit("needs Python 3.8")`, `except ImportError: raise ...`) is a
    guard of the import, not a program."""
    names: list = []
    stack = list(body)
    inner = set()  # ids of the statements inside an `if` or `try` arm
    while stack:
        st = stack.pop()
        k = type(st)
        if k in _DEFINING or (k is ast.Raise and id(st) in inner):
            continue
        if k is ast.Expr:
            v = st.value
            if type(v) is ast.Constant:
                continue
            if type(v) is not ast.Call:
                return None
            f = v.func
            name = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
            if name not in names:
                if len(names) >= limit:
                    return None
                names.append(name)
        elif k is ast.If:
            arms = st.body + st.orelse
            inner.update(id(x) for x in arms)
            stack += arms
        elif k is ast.Try or k.__name__ == "TryStar":
            arms = st.body + st.orelse + st.finalbody + [s for h in st.handlers for s in h.body]
            inner.update(id(x) for x in arms)
            stack += arms
        else:
            return None
    return sorted(names)


def _kernels(tree: ast.Module, built: dict, values: dict) -> list:
    """[["", line, col, source, rule, confidence, message]] when the file defines kernels of its own (an
    unguarded finding of a rule in `kernel-definition-rules`: a Triton kernel, a CUDA-only custom op, a
    CuPy/NVRTC kernel): another module importing from it runs them. The first kernel stands for the file."""
    rules = set(values.get("kernel-definition-rules", ()))
    found = sorted((line, col, v) for (line, col), v in built.items() if v[0] in rules and not v[3])
    if not found:
        return _built_at_import(tree, built)
    lines = {ln for ln, _c, _v in found}
    defs = [node for node in statements(tree)  # definitions are statements: expressions are not entered
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and any(d.lineno in lines for d in node.decorator_list)]
    # a decorator stack (`@triton.autotune` over `@triton.jit`) is one kernel
    decorated = {d.lineno for node in defs for d in node.decorator_list}
    count = len(defs) + len(lines - decorated)
    line, col, (rule, confidence, message, _g) = found[0]
    src = ""
    for node in defs:
        deco = next((d for d in node.decorator_list if d.lineno == line), None)
        if deco is not None:
            src = f"@{dotted(deco.func if isinstance(deco, ast.Call) else deco) or '...'} {node.name}"
            break
    if not src:  # a kernel registered by a plain call (`torch.library.custom_op("ns::op", impl, ...)`)
        call = next((n for n in walk(tree) if type(n) is ast.Call and n.lineno == line
                     and n.col_offset == col - 1), None)
        src = f"{dotted(call.func) or '...'}(...)" if call is not None else ""
    if count > 1:
        src = f"{src} and {count - 1} more" if src else f"{count} kernels"
    return [["", line, col - 1, src, rule, confidence, message, _reaching(tree, [ln for ln, _c, _v in found])]]


def _reaching(tree: ast.Module, lines: list) -> list | None:
    """The module-level names through which another module runs this file's kernels: the names bound by a
    top-level statement holding a kernel (the kernel, a class with a kernel method, `op = custom_op(...)(f)`)
    and, in turn, every top-level function, class or assignment whose body mentions one of them (the launch
    wrapper `def act_quant(x)` calling `act_quant_kernel[grid](...)`). None when a kernel sits in a top-level
    statement that binds no name (it runs at import: any import of the module runs it)."""
    bound: list = []  # (statement, names it binds)
    stack = list(tree.body)
    while stack:
        st = stack.pop()
        if type(st) in (ast.If, ast.Try):  # version and optional-import arms bind module names too
            stack += st.body + st.orelse + getattr(st, "finalbody", []) + [s for h in getattr(st, "handlers", [])
                                                                            for s in h.body]
            continue
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [st.name]
        elif type(st) in (ast.Assign, ast.AnnAssign, ast.AugAssign):
            targets = st.targets if type(st) is ast.Assign else [st.target]
            names = [n.id for t in targets for n in walk(t) if type(n) is ast.Name]
        else:
            names = []
        bound.append((st, names))
    reach: set = set()
    for st, names in bound:
        first = min([st.lineno] + [d.lineno for d in getattr(st, "decorator_list", ())])
        if any(first <= ln <= (st.end_lineno or st.lineno) for ln in lines):
            if not names and not isinstance(st, (ast.Import, ast.ImportFrom)):
                return None
            reach.update(names)
    mentions = [(names, {n.id for n in walk(st) if type(n) is ast.Name}) for st, names in bound
                if names and not reach.issuperset(names)]
    grew = True
    while grew:
        grew = False
        for names, used in mentions:
            if not reach.issuperset(names) and used & reach:
                reach.update(names)
                grew = True
    return sorted(reach)


def _picked_builds(tree: ast.Module, built: dict) -> dict:
    """Names bound to a flagged build class (`extension = CUDAExtension`, the finding on the value): name ->
    (its line, its column, the finding)."""
    out: dict = {}
    # a pick the machine decides with a C++ build kept otherwise (`extension = CppExtension`, then `if cuda:
    # extension = CUDAExtension` and nothing else) builds on the CPU too: that module imports without CUDA
    every_run = {id(n) for n in unconditional_nodes(tree)}
    # assignments and `if`s are statements: astwalk.statements gives them in walk order without entering expressions
    cpp = {t.id for n in statements(tree) if type(n) is ast.Assign and (dotted(n.value) or "").endswith("CppExtension")
           for t in n.targets if type(t) is ast.Name}
    ends = {id(s) for n in statements(tree) if type(n) is ast.If and n.orelse
            and type(n.orelse[-1]) in (ast.Return, ast.Raise) for s in n.body}
    fallback: dict = {}
    for node in statements(tree):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            found = built.get((node.value.lineno, node.value.col_offset + 1))
            if found is None:
                continue
            if node.targets[0].id in cpp and id(node) not in every_run and id(node) not in ends:
                # only the builds whose own sources hold a .cu file need CUDA (build_names.cuda_sourced_names)
                fallback.setdefault(node.targets[0].id, (node.value.lineno, node.value.col_offset, found, True))
                continue
            out.setdefault(node.targets[0].id, (node.value.lineno, node.value.col_offset, found, False))
    return {**fallback, **out}


def _built_at_import(tree: ast.Module, built: dict) -> list:
    """[["", line, col, source, rule, confidence, message]] when a statement at the module's top level builds a
    CUDA extension (an unguarded `fused = load("fused", sources=[... .cu])`): importing the module compiles and
    loads the kernels, so a module importing it runs them."""
    tops = [(st.lineno, st.end_lineno or st.lineno) for st in tree.body
            if type(st) in (ast.Assign, ast.AnnAssign, ast.Expr)]
    for (line, col), v in sorted(built.items()):
        if not v[3] and any(a <= line <= b for a, b in tops):
            return [["", line, col - 1, "", v[0], v[1], v[2]]]
    return []


def _built(calls: list, built: dict, tree: ast.Module | None = None) -> list:
    """Build calls among the file's kernel findings that name the module they produce: the `name` keyword
    or a first positional string (CUDAExtension, cpp_extension.load and load_inline all take it first). A call
    of a name the build class was put in (`extension("pkg._C", sources)`) is reported where the class was picked."""
    out: list = []
    picked = _picked_builds(tree, built) if tree is not None and any(
        type(n.func) is ast.Name for n in calls) else {}
    for node in calls:
        found = built.get((node.lineno, node.col_offset + 1))
        place = (node.lineno, node.col_offset)
        fallback = False
        if found is None and type(node.func) is ast.Name and node.func.id in picked:
            pline, pcol, found, fallback = picked[node.func.id]
            place = (pline, pcol)
        if found is None or len(out) >= MAX_ITEMS:
            continue
        named = [k.value for k in node.keywords if k.arg == "name"] or node.args[:1]
        if fallback:
            # a class picked with a C++ build otherwise: only the builds that compile CUDA files in either arm
            from .build_names import cuda_sourced_names

            if named and tree is not None:
                src = ast.unparse(node.func)
                names = cuda_sourced_names(tree, node, named[0])
                out += [[name, *place, src, *found[:3]] for name in names]
                # the other builds are CPU builds unless their C++ sources serve CUDA tensors only: the eighth
                # field lists those sources for the link step to read (project/cpu_less_sources.py)
                from .build_names import fallback_builds

                out += [[name, *place, src, *found[:3], paths]
                        for name, paths in fallback_builds(tree, node, named[0]) if name not in names]
            continue
        if named and isinstance(named[0], ast.Constant) and isinstance(named[0].value, str) \
                and all(p.isidentifier() for p in named[0].value.split(".")):
            src = ast.unparse(node.func)
            out.append([named[0].value, *place, src, *found[:3]])
        elif named and tree is not None:
            # a computed name: built through a helper of the file (`make_cuda_ext(name=..., module=...)`) or
            # picked from a table (`names.get(MODE)`): every literal value it can take (build_names.py)
            from .build_names import possible_names

            src = ast.unparse(node.func)
            out += [[name, *place, src, *found[:3]] for name in possible_names(tree, node, named[0])]
    return out[:MAX_ITEMS]


def _imported(tree: ast.Module, nodes: list | None) -> list:
    """Import statements at any depth (a kernel module is often imported inside the function using it),
    except those of the well-known libraries, which are never the project's own build products."""
    if nodes is None:
        nodes = []
        stack = list(tree.body)
        while stack:
            st = stack.pop()
            if isinstance(st, (ast.Import, ast.ImportFrom)):
                nodes.append(st)
            for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(st, name, None)
                if inner:
                    stack.extend(inner)
    out: list = []
    for st in nodes:
        if len(out) >= MAX_ITEMS:
            break
        place = [st.lineno, st.col_offset, st.end_lineno or st.lineno, st.end_col_offset or 0]
        if isinstance(st, ast.Import):
            out += [[*place, a.name, 0, None] for a in st.names if a.name.split(".", 1)[0] not in _EXTERNAL]
        elif st.level or (st.module or "").split(".", 1)[0] not in _EXTERNAL:
            out += [[*place, st.module or "", st.level, a.name] for a in st.names if a.name != "*"]
    return out[:MAX_ITEMS]


MAX_GUARDS = 200  # blocks per module: the summary stays small however large the module


def guards_of(tree: ast.Module, imported: set, modules: set = frozenset()) -> list:
    """[[first line, last line, name, choice]] for every block that runs only when an imported name is
    true: the body of `if NAME:` / `if NAME and ...:`, the `else` of `if not NAME:`, the statements after
    `if not NAME: pytest.skip(...)` in the same block (not after a `raise ValueError` or `return`), a test
    skipped unless NAME (`@pytest.mark.skipif(not NAME, ...)`, `@unittest.skipUnless(NAME, ...)`, or a marker the
    module binds so once and applies by name: `needs_stack = pytest.mark.skipif(...)`, `@needs_stack`), and a whole
    test module marked so (`pytestmark = pytest.mark.skipif(not NAME, ...)`). `modules`: project modules imported
    whole, whose checks read `mod.check()` (the NAME is then `mod.check`). `choice` says the statement has
    another branch (a device picked in either arm stays a finding)."""
    out: list = []
    returned = _returned_names(tree, imported)
    if modules or returned:
        imported = _Imported(imported, modules)
        imported.returned = returned
    # Statements only: an `if` never sits inside an expression, and walking every expression node of a
    # large module cost more than the rest of its summary.
    from ..context.base import blocks_of
    from ..context.neuron_guarded import _TPU, _cuda_test, _exits, _fails

    body = tree.body
    local_marks: dict = {}  # `needs_stack = pytest.mark.skipif(not hy.hybrid_available(), ...)`: name -> names
    for st in body:
        if type(st) is ast.Assign and any(type(t) is ast.Name and t.id == "pytestmark" for t in st.targets):
            marks = st.value.elts if type(st.value) in (ast.List, ast.Tuple) else [st.value]
            for name in dict.fromkeys(n for m in marks for n in _skipped_unless(m, imported)):
                out.append([body[0].lineno, _end(body), name, False])
        elif type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name:
            names = _skipped_unless(st.value, imported)
            if names:
                local_marks[st.targets[0].id] = None if st.targets[0].id in local_marks else names
    stack = [body]
    while stack and len(out) < MAX_GUARDS:
        block = stack.pop()
        for i, node in enumerate(block):
            kind = type(node)
            for name in blocks_of(kind):
                inner = getattr(node, name, None)
                if inner:
                    stack.append(inner)
            if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                for name in dict.fromkeys(n for d in node.decorator_list
                                          for n in ((local_marks.get(d.id) or ()) if type(d) is ast.Name
                                                    else _skipped_unless(d, imported))):
                    out.append([node.decorator_list[0].lineno, _end([node]), name, False])
                continue
            if kind is not ast.If:
                continue
            test = node.test
            # every block below is keyed on an imported name in the test: most tests name none (cheap test first)
            if not _names_one(test, imported):
                continue
            if (_fails(node.orelse) or _fails(node.body)) and _cuda_test(test, _TPU):
                continue  # `if is_cuda_available(): ... else: raise RuntimeError(...)`: the only path (neuron-guarded)
            parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
            for p in parts:
                if isinstance(p, ast.Call) and isinstance(p.func, (ast.Name, ast.Attribute)):
                    p = p.func  # `if is_cuda_available():`, a check function of another module
                name = _imported_name(p, imported)
                if name is not None and node.body:
                    out.append([node.body[0].lineno, _end(node.body), name, bool(node.orelse)])
                    break
            operand = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else None
            if isinstance(operand, ast.Call) and type(operand.func) in (ast.Name, ast.Attribute):
                operand = operand.func  # `if not hy.hybrid_available(): pytest.skip(...)`
            name = _imported_name(operand, imported) if type(operand) in (ast.Name, ast.Attribute) else None
            if name is not None:
                if node.orelse:
                    out.append([node.orelse[0].lineno, _end(node.orelse), name, True])
                elif i + 1 < len(block) and _exits(node.body) == "skip":
                    # `if not HAVE_TE: pytest.skip(...)`: what follows runs only when the flag is true
                    out.append([block[i + 1].lineno, _end(block), name, False])
    return out


def project_modules(imports: dict) -> set:
    """The names of a module's imports that are the project's own (`from .utils import f`, `import pkg.sub as m`)."""
    return {n for n, (mod, level, _) in imports.items() if level or mod.split(".", 1)[0] not in _EXTERNAL}


def _names_one(test, imported: set) -> bool:
    """The test (`NAME`, `NAME()`, `not NAME`, `NAME and ...`) names one of the imported names at its top."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for p in parts:
        if type(p) is ast.UnaryOp and type(p.op) is ast.Not:
            p = p.operand
        if type(p) is ast.Call:
            p = p.func
        if _imported_name(p, imported) is not None:
            return True
    return False


def _skipped_unless(mark, imported: set) -> list:
    """The imported NAMEs `mark` skips a test unless true: `pytest.mark.skipif(not NAME, ...)` (also
    `not NAME or ...`, `not NAME()`, `not (NAME and other)`: any of the `and` is enough), `unittest.skipIf(not
    NAME, ...)`, `unittest.skipUnless(NAME, ...)`."""
    if type(mark) is not ast.Call or not mark.args:
        return []
    tail = (dotted(mark.func) or "").rsplit(".", 1)[-1]
    cond = mark.args[0]
    if tail in ("skipif", "skipIf"):
        parts = cond.values if type(cond) is ast.BoolOp and type(cond.op) is ast.Or else [cond]
        return [n for p in parts if type(p) is ast.UnaryOp and type(p.op) is ast.Not
                for n in _needed(p.operand, imported)]
    if tail == "skipUnless":
        return _needed(cond, imported)
    return []


def _needed(cond, imported: set) -> list:
    """Imported names any of which, when false, makes `cond` false: `NAME`, `NAME(...)`, the parts of an `and`."""
    parts = cond.values if type(cond) is ast.BoolOp and type(cond.op) is ast.And else [cond]
    out = []
    for p in parts:
        if type(p) is ast.Call:
            p = p.func  # `is_fa_min_version("2.7.3")`, a check function of another module
        name = _imported_name(p, imported)
        if name is not None and name not in out:
            out.append(name)
    return out


class _Imported(frozenset):
    """The names imported from project modules, and (`modules`) the project modules imported whole."""

    def __new__(cls, names, modules):
        self = super().__new__(cls, names)
        self.modules = frozenset(modules)
        return self


def _imported_name(p, imported):
    """`NAME` (imported) or `mod.check` (a project module imported whole) for the node, or `get_args().cuda` for
    an attribute of a name bound only to what an imported function returns (`args = get_args()`), else None."""
    if type(p) is ast.Name:
        return p.id if p.id in imported else None
    if type(p) is ast.Attribute and type(p.value) is ast.Name:
        if p.value.id in getattr(imported, "modules", ()):
            return f"{p.value.id}.{p.attr}"
        fn = getattr(imported, "returned", {}).get(id(p))
        if fn is not None:
            return f"{fn}{RETURNED}{p.attr}"
    return None


def _returned_names(tree: ast.Module, imported) -> dict:
    """id of each `NAME.attr` read in an `if` test -> the imported function NAME holds what it returned: NAME bound
    exactly once in its scope, to a call of a function imported from a project module (`args = get_args()`), and not a
    parameter there. A module-level binding reaches the functions that bind no NAME of their own. `args.cuda` then
    reads what that function set on the object it returns (project/flags.py). Only the scopes of such tests are
    walked: most files bind names to project calls (`logger = get_logger(__name__)`) and test none of them."""
    calls = []
    ifs = []
    funcs = []
    for st in statements(tree):
        k = type(st)
        if k is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name \
                and type(st.value) is ast.Call and type(st.value.func) is ast.Name and st.value.func.id in imported:
            calls.append(st)
        elif k is ast.If:
            ifs.append(st)
        elif k in (ast.FunctionDef, ast.AsyncFunctionDef):
            funcs.append(st)
    if not calls or not ifs:
        return {}
    wanted = {st.targets[0].id for st in calls}
    call_ids = {id(st) for st in calls}
    reads = [n for st in ifs for n in ast.walk(st.test)
             if type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id in wanted]
    if not reads:
        return {}

    def enclosing(node) -> list:
        """The functions around the node, innermost first."""
        around = [f for f in funcs if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
        return sorted(around, key=lambda f: -f.lineno)

    memo: dict = {}

    def scope_facts(node):
        """(names bound once here by such a call -> function, names bound here at all), nested scopes left out."""
        if id(node) in memo:
            return memo[id(node)]
        counts: dict = {}
        made: dict = {}
        if node is not tree:
            for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg,
                      node.args.kwarg):
                if a is not None and a.arg in wanted:
                    counts[a.arg] = counts.get(a.arg, 0) + 2
        todo = list(node.body)
        while todo:
            n = todo.pop()
            k = type(n)
            if k in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
                if k is not ast.Lambda and n.name in wanted:
                    counts[n.name] = counts.get(n.name, 0) + 2
                continue
            if k is ast.Name and n.id in wanted and type(n.ctx) is not ast.Load:
                counts[n.id] = counts.get(n.id, 0) + 1
            elif k in (ast.Global, ast.Nonlocal):
                for nm in n.names:
                    if nm in wanted:
                        counts[nm] = counts.get(nm, 0) + 2
            elif k in (ast.Import, ast.ImportFrom):
                for a in n.names:
                    nm = a.asname or a.name.split(".", 1)[0]
                    if nm in wanted:
                        counts[nm] = counts.get(nm, 0) + 2
            elif k is ast.Assign and id(n) in call_ids:
                made[n.targets[0].id] = n.value.func.id
            todo.extend(ast.iter_child_nodes(n))
        got = ({nm: fn for nm, fn in made.items() if counts.get(nm) == 1}, set(counts))
        memo[id(node)] = got
        return got

    out: dict = {}
    top = None
    for r in reads:
        nm = r.value.id
        decided = False
        for f in enclosing(r):
            once, bound = scope_facts(f)
            if nm in once:
                out[id(r)] = once[nm]
            if nm in bound:
                decided = True
                break
        if decided:
            continue
        if top is None:
            top = scope_facts(tree)[0]
        if nm in top:
            out[id(r)] = top[nm]
    return out


def _end(stmts) -> int:
    return max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in stmts)


def _methods(cls: ast.ClassDef, funcs: dict, stores: dict) -> None:
    """Methods go into funcs as `Class.method`; what __init__ keeps on self goes into stores. A static
    method is left out: every method in funcs takes the instance (or class) first."""
    for s in cls.body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.args.args \
                and not any(dotted(d) == "staticmethod" for d in s.decorator_list):
            funcs[f"{cls.name}.{s.name}"] = s
            if s.name == "__init__":
                me = s.args.args[0].arg
                params = {p.arg for p in (*s.args.posonlyargs, *s.args.args, *s.args.kwonlyargs)} - {me}
                kept = {}
                for st in s.body:
                    if isinstance(st, ast.Assign) and len(st.targets) == 1:
                        t = st.targets[0]
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                            if t.attr in kept:  # set twice: no single value
                                kept[t.attr] = None
                            elif isinstance(st.value, ast.Name) and st.value.id in params:
                                kept[t.attr] = ["param", st.value.id]
                            elif (d := dotted(st.value)) and "." in d and not d.startswith(me + "."):
                                kept[t.attr] = ["alias", d]
                            else:
                                kept[t.attr] = None
                kept = {k: v for k, v in kept.items() if v is not None}
                if kept:
                    stores[cls.name] = kept


def _lazy_callee(node: ast.Call, lazy: set) -> str | None:
    """`L(DETR)(backbone=..., device="cuda")` with detectron2's `LazyCall as L`: the config records a call of DETR
    that `instantiate` makes later with these arguments, so it is a call of DETR for the callers record (detrex's
    model defaults `device="cuda"` that every LazyConfig passes)."""
    f = node.func
    if type(f) is ast.Call and len(f.args) == 1 and not f.keywords and dotted(f.func) in lazy:
        return dotted(f.args[0])
    return None


def _attribute_reads(calls, imports, apis, spans, reads, heads=None) -> None:
    """Library API calls given `obj.attr` (obj a local name, not a module): the attribute may be a
    class attribute or dataclass field of the project, read through an instance."""
    starts = [a for a, _, _ in spans]
    for node, callee in zip(calls, heads if heads is not None else [dotted(n.func) for n in calls]):
        if len(reads) >= MAX_ITEMS:
            return
        if not callee or callee.rsplit(".", 1)[-1] not in apis:
            continue
        vals = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + [k.value for k in node.keywords]
        if not any(isinstance(v, ast.Attribute) and (r := _local_root(v)) is not None and r not in imports
                   for v in vals):
            continue
        src = call_text(node)
        if len(src) > MAX_TEMPLATE:
            continue
        i = bisect.bisect_right(starts, node.lineno) - 1
        owner = spans[i][2] if i >= 0 and spans[i][0] <= node.lineno <= spans[i][1] else ""
        reads.append([node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, src,
                      owner.split(".", 1)[0] if "." in owner else ""])


def _local_root(v: ast.Attribute) -> str | None:
    """The name an attribute chain starts from (`cfg.distributed_training.distributed_backend` -> cfg), at most three
    attributes deep: a config object's section and field, read through an instance."""
    node = v.value
    for _ in range(2):
        if type(node) is not ast.Attribute:
            break
        node = node.value
    return node.id if type(node) is ast.Name else None


def _field_default(value):
    """A dataclass field's value: `x: str = field(default="nccl", ...)` -> the default; anything else as it is."""
    if type(value) is ast.Call and dotted(value.func) in ("field", "dataclasses.field", "Field", "pydantic.Field"):
        return next((k.value for k in value.keywords if k.arg == "default"), value)
    return value


def _local_imports(tree, import_nodes, imports: dict, *bound) -> None:
    """`from scenario_generation.simulate import run_simulation` inside a function (a lazy import, Diffusion-Planner's
    batch_generate): the name is that import in the file's record too, so the calls of it resolve to the project
    function (its callers, the values they hand over). Only a name nothing else in the file binds (an assignment, a
    parameter, a definition), imported from one place wherever a function imports it; `import x` inside a function
    is left alone."""
    top = {id(st) for st in _top_statements(tree.body)}
    nodes = import_nodes if import_nodes is not None else [n for n in walk(tree) if isinstance(n, ast.ImportFrom)]
    found: dict = {}
    for n in nodes:
        if not isinstance(n, ast.ImportFrom) or id(n) in top:
            continue
        for a in n.names:
            name = a.asname or a.name
            if a.name == "*" or name in imports or any(name in b for b in bound):
                continue
            got = [n.module or "", n.level, a.name]
            if found.setdefault(name, got) != got:
                found[name] = None  # imported from two places: no single meaning
    found = {n: g for n, g in found.items() if g is not None}
    if found:
        # a name some code binds otherwise (`build = make_builder(); build(x)` in another function, a parameter of
        # that name) would make its calls there look like calls of the import: such a name is left out
        for n in walk(tree):
            t = type(n)
            if t is ast.Name and type(n.ctx) is not ast.Load or t is ast.arg:
                found.pop(n.id if t is ast.Name else n.arg, None)
            elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                found.pop(n.name, None)
    for name, got in found.items():
        if len(imports) < MAX_ITEMS * 4:
            imports[name] = got


def _top_statements(body):
    """Module-level statements, including those under if/try (TYPE_CHECKING, optional imports)."""
    for st in body:
        if isinstance(st, ast.If):
            yield from _top_statements(st.body)
            yield from _top_statements(st.orelse)
        elif isinstance(st, ast.Try):
            yield from _top_statements(st.body)
        else:
            yield st


def _function_calls(funcs: dict, calls: list, stores: dict, callees=frozenset(), apis=frozenset(),
                    uses: list | None = None, heads: list | None = None) -> list:
    """funcs: name -> def node, replaced by its summary; calls sorted into the function holding them
    (with their dotted callees, `heads`, when the caller has them). Returns the functions' line spans
    (first, last, name), sorted."""
    spans = sorted((fn.lineno, fn.end_lineno or fn.lineno, name) for name, fn in funcs.items())
    inside: dict = {name: [] for name in funcs}
    starts = [s for s, _, _ in spans]
    if heads is None:
        heads = [dotted(n.func) for n in calls]
    bisect_right = bisect.bisect_right

    for node, head in zip(calls, heads):
        line = node.lineno
        i = bisect_right(starts, line) - 1
        if i >= 0 and line <= spans[i][1]:  # spans[i][0] <= line by the bisection
            # whether the call can lead somewhere whatever the function holding it (see _function), asked
            # once here: most calls cannot
            lead = False
            if head is not None:
                last = head.rpartition(".")[2]
                lead = head.partition(".")[0] in callees or last in apis or (
                    last == "partial" and _partial_of_api(node, head, apis))
                if not lead:
                    for k in node.keywords:
                        if k.arg in apis:
                            lead = True
                            break
            inside[spans[i][2]].append((node, head, lead))
    methods: dict = {}
    for name in funcs:
        if "." in name:
            cls, _, meth = name.partition(".")
            methods.setdefault(cls, set()).add(meth)
    for name, fn in list(funcs.items()):
        cls = name.split(".", 1)[0] if "." in name else None
        kept = stores.get(cls, {}) if cls else {}
        # `self.helper(...)` in a method: the class's own method, written `Class.helper(...)` for the link step
        own = {f"{fn.args.args[0].arg}.{m}": f"{cls}.{m}" for m in methods.get(cls, ())} if cls else {}
        keep = name.endswith(".__init__") and bool(kept)
        # Most functions hold no call _function could keep: their summary would be dropped below unread, so it is
        # not made (its parameter reads walk the whole function)
        funcs[name] = _function(fn, inside[name], kept, callees, apis, own) \
            if keep or _may_keep_a_call(inside[name], kept, own) else None
        if own:
            for node, d, _lead in inside[name]:
                if d in own and len(uses) < MAX_ITEMS and any(
                        literal_source(a) is not None for a in (*node.args, *(k.value for k in node.keywords))):
                    src = _as_own(node, own[d])
                    if len(src) <= MAX_TEMPLATE:
                        uses.append([node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, src,
                                     [own[d]], True])
        # A function that passes nothing on is of no use to the link step (a call of it can gain
        # nothing). Dropping it keeps the summaries, held for the whole project in the main process, small.
        if funcs[name] is None or not funcs[name][3] and not keep:
            del funcs[name]
    return spans


def _base_inits(body: list, imports: dict, apis, calls: list, heads: list) -> tuple:
    """`class UpSample(nn.Upsample): def __init__(self, ..., mode="nearest"): super().__init__(..., mode=mode)`: the
    subclass's constructor hands its parameters to the library class it derives from, so its `super().__init__(...)`
    is recorded as that class's construction, `nn.Upsample(..., mode=mode)`, and a caller's `UpSample(mode="bilinear")`
    is followed into it like any wrapper's call. Only a class with one base, a library name a rule looks for."""
    bases: dict = {}  # id(the super().__init__ call) -> the base's dotted name
    for st in _top_statements(body):
        if not isinstance(st, ast.ClassDef) or len(st.bases) != 1:
            continue
        base = dotted(st.bases[0])
        root = base.split(".", 1)[0] if base else None
        if root is None or root not in imports or imports[root][1] or base.rpartition(".")[2] not in apis \
                or imports[root][0].split(".", 1)[0] not in _EXTERNAL:
            continue
        init = next((m for m in st.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and m.name == "__init__"), None)
        if init is None:
            continue
        for n in walk(init):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__init__" \
                    and isinstance(n.func.value, ast.Call) and isinstance(n.func.value.func, ast.Name) \
                    and n.func.value.func.id == "super":
                bases[id(n)] = base
    if not bases:
        return calls, heads
    out_calls, out_heads = [], []
    for n, h in zip(calls, heads):
        base = bases.get(id(n))
        if base is not None:
            n = ast.copy_location(ast.Call(func=_dotted_expr(base), args=n.args, keywords=n.keywords), n)
            h = base
        out_calls.append(n)
        out_heads.append(h)
    return out_calls, out_heads


def _may_keep_a_call(calls_in: list, kept: dict, own: dict) -> bool:
    """Whether _function could keep one of these calls: each call it keeps has a dotted callee that is a process
    starter, leads somewhere, or is `self.x` of an attribute __init__ keeps (`kept`) or of the class's own method
    (`own`). False: the function's call list is empty whatever its parameters."""
    for _node, callee, lead in calls_in:
        if callee is not None and (lead or callee.rpartition(".")[2] in _SPAWNERS or kept and "." in callee
                                   or own and callee in own):
            return True
    return False


# torch.multiprocessing's process starters: `spawn(fn, args=(a, b))` runs `fn(rank, a, b)` in each process.
_SPAWNERS = frozenset({"spawn", "start_processes"})


def _spawned(node: ast.Call, names: set) -> str | None:
    """`mp.start_processes(_worker, nprocs=n, args=(main, backend, url))` in a function whose parameter `backend`
    is among the args: the call the processes make, `_worker(None, main, backend, url)` (the rank first), which
    the link step follows into `_worker` like any call of a project function; None when the target is no plain
    name, the args are no literal tuple, or no parameter of the function is among them."""
    if not node.args or type(node.args[0]) is not ast.Name:
        return None
    extra = next((k.value for k in node.keywords if k.arg == "args"), node.args[1] if len(node.args) > 1 else None)
    if type(extra) is not ast.Tuple or any(type(e) is ast.Starred for e in extra.elts):
        return None
    if not any(type(e) is ast.Name and e.id in names for e in extra.elts):
        return None
    try:
        parts = [ast.unparse(e) for e in extra.elts]
    except (ValueError, RecursionError):
        return None
    return f"{node.args[0].id}({', '.join(['None', *parts])})"


def _partial_of_api(node: ast.Call, callee: str, apis) -> bool:
    """`partial(F.interpolate, mode=method)`: every later call of the result calls the library API with
    that argument, so the partial is a sink of the parameter like the API itself."""
    if callee.rsplit(".", 1)[-1] != "partial" or not node.args:
        return False
    target = dotted(node.args[0])
    return target is not None and target.rsplit(".", 1)[-1] in apis


def _as_own(node: ast.Call, callee: str) -> str:
    """The call's source with `self.helper` written as `Class.helper`."""
    return call_text(ast.Call(func=_dotted_expr(callee), args=node.args, keywords=node.keywords))


def _dotted_expr(name: str) -> ast.expr:
    """`Class.helper` as the expression ast.parse would give (built directly: parsing it took longer than the
    rest of a function's summary)."""
    parts = name.split(".")
    if not all(p.isidentifier() for p in parts):
        return ast.parse(name, mode="eval").body
    expr: ast.expr = ast.Name(id=parts[0], ctx=ast.Load())
    for attr in parts[1:]:
        expr = ast.Attribute(value=expr, attr=attr, ctx=ast.Load())
    return expr


def _device_literal(value, imports: dict) -> str | None:
    """`CUDA_0 = torch.device("cuda:0")` (or `device("cuda:0")` imported from torch) at module level: the device
    string, so that `.to(CUDA_0)` in a module importing the name reads it as the string (AutoGPTQ's _const.py)."""
    if type(value) is not ast.Call or len(value.args) != 1 or value.keywords:
        return None
    callee = dotted(value.func)
    if callee != "torch.device" and not (callee == "device" and imports.get("device", [None, 1])[:2] == ["torch", 0]):
        return None
    arg = value.args[0]
    return repr(arg.value) if type(arg) is ast.Constant and type(arg.value) is str else None


def overwritten(fn) -> set:
    """The parameters the function's body assigns in a statement of its own (not inside an `if`, a loop or a
    `try`) before any statement reads them: their values as passed are never used. Kept on the node: the summary
    and the overwritten-parameter facts (project/overwritten.py) ask it of the same functions."""
    got = getattr(fn, "trnready_overwritten", None)
    if got is None:
        got = fn.trnready_overwritten = _overwritten(fn)
    return got


def _overwritten(fn) -> set:
    a = fn.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    # most functions assign no parameter at their top level: then nothing is walked; otherwise the statements after
    # the last such assignment cannot add to the answer and are not walked either
    last = -1
    cands: set = set()  # the parameters assigned so: the only ones the answer can hold, or reads can matter for
    for i, st in enumerate(fn.body):
        if type(st) in (ast.Assign, ast.AnnAssign):
            for t in (st.targets if type(st) is ast.Assign else [st.target]):
                if type(t) is ast.Name and t.id in params:
                    cands.add(t.id)
                    last = i
    if last < 0:
        return set()
    read: set = set()
    out: set = set()
    for st in fn.body[:last + 1]:
        loads = loaded_names(st, cands)
        if type(st) in (ast.Assign, ast.AnnAssign) and st.value is not None:
            targets = st.targets if type(st) is ast.Assign else [st.target]
            for t in targets:
                if type(t) is ast.Name and t.id in cands and t.id not in read and t.id not in loads:
                    out.add(t.id)
        read |= loads
        if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            read |= cands  # a nested function may read it later
        if cands <= read | out:
            break  # every candidate is settled: nothing later can add to the answer
    return out


def _function(fn, calls_in: list, kept: dict, callees=frozenset(), apis=frozenset(), own=None) -> list:
    """Only calls that can lead somewhere are kept: a library API (by its last name), a project name
    (import, function, class, alias) or an attribute __init__ keeps on self. `calls_in`: (call, its
    dotted callee, whether it leads somewhere in any function) triples."""
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    params = positional + [p.arg for p in a.kwonlyargs]
    defaults = {}
    places = {}
    pairs = [*zip(positional[len(positional) - len(a.defaults):], a.defaults),
             *((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)]
    for p, d in pairs:
        lit = literal_source(d)
        if lit is not None:
            defaults[p] = lit
            places[p] = [d.lineno, d.col_offset, d.end_lineno, d.end_col_offset]
    # `backend = "nccl"` as a statement of the body before any read of the parameter: neither its default nor
    # what a caller passes reaches anything (FastVideo's init_distributed_environment(backend="nccl") picks the
    # backend itself)
    gone = overwritten(fn)
    for p in gone:
        defaults.pop(p, None)
        places.pop(p, None)
    # listed `=name`: its position still counts, but nothing a caller passes there is bound (link.py `_bind`)
    params = [f"={p}" if p in gone else p for p in params]
    positional = [f"={p}" if p in gone else p for p in positional]
    names = set(params) - {f"={p}" for p in gone}
    if a.kwarg is not None:
        # `def wrap(x, **kwargs): return torch.compile(x, **kwargs)`: the caller's extra keywords reach the
        # library call; the parameter is listed as `**kwargs` (after the named ones, never bound by position)
        params = params + ["**" + a.kwarg.arg]
        names.add(a.kwarg.arg)
    # in a method, `self.x` the class's __init__ keeps (a parameter or a library name) counts too
    mine = {f"{positional[0]}.{k}" for k in kept} if kept and positional else set()
    calls = []
    arms: dict | None = None  # computed for the first call kept (most functions keep none)
    for node, callee, lead in calls_in:
        if len(calls) < MAX_ITEMS:
            if callee is not None and callee.rpartition(".")[2] in _SPAWNERS:
                spawned = _spawned(node, names)
                if spawned is not None and len(spawned) <= MAX_TEMPLATE:
                    calls.append([node.lineno, node.col_offset, spawned])
                continue
            # lead: a project name, a library API, a keyword some rule reads (`torch.zeros(n, device=device)`
            # is a sink too) or a partial of an API
            if callee is None or not (lead or callee in mine or own and callee in own):
                continue
            if callee.rpartition(".")[2] in _IMPORTERS and _availability_probe(fn):
                continue
            roots = {r for r in _roots(node, callee) if r}
            used = roots - {callee}
            if used & names or roots & mine:
                src = _as_own(node, own[callee]) if own and callee in own else call_text(node)
                if len(src) <= MAX_TEMPLATE:
                    # the fourth field, when there is one: the arms of `if <parameter> == <literal>:` holding the
                    # call, so a caller passing another literal does not reach it (link.py `_into`)
                    if arms is None:
                        arms = _param_arms(fn, names)
                    calls.append([node.lineno, node.col_offset, src, *arms.get(id(node), ())])
    return [fn.lineno, params, defaults, calls, places]


def _param_test(test, names: set):
    """[parameter, op, literal sources] for `p == "x"`, `p != "x"`, `p in ("x", "y")`, `p not in [...]`."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.left) is not ast.Name \
            or test.left.id not in names:
        return None
    op, right = test.ops[0], test.comparators[0]
    if type(op) in (ast.Eq, ast.NotEq):
        lit = literal_source(right)
        return None if lit is None or type(right) is not ast.Constant else \
            [test.left.id, "==" if type(op) is ast.Eq else "!=", [lit]]
    if type(op) in (ast.In, ast.NotIn) and type(right) in (ast.Tuple, ast.List, ast.Set):
        lits = [literal_source(e) for e in right.elts]
        if lits and all(x is not None for x in lits) and all(type(e) is ast.Constant for e in right.elts):
            return [test.left.id, "in" if type(op) is ast.In else "not in", lits]
    return None


def _param_arms(fn, names: set) -> dict:
    """id(call) -> [[parameter, op, literal sources, arm taken]] for the calls inside `if` arms of the function that
    test a parameter against literals (`if library == "PIL": ... elif library == "PyTorch": F.interpolate(...)`),
    nested functions of an arm included. Only the function's own parameters count (never one it rebinds)."""
    out: dict = {}
    # one pass over the statements only (no expression is visited): the function's parameter tests, and the names it
    # rebinds (a rebound parameter is not what callers pass)
    tests = False
    rebound: set = set()
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        k = type(n)
        if k is ast.If:
            tests = tests or _param_test(n.test, names) is not None
        elif k is ast.Assign:
            rebound.update(t.id for t in n.targets if type(t) is ast.Name)
        elif k is ast.AugAssign or k is ast.AnnAssign:
            if type(n.target) is ast.Name:
                rebound.add(n.target.id)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(n, field, None)
            if inner:
                stack.extend(inner)
    names = names - rebound
    if not tests or not names:
        return out

    def block(stmts, conds):
        for st in stmts:
            if type(st) is ast.If:
                t = _param_test(st.test, names)
                mark(st.test, conds)
                if t is not None:
                    block(st.body, conds + [t + [True]])
                    block(st.orelse, conds + [t + [False]])
                    if not st.orelse and st.body and type(st.body[-1]) in (ast.Return, ast.Raise):
                        # `if backend != "torch": return x`: what follows runs only when the test is false
                        conds = conds + [t + [False]]
                    continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(st, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                    block(inner, conds)
            if type(st) is ast.ExceptHandler:
                continue
            for field in ("test", "value", "iter", "targets", "target", "items", "decorator_list", "returns",
                          "args", "exc"):
                inner = getattr(st, field, None)
                if inner is not None:
                    mark(inner, conds)

    def mark(node, conds):
        if not conds:
            return
        for n in (node if isinstance(node, list) else [node]):
            if isinstance(n, ast.AST):
                for c in ast.walk(n):
                    if type(c) is ast.Call:
                        out[id(c)] = conds

    block(fn.body, [])
    return out


def _availability_probe(fn) -> bool:
    """A function that only answers whether a module imports: its `import_module(name)` sits in a `try:`, and each
    of its `return`s gives True or False (LMFlow's `_is_package_available`). A call of it with a literal
    (`_is_package_available("vllm")`) imports nothing the caller uses: it probes, and a False answer takes the
    caller's other path. A helper returning the module (`try_import`) is an import of it."""
    tried = returns = False
    for node in ast.walk(fn):
        if type(node) is ast.Try:
            tried = tried or any(type(c) is ast.Call and (dotted(c.func) or "").rpartition(".")[2] in _IMPORTERS
                                 for st in node.body for c in ast.walk(st))
        elif type(node) is ast.Return:
            v = node.value
            if type(v) is not ast.Constant or type(v.value) is not bool:
                return False
            returns = True
    return tried and returns


# The fields that name resolution across modules reads (what a module-level name is) and the project-wide
# tables built from every file (class attributes, `pkg.attr = ...` aliases, flags, absolute imports): packed apart
# from the rest (function bodies, uses), about three quarters of a summary, so that the steps reading only these
# decode a quarter of it (`Compacted.head`). Order: as summarize() writes the fields, kept through a round trip.
HEAD = ("v", "imports", "consts", "classes", "aliases", "stores", "stars", "flags", "defs")
_ORDER = ("v", "imports", "consts", "classes", "aliases", "funcs", "uses", "stars", "stores", "reads", "flags",
          "guards", "exts", "imported", "callers", "defs", "kw", "over")


def compact(summary):
    """A summary as the main process keeps it until the link step: its HEAD fields and the rest as two
    zlib-compressed JSON parts (4-byte length of the first, the first, the second), about a twentieth of the
    dict's memory (all of a project's summaries are held at once). None stays None."""
    if summary is None:
        return None
    head = {k: summary[k] for k in HEAD if k in summary}
    rest = {k: v for k, v in summary.items() if k not in head}
    first, second = _deflate(head), _deflate(rest)
    return Fresh(len(first).to_bytes(4, "big") + first + second)


def _deflate(part: dict) -> bytes:
    import json
    import zlib

    # (a summary holds no cycle: the encoder's check for one, a table of every list and dict met, is left out)
    text = json.dumps(part, separators=(",", ":"), check_circular=False)
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def pack_list(items: list) -> bytes:
    """A list noted aside from a summary (api._note), held packed in memory until the link step: a tenth of
    the lists' size. Pickled: never written anywhere, and unpickled only by this process (unpack_list)."""
    import pickle

    return pickle.dumps(items, pickle.HIGHEST_PROTOCOL)


def unpack_list(packed) -> list:
    """pack_list() bytes -> the list (a list is returned as it is)."""
    if not isinstance(packed, (bytes, bytearray)):
        return packed
    import pickle

    return pickle.loads(packed)


class Fresh(bytes):
    """A summary packed by this run's own code (in a worker or in-process): of the right shape by construction, so
    unpacking it needs no check. One read back from the result cache arrives as plain bytes and is checked."""

    __slots__ = ()


class Compacted:
    """rel -> summary dict, decoded on access from compact() bytes; the last few decoded are kept."""

    # 16: on diffusers/src 3,588 decodes instead of 3,383 with 64 (the link step reads a file's own summary and
    # those of the few modules it imports from), and 3 MiB less peak memory.
    KEEP = 16

    def __init__(self, packed: dict, empty: dict):
        self._packed = packed  # rel -> bytes or None
        self._empty = empty
        self._recent: dict = {}
        self._checked: set = set()  # decoded once and found of the right shape

    def __getitem__(self, rel):
        got = self._recent.pop(rel, None)
        if got is None:
            data = self._packed[rel]
            if data is None:
                got = self._empty
            else:
                got = unpack(rel, data, rel not in self._checked and type(data) is not Fresh)
                self._checked.add(rel)
        self._recent[rel] = got
        if len(self._recent) > self.KEEP:
            del self._recent[next(iter(self._recent))]
        return got

    def forget(self) -> None:
        self._recent = {}

    def head(self, rel):
        """The summary's HEAD fields only (a whole summary when one is at hand): for steps that read nothing
        else, which then decode a quarter of each summary. Not kept: each such step reads a file once."""
        got = self._recent.get(rel)
        if got is not None:
            return got
        data = self._packed[rel]
        if data is None:
            return self._empty
        return unpack_head(rel, data, rel not in self._checked and type(data) is not Fresh)

    def __contains__(self, rel):
        return rel in self._packed

    def __iter__(self):
        return iter(self._packed)

    def __len__(self):
        return len(self._packed)

    def keys(self):
        return self._packed.keys()

    def values(self):
        return (self[r] for r in self._packed)

    def items(self):
        return ((r, self[r]) for r in self._packed)


def head_of(summaries, rel: str) -> dict:
    """rel's summary for reading its HEAD fields only: decoded alone from a Compacted table (any other
    mapping of summaries is read as it is)."""
    return summaries.head(rel) if isinstance(summaries, Compacted) else summaries[rel]


def config_summary(components: list, settings: list | None = None, tops: list | None = None,
                   switches: list | None = None) -> dict:
    """A training config's summary: the `_component_` / `_target_` paths no rule knows, which may
    name a project module that re-exports a library ([line, col, end_col, dotted path]); and its setting
    findings with the keys the project's code must name for them to matter and the setting's whole key path
    ([line, rule, [key, ...], [key, ...]],
    project/config_keys.py) and the file's top-level keys ("tops"); its keys set true ("switches",
    project/config_switches.py)."""
    out = {"v": VERSION, "components": components}
    if settings:
        out["settings"] = settings
        out["tops"] = tops or []
    if switches:
        out["switches"] = switches
    return out


def build_summary(steps: list) -> dict:
    """A Dockerfile's summary: the RUN steps that build code copied from the build context
    ([line, col, end_col, context path, command]); the link step looks for a CUDA extension there."""
    return {"v": VERSION, "builds": steps}


def valid(summary) -> bool:
    """A cached summary of the right shape (anything else is a cache miss)."""
    if summary is None:
        return True
    if not isinstance(summary, dict) or summary.get("v") != VERSION:
        return False
    if "builds" in summary:
        return set(summary) == {"v", "builds"} and isinstance(summary["builds"], list) and all(
            isinstance(b, list) and len(b) == 5 and all(isinstance(x, int) for x in b[:3])
            and isinstance(b[3], str) and isinstance(b[4], str) for b in summary["builds"])
    if "components" in summary:
        keys = {"v", "components", "settings", "tops", "switches"}
        return set(summary) <= keys and config_switches_valid(summary.get("switches", [])) and isinstance(
            summary["components"], list) and all(
            isinstance(c, list) and len(c) == 4 and all(isinstance(x, int) for x in c[:3]) and isinstance(c[3], str)
            for c in summary["components"]) and isinstance(summary.get("settings", []), list) and all(
            isinstance(s, list) and len(s) == 4 and isinstance(s[0], int) and isinstance(s[1], str)
            and isinstance(s[2], list) and all(isinstance(k, str) for k in s[2])
            and isinstance(s[3], list) and all(isinstance(k, str) for k in s[3]) for s in summary.get("settings", [])) \
            and isinstance(summary.get("tops", []), list) and all(isinstance(k, str) for k in summary.get("tops", []))
    return _head_valid(summary) and _rest_valid(summary)


def config_switches_valid(items) -> bool:
    """A config summary's `switches` ([line, col, end col, key, shown]; project/config_switches.py)."""
    return isinstance(items, list) and all(
        isinstance(s, list) and len(s) == 5 and all(type(x) is int for x in s[:3]) and isinstance(s[3], str)
        and isinstance(s[4], str) for s in items)


def _head_valid(summary: dict) -> bool:
    try:
        ok = all(isinstance(k, str) and isinstance(m, str) and isinstance(lv, int) and (n is None or isinstance(n, str))
                 for k, (m, lv, n) in summary["imports"].items())
        ok = ok and all(isinstance(line, int) and isinstance(s, str)
                        for d in (summary["consts"], summary["aliases"], *summary["classes"].values())
                        for line, s in d.values())
        ok = ok and all(isinstance(k, str) and v[0] in ("param", "alias") and isinstance(v[1], str)
                        for d in summary["stores"].values() for k, v in d.items())
        ok = ok and all(isinstance(m, str) and isinstance(lv, int) for m, lv in summary["stars"])
        defs = summary.get("defs")
        ok = ok and (defs is None or isinstance(defs, list) and all(isinstance(n, str) for n in defs))
        return ok and all(isinstance(n, str)
                          or (isinstance(n, list) and len(n) > 1 and all(isinstance(x, str) for x in n))
                          for n in summary["flags"])
    except (TypeError, ValueError, KeyError, AttributeError):
        return False


def _rest_valid(summary: dict) -> bool:
    try:
        ok = all(isinstance(line, int) and isinstance(ps, list) and isinstance(ds, dict)
                 and all(isinstance(c[0], int) and isinstance(c[1], int) and isinstance(c[2], str)
                     and all(isinstance(a, list) and len(a) == 4 for a in c[3:]) for c in cs)
                 and all(len(v) == 4 and all(isinstance(x, int) for x in v) for v in pl.values())
                 for line, ps, ds, cs, pl in summary["funcs"].values())
        ok = ok and all(len(r) == 6 and all(isinstance(x, int) for x in r[:4]) and isinstance(r[4], str)
                        and isinstance(r[5], str) for r in summary["reads"])
        ok = ok and aside_valid((summary["guards"], summary["exts"], summary["imported"]))
        from .call_sites import valid as callers_valid

        ok = ok and (summary["callers"] is None or callers_valid(summary["callers"]))
        ok = ok and all(len(u) == 7 and all(isinstance(x, int) for x in u[:4]) and isinstance(u[4], str)
                        and isinstance(u[5], list) and all(isinstance(n, str) for n in u[5])
                        and isinstance(u[6], bool) for u in summary["uses"])
        # the overwritten-parameter step's facts (project/overwritten.py), present only when not empty
        ok = ok and all(isinstance(r, list) and len(r) == 7 and all(type(x) is int for x in r[:2])
                        and (r[2] is None or isinstance(r[2], str)) and all(type(x) is int for x in r[3:5])
                        and all(x is None or isinstance(x, str) for x in r[5:]) for r in summary.get("kw", ()))
        over = summary.get("over", [{}, {}])
        return ok and isinstance(over, list) and len(over) == 2 and all(
            isinstance(d, dict) and all(isinstance(ps, list) and all(isinstance(p, str) for p in ps)
                                        for ps in d.values()) for d in over)
    except (TypeError, ValueError, KeyError, AttributeError):
        return False


def aside_valid(aside) -> bool:
    """(guards, exts, imported) of a summary, as noted aside (api._aside), of the right shape."""
    try:
        guards, exts, imported = aside
        return all(len(g) == 4 and isinstance(g[0], int) and isinstance(g[1], int) and isinstance(g[2], str)
                   and isinstance(g[3], bool) for g in guards) and \
            all(len(e) in (7, 8) and isinstance(e[0], str) and isinstance(e[1], int) and isinstance(e[2], int)
                and all(isinstance(x, str) for x in e[3:7])
                and (len(e) == 7 or e[7] is None or all(isinstance(x, str) for x in e[7])) for e in exts) and \
            all(len(i) == 7 and all(isinstance(x, int) for x in i[:4]) and isinstance(i[4], str)
                and isinstance(i[5], int) and (i[6] is None or isinstance(i[6], str)) for i in imported)
    except (TypeError, ValueError, KeyError, AttributeError):
        return False


class StaleSummary(Exception):
    """A summary read back from the result cache is not of the right shape (a hand edit, another build, a
    hostile cache directory): api.scan drops that entry and scans again."""

    def __init__(self, rel: str):
        super().__init__(rel)
        self.rel = rel


# Packed summaries (read back from the result cache) already found of the right shape in this process: the project
# steps unpack one file's summary several times each (12 decodes a file on diffusers/src), and the shape check of
# a whole summary cost more than its decoding. Held by content, so an entry says something true of any equal bytes;
# api.scan empties it when its project steps end (it holds no more than the scan's summaries until then).
_CHECKED: set = set()


def forget_checked() -> None:
    _CHECKED.clear()


def unpack(rel: str, data, check: bool = True):
    """compact() bytes -> the summary dict, checked unless `check` is false (StaleSummary when it is not
    of the right shape)."""
    head, rest = _parts(rel, data)
    got = {**_inflate(rel, head), **_inflate(rel, rest)}
    got = {k: got[k] for k in sorted(got, key=_rank)}
    if check and not (type(data) is bytes and data in _CHECKED):
        if not valid(got):
            raise StaleSummary(rel)
        if type(data) is bytes:
            _CHECKED.add(data)
    return got


def unpack_head(rel: str, data, check: bool = True) -> dict:
    """compact() bytes -> the HEAD fields of the summary, checked unless `check` is false."""
    got = _inflate(rel, _parts(rel, data)[0])
    if check and not (type(data) is bytes and data in _CHECKED) and not (
            got.get("v") == VERSION and _head_valid(got)):
        raise StaleSummary(rel)
    return got


def _parts(rel: str, data) -> tuple:
    size = int.from_bytes(data[:4], "big")
    if len(data) < 4 or 4 + size > len(data):
        raise StaleSummary(rel)
    return data[4:4 + size], data[4 + size:]


def _inflate(rel: str, part) -> dict:
    import gc
    import json
    import zlib

    # Decoding allocates thousands of dicts and lists that hold no cycle: with the cyclic GC on, each decode set off
    # several collections of the project steps' young objects (about a third of the decoding's CPU).
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        got = json.loads(zlib.decompress(part))
    except (ValueError, zlib.error):
        raise StaleSummary(rel) from None
    finally:
        if gc_was_on:
            gc.enable()
    if not isinstance(got, dict):
        raise StaleSummary(rel)
    return got


def _rank(key: str) -> int:
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)


def _device_keyword(node: ast.Call, interesting: set) -> bool:
    """`torch.ones(shape, device=DEV)`: a project value given as the device of any call (a tensor factory is no
    catalogue API, yet the device it names is the finding)."""
    for k in node.keywords:
        if k.arg == "device" and (d := dotted(k.value)) and d.split(".", 1)[0] in interesting:
            return True
    return False


def _project_star(stars: list) -> bool:
    return any(level or mod.split(".", 1)[0] not in _EXTERNAL for mod, level in stars)


def _star_values(tree: ast.Module, stars: list, calls: list, *bound_tables) -> set:
    """With a star import of a project module, the bare names handed to calls as arguments that the file binds
    nowhere (no assignment, parameter, loop or import of that name, no definition) and that are no builtin: the
    star may bind them. Walks the tree only in a file with such a star (rare), so other files pay nothing."""
    if not _project_star(stars):
        return set()
    args = set()
    for node in calls:
        for a in (*node.args, *(k.value for k in node.keywords)):
            if type(a) is ast.Name:
                args.add(a.id)
    if not args:
        return set()
    import builtins

    args = {a for a in args if not hasattr(builtins, a) and not any(a in t for t in bound_tables)}
    if not args:
        return set()
    for n in walk(tree):
        t = type(n)
        if t is ast.Name and type(n.ctx) is not ast.Load:
            args.discard(n.id)
        elif t is ast.arg:
            args.discard(n.arg)
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            args.discard(n.name)
        elif t in (ast.Import, ast.ImportFrom):
            for al in n.names:
                args.discard((al.asname or al.name).split(".", 1)[0])
        elif t is ast.ExceptHandler and n.name:
            args.discard(n.name)
        elif t in (ast.Global, ast.Nonlocal):
            args.difference_update(n.names)
    return args


def _star_names(stars: list, heads: list) -> set:
    """With `from tracker.model.layers import *` of a project module, the bare names called in the file that are
    no builtin: the star import may bind them (`SelfAttention(dim, heads)`), so the callers record keeps their
    calls and the link step resolves them through the star (summary version 23). A library's star adds none."""
    if not any(level or mod.split(".", 1)[0] not in _EXTERNAL for mod, level in stars):
        return set()
    import builtins

    return {h for h in heads if h and "." not in h and not hasattr(builtins, h)}
