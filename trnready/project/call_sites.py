"""The `callers` field of a summary: a module's functions, the calls it makes of project names with what each
passes, and the instances of project classes its classes keep on self. See project/callers.py for what the link
side concludes from them, and docs/project-analysis.md."""
from __future__ import annotations

import ast
import bisect
import re

from .syntax import MAX_ITEMS, dotted, literal_source
from ..astwalk import of_kinds, walk

_LISTS = frozenset({"ModuleList", "list"})
_SEQUENCES = frozenset({"Sequential"})
# what `_bindings` counts: reads and stores of names, parameters, global / nonlocal, single assignments
_BINDING_KINDS = (ast.Name, ast.arg, ast.Global, ast.Nonlocal, ast.Assign)


def record(body: list, funcs: dict, calls: list, heads: list, interesting: set, full: bool = False,
           flags: frozenset = frozenset()) -> dict:
    """The `callers` field of a summary. `body`: the module's top statements; `funcs`: name -> def node
    (module-level functions and methods).

    The per-file pass records the cheap part only (`full` False): no instances kept on self (so no calls through
    them), and a parameter passed on is `=p` even when the body assigns it again. The link step asks for the full
    record of the few files a decision needs (project/callers.py `Callers.full`): walking every method of every
    class for its instances, and every function for its rebound names, was a third of the per-file pass.
    `flags`: the module's never-on-Neuron flags (`use_cuda = torch.cuda.is_available()`, context/neuron_guarded.py
    `module_flags`): a call handing one on passes False."""
    sigs: dict = {}
    deco: list = []  # decorated functions and classes: a decorator may register them (callers unknown)
    bases: dict = {}  # class -> last names of its bases (a method call through self may reach a subclass's)
    for st in body:
        if type(st) is ast.ClassDef:
            bases[st.name] = [(dotted(b) or "?").rsplit(".", 1)[-1] for b in st.bases][:8]
            if st.decorator_list:
                deco.append(st.name)
            deco += [f"{st.name}.{m.name}" for m in st.body if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef)
                     and any(dotted(d) not in ("staticmethod", "classmethod") for d in m.decorator_list)]
        elif type(st) in (ast.FunctionDef, ast.AsyncFunctionDef) and st.decorator_list:
            deco.append(st.name)
    spans = []
    for name, fn in funcs.items():
        if len(sigs) >= MAX_ITEMS:
            break
        sigs[name] = _sig(fn)
        spans.append((fn.lineno, fn.end_lineno or fn.lineno, name))
    spans.sort()
    starts = [s for s, _, _ in spans]
    selfs = {name: fn.args.args[0].arg for name, fn in funcs.items() if "." in name and fn.args.args}
    methods: dict = {}
    for name in funcs:
        if "." in name:
            cls, _, m = name.partition(".")
            methods.setdefault(cls, set()).add(m)
    # Each call's enclosing function, found once; a class constructing no project name keeps no instance of one.
    encls = []
    builders: set = set()
    for node, head in zip(calls, heads):
        i = bisect.bisect_right(starts, node.lineno) - 1
        encl = spans[i][2] if i >= 0 and node.lineno <= spans[i][1] else ""
        encls.append(encl)
        if head is not None and "." in encl and head.split(".", 1)[0] in interesting:
            builders.add(encl.split(".", 1)[0])
    if full:
        builders |= {n.split(".", 1)[0] for n in funcs if n.endswith(".__init__") and n.count(".") == 1}
    else:
        builders = set()
    clones = _clone_helpers(funcs) | _imported_clone_helpers(interesting) if full else frozenset()
    builders = {c for c in builders if _keeps_a_construction(
        [f for n, f in funcs.items() if n.split(".", 1)[0] == c and "." in n], selfs, c, interesting, clones)}
    # subclasses in this file of a class that keeps instances use them through self too (3detr's
    # MaskedTransformerEncoder loops over the `self.layers` its base TransformerEncoder keeps)
    heirs = {c for c, bs in bases.items() if set(bs) & builders} if builders else set()
    inherit: dict = {}  # subclass -> {attr: base class keeping it}
    insts = _instances({n: f for n, f in funcs.items() if n.split(".", 1)[0] in builders | heirs and "." in n},
                       selfs, interesting, clones, bases, inherit) if builders else {}
    loops = _loop_vars({n: f for n, f in funcs.items() if n.split(".", 1)[0] in set(insts) | set(inherit)
                        and "." in n}, selfs) if insts else {}
    out_calls: list = []
    fixed: dict = {}  # function -> its parameters never assigned in its body (worked out when one is passed on)
    none_kept: dict = {}  # function -> its parameters assigned again only where they are not None
    bound: dict = {}  # function -> _bound_constructions of it, worked out when a call needs them
    binding: dict = {}  # function -> _bindings of it, the one walk both of those read

    def bindings_of(fname: str) -> tuple:
        if fname not in binding:
            binding[fname] = _bindings(funcs[fname])
        return binding[fname]

    # Functions that call a class of this file or a project name at all: only they can bind a construction
    # (walking every function for its bound names was most of this step)
    builds_here = {e for h, e in zip(heads, encls) if h is not None and h in methods}
    builds_project = {e for h, e in zip(heads, encls) if h is not None and h.split(".", 1)[0] in interesting}

    def bound_in(fname: str) -> dict:
        if fname not in bound:
            bound[fname] = _bound_constructions(funcs[fname], bindings_of(fname)) if fname in funcs else {}
        return bound[fname]

    def locals_made(fname: str) -> dict:
        """name -> project callee, for the names bound once to a construction and read only once (handed on)."""
        if fname not in builds_project:
            return {}
        return {v: c for v, (c, reads, _p) in bound_in(fname).items()
                if reads == 1 and c.split(".", 1)[0] in interesting}

    literal: dict = {}  # function -> _literal_locals of it, worked out when a call passes a local name

    def literals_of(fname: str) -> dict:
        """name -> "=" + literal for the locals bound once to a literal (`mask = None` then
        `self.transformer(src, mask, ...)`: the call passes None)."""
        if fname not in literal:
            literal[fname] = _literal_locals(funcs[fname], bindings_of(fname)) if fname in funcs else {}
        return literal[fname]

    def locals_of(fname: str) -> dict:
        """name -> class of the file, for the names (not parameters) bound once to a construction of that class."""
        if fname not in builds_here:
            return {}
        return {v: c for v, (c, _r, param) in bound_in(fname).items() if c in methods and not param}

    for node, head, encl in zip(calls, heads, encls):
        if len(out_calls) >= MAX_ITEMS:
            break
        callee = _callee(node, head, encl, selfs, methods, loops, interesting, locals_of)
        if callee is not None and inherit and "@" in callee:
            c, _, a = callee.partition("@")
            base = inherit.get(c, {}).get(a.rstrip("[]"))
            if base is not None:
                callee = f"{base}@{a}"  # the instance the base class keeps
        if callee is None or "@" in callee and callee.split("@", 1)[1].rstrip("[]") not in insts.get(
                callee.split("@", 1)[0], ()):
            continue  # (a call of an attribute holding something else: a library layer, a callable)
        params = set(sigs[encl][2]) if encl in sigs else set()
        keeps: set = set()
        if full and params and any(type(a) is ast.Name and a.id in params
                                   for a in (*node.args, *(k.value for k in node.keywords))):
            if encl not in fixed:
                fixed[encl] = params - rebound(funcs[encl])
                none_kept[encl] = _none_kept(funcs[encl], params - fixed[encl])
            keeps = none_kept[encl]
            params = fixed[encl]  # (a parameter assigned again in the body is not what the caller passed)
        made = locals_made(encl) if encl and any(
            type(a) is ast.Name and a.id not in params for a in (*node.args, *(k.value for k in node.keywords))) \
            else {}
        if encl and any(type(a) is ast.Name and a.id not in params and a.id not in made
                        for a in (*node.args, *(k.value for k in node.keywords))):
            made = {**literals_of(encl), **made}
        if flags and any(type(a) is ast.Name and a.id in flags and a.id not in params and a.id not in made
                         for a in (*node.args, *(k.value for k in node.keywords))):
            own = rebound(funcs[encl]) if encl in funcs else set()
            made = {**{n: "=False" for n in flags if n not in own and n not in params}, **made}
        args = [_arg(a, params, made, interesting, keeps) for a in node.args]
        kws = {(k.arg or "**"): _arg(k.value, params, made, interesting, keeps) for k in node.keywords}
        out_calls.append([node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0,
                          callee, encl, args, kws])
    if len(out_calls) >= MAX_ITEMS:
        # Calls were left out: a kept instance's calls may be among them, and its attribute's mentions would still
        # add up. No instance is kept then (a named function's left-out calls leave its mentions short anyway).
        insts = {}
    rets: dict = {}
    if full:
        for fname in sorted(builds_project | builds_here):
            if fname in funcs and "." not in fname:
                got = _returned_construction(funcs[fname], bound_in(fname), interesting | set(methods))
                if got is not None:
                    rets[fname] = got
    return {"sigs": sigs, "calls": out_calls, "insts": insts, "deco": deco[:MAX_ITEMS],
            "bases": dict(list(bases.items())[:MAX_ITEMS]), "rets": rets}


def _returned_construction(fn, bound: dict, interesting: set) -> str | None:
    """The dotted project callee of the one construction a module-level function returns, when every `return` of
    it returns that construction or a local bound once to it (3detr's `def build_decoder(args): decoder =
    TransformerDecoder(decoder_layer, ...); return decoder`): a call of the function builds an instance of that
    class. None for anything else."""
    found: set = set()
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        t = type(n)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        if t is ast.Return:
            v = n.value
            if type(v) is ast.Call:
                d = dotted(v.func)
            elif type(v) is ast.Name and v.id in bound and not bound[v.id][2]:
                d = bound[v.id][0]
            else:
                return None
            if d is None or d.split(".", 1)[0] not in interesting:
                return None
            found.add(d)
        stack.extend(ast.iter_child_nodes(n))
    return found.pop() if len(found) == 1 else None


def rebound(fn) -> set:
    """Names the function's body (nested functions and comprehensions included) binds or deletes."""
    out = set()
    for st in fn.body:
        for node in walk(st):
            t = type(node)
            if t is ast.Name and type(node.ctx) is not ast.Load:
                out.add(node.id)
            elif t in (ast.Global, ast.Nonlocal):
                out.update(node.names)
            elif t is ast.arg:
                out.add(node.arg)  # a nested function's or lambda's parameter of the same name
            elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                out.add(node.name)
            elif t in (ast.Import, ast.ImportFrom):
                out.update((a.asname or a.name).split(".", 1)[0] for a in node.names)
            elif t is ast.ExceptHandler and node.name:
                out.add(node.name)
    return out


def valid(rec) -> bool:
    try:
        return isinstance(rec, dict) and set(rec) == {"sigs", "calls", "insts", "deco", "bases", "rets"} and all(
            isinstance(k, str) and isinstance(v, str) for k, v in rec["rets"].items()) and all(
            isinstance(d, str) for d in rec["deco"]) and all(
            isinstance(k, str) and all(isinstance(b, str) for b in v) for k, v in rec["bases"].items()) and all(
            isinstance(k, str) and len(v) == 4 and isinstance(v[0], int) and isinstance(v[1], int)
            and all(isinstance(p, str) for p in v[2]) and all(
                len(d) == 3 and isinstance(d[0], str) and isinstance(d[1], int) and isinstance(d[2], int)
                for d in v[3].values())
            for k, v in rec["sigs"].items()) and all(
            len(c) == 8 and all(isinstance(x, int) for x in c[:4]) and isinstance(c[4], str) and isinstance(c[5], str)
            and all(isinstance(a, str) for a in c[6]) and all(isinstance(a, str) for a in c[7].values())
            for c in rec["calls"]) and all(
            isinstance(a, str) and len(v) == 4 and isinstance(v[0], str) and v[1] in ("one", "many")
            and isinstance(v[2], int) and isinstance(v[3], int)
            for d in rec["insts"].values() for a, v in d.items())
    except (TypeError, ValueError, KeyError, AttributeError):
        return False


def _sig(fn) -> list:
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    params = list(positional)
    if a.vararg is not None or a.kwonlyargs:
        params.append("*" + (a.vararg.arg if a.vararg is not None else ""))
    params += [p.arg for p in a.kwonlyargs]
    if a.kwarg is not None:
        params.append("**" + a.kwarg.arg)
    defaults = {}
    pairs = [*zip(positional[len(positional) - len(a.defaults):], a.defaults),
             *((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)]
    for p, d in pairs:
        lit = literal_source(d)
        defaults[p] = [lit if lit is not None and len(lit) <= 80 else "?", d.lineno, d.col_offset]
    return [fn.lineno, fn.end_lineno or fn.lineno, params, defaults]


def _cuda_test(a) -> bool:
    """`self.device.type == th.device("cuda").type`, `x.device.type == "cuda"`, `torch.cuda.is_available()`: a
    value that is False on every Neuron machine."""
    if type(a) is ast.Call:
        return (dotted(a.func) or "").endswith("cuda.is_available") and not a.args
    if type(a) is not ast.Compare or len(a.ops) != 1 or type(a.ops[0]) is not ast.Eq:
        return False
    sides = (a.left, a.comparators[0])
    for x, y in (sides, sides[::-1]):
        if type(x) is ast.Attribute and x.attr in ("type", "device_type"):
            if type(y) is ast.Constant and y.value == "cuda":
                return True
            if type(y) is ast.Attribute and y.attr == "type" and type(y.value) is ast.Call \
                    and (dotted(y.value.func) or "").endswith("device") and y.value.args \
                    and type(y.value.args[0]) is ast.Constant and y.value.args[0].value == "cuda":
                return True
    return False


def _arg(a, params: set, made: dict | None = None, interesting: frozenset | set = frozenset(),
         keeps: frozenset | set = frozenset()) -> str:
    if type(a) is ast.Starred:
        return "*"
    if type(a) is ast.Name and a.id in keeps:
        return "~" + a.id  # a parameter assigned again only where it is not None: None when the caller passed None
    if type(a) is ast.Name and made and a.id in made:
        got = made[a.id]
        if got[:1] == "=":
            return got[1:]  # a local bound once to a literal (`mask = None`): the literal
        return "@" + got  # an instance built for this call (`layer = Layer(d)`, `Stack(layer, n)`)
    if type(a) is ast.Call and interesting:
        d = dotted(a.func)
        if d is not None and d.split(".", 1)[0] in interesting:
            return "@" + d  # `Stack(Layer(d), n)`: an instance built for this argument alone
    if _cuda_test(a):
        # set_random_seed(seed, using_cuda=self.device.type == th.device("cuda").type): what every Neuron run passes
        return "False"
    lit = literal_source(a)
    if lit is not None and len(lit) <= 80:
        return lit
    if type(a) is ast.Name and a.id in params:
        return "=" + a.id
    return "?"


def _callee(node: ast.Call, head, encl: str, selfs: dict, methods: dict, loops: dict, interesting: set,
            locals_of=None):
    me = selfs.get(encl)
    cls = encl.split(".", 1)[0] if "." in encl else None
    func = node.func
    if head is not None and locals_of is not None and head.count(".") == 1 and encl:
        # `model = DLA(...)` then `model.load_pretrained_model(...)`: a method of a class of this file called on an
        # instance the function built itself (written Class.method, as a call through self)
        var, _, meth = head.partition(".")
        if var != me and any(meth in ms for ms in methods.values()):
            made = locals_of(encl).get(var)
            if made is not None and meth in methods.get(made, ()):
                return f"{made}.{meth}"
    if head is not None and me is not None:
        parts = head.split(".")
        if parts[0] == me and len(parts) == 2:
            return f"{cls}.{parts[1]}" if parts[1] in methods.get(cls, ()) else f"{cls}@{parts[1]}"
        if len(parts) == 1 and (encl, parts[0], node.lineno) in loops:
            return f"{cls}@{loops[(encl, parts[0], node.lineno)]}[]"
    if type(func) is ast.Subscript and me is not None:
        d = dotted(func.value)
        if d is not None and d.startswith(me + ".") and d.count(".") == 1:
            return f"{cls}@{d.split('.', 1)[1]}[]"
    if head is not None and head.split(".", 1)[0] in interesting:
        # `Class.method(obj, ...)` written out passes the instance itself: not recorded (its mention then leaves
        # the method's callers unknown), so that `Class.method` always stands for a call through self
        return None if head.count(".") == 1 and head.split(".", 1)[0] in methods else head
    return None


def _bindings(fn) -> tuple:
    """(stores, loads, values, args) of the plain names of a function (nested functions included): how often each is
    stored (a `global` / `nonlocal` of it counts as two) and read, the value of its single-target assignment, and
    the names some function or lambda of it takes as a parameter. One walk for `_bound_constructions` and
    `_literal_locals`."""
    stores: dict = {}
    loads: dict = {}
    values: dict = {}
    args: set = set()
    for n in of_kinds(fn, _BINDING_KINDS):
        t = type(n)
        if t is ast.Name:
            d = loads if type(n.ctx) is ast.Load else stores
            d[n.id] = d.get(n.id, 0) + 1
        elif t is ast.arg:
            args.add(n.arg)
        elif t in (ast.Global, ast.Nonlocal):
            for name in n.names:
                stores[name] = 2
        elif t is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name:
            values[n.targets[0].id] = n.value
    return stores, loads, values, args


def _bound_constructions(fn, bindings: tuple | None = None) -> dict:
    """name -> (dotted callee, reads, is a parameter) for the plain names the function binds exactly once (no other
    store, no `global` / `nonlocal`), to a call of a dotted name: `decoder_layer = TransformerDecoderLayer(d)` read
    once, as the argument that hands the instance on; `model = DLA(levels)` whose methods the function calls."""
    stores, loads, values, _args = bindings or _bindings(fn)
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    out = {}
    for v, value in values.items():
        callee = dotted(value.func) if type(value) is ast.Call else None
        if callee is not None and stores.get(v) == 1:
            out[v] = (callee, loads.get(v, 0), v in params)
    return out


def _none_kept(fn, names: set) -> set:
    """The names among `names` (parameters the body assigns again) whose every assignment lies in the body of an
    `if name is not None:` or `if name:` of that same name (`if mask is not None: mask = mask.flatten(1)`): the
    name is still None after them when the caller passed None."""
    if not names:
        return set()
    inside: dict = {}  # id(store node) -> True when under a not-None test of its own name
    for st in of_kinds(fn, (ast.If,)):
        name = _not_none_test(st.test)
        if name in names:
            for b in st.body:
                for n in walk(b):
                    if type(n) is ast.Name and n.id == name and type(n.ctx) is not ast.Load:
                        inside[id(n)] = True
    out = set(names)
    for n in walk(fn):
        t = type(n)
        if t is ast.Name and n.id in out and type(n.ctx) is not ast.Load and id(n) not in inside:
            out.discard(n.id)
        elif t in (ast.Global, ast.Nonlocal):
            out -= set(n.names)
        elif t is ast.arg and n.arg in out and n not in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
            out.discard(n.arg)
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) and n is not fn:
            out.discard(n.name)
    return out


def _not_none_test(test) -> str | None:
    """`name is not None` or a bare `name`: the name tested."""
    if type(test) is ast.Name:
        return test.id
    if type(test) is ast.Compare and type(test.left) is ast.Name and len(test.ops) == 1 \
            and type(test.ops[0]) is ast.IsNot and type(test.comparators[0]) is ast.Constant \
            and test.comparators[0].value is None:
        return test.left.id
    return None


def _literal_locals(fn, bindings: tuple | None = None) -> dict:
    """name -> "=" + literal source for the plain names the function (nested functions included) binds exactly once,
    by `name = <literal>` (None, a number, a string, a tuple of them), that are no parameter of it or of a function
    or lambda inside it, and no `global` / `nonlocal`: wherever such a name is read, it holds that literal."""
    stores, _loads, values, args = bindings or _bindings(fn)
    out = {}
    for v, value in values.items():
        if stores.get(v) == 1 and v not in args:
            lit = literal_source(value)
            if lit is not None and len(lit) <= 80:
                out[v] = "=" + lit
    return out


_CLONES = re.compile(r"(?:^|_)clones$")


def _imported_clone_helpers(interesting) -> frozenset:
    """Project functions imported into the file under DETR's clone-helper name (`get_clones`, `_get_clones`,
    `clones`: 3detr's `from models.helpers import get_clones`); the helper's body is in another module, which the
    per-file record cannot read, and the name is the idiom's own."""
    return frozenset(n for n in interesting if _CLONES.search(n.rsplit(".", 1)[-1]))


def _clone_helpers(funcs: dict) -> frozenset:
    """Module-level functions that return copies of their first parameter in a module list (DETR's
    `def _get_clones(module, N): return nn.ModuleList([copy.deepcopy(module) for i in range(N)])`)."""
    out = set()
    for name, fn in funcs.items():
        if "." in name or not fn.args.args:
            continue
        body = [st for st in fn.body if not (type(st) is ast.Expr and type(st.value) is ast.Constant)]
        if len(body) == 1 and type(body[0]) is ast.Return and _copies(body[0].value, fn.args.args[0].arg):
            out.add(name)
    return frozenset(out)


def _copies(v, param: str) -> bool:
    """`nn.ModuleList([copy.deepcopy(param) for _ in range(n)])` (or nn.Sequential of one)."""
    if type(v) is not ast.Call or len(v.args) != 1 or v.keywords:
        return False
    last = (dotted(v.func) or "").rsplit(".", 1)[-1]
    inner = v.args[0]
    if last not in _LISTS | _SEQUENCES or type(inner) is not ast.ListComp:
        return False
    e = inner.elt
    return type(e) is ast.Call and (dotted(e.func) or "").rsplit(".", 1)[-1] == "deepcopy" and len(e.args) == 1 \
        and type(e.args[0]) is ast.Name and e.args[0].id == param


def _param_kept(v, params: set, clones: frozenset):
    """What `self.attr = v` in `__init__` keeps of a parameter: ("=p", "one") for the parameter itself, ("=p",
    "many") for copies of it (a clone helper of the file, or `nn.ModuleList([copy.deepcopy(p) ...])`); None
    otherwise."""
    if type(v) is ast.Name and v.id in params:
        return ("=" + v.id, "one")
    if type(v) is ast.Call and v.args and type(v.args[0]) is ast.Name and v.args[0].id in params:
        if (dotted(v.func) or "") in clones:
            return ("=" + v.args[0].id, "many")
    # written in place: `nn.ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])`
    # (RewardMachines-torch's TransformerEncoder, fresh81)
    copied = next((p for p in params if _copies(v, p)), None)
    return ("=" + copied, "many") if copied is not None else None


def _statements(fn):
    """The function's statements at any depth (not the expressions in them)."""
    stack = list(fn.body)
    while stack:
        st = stack.pop()
        yield st
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(st, field, None)
            if isinstance(inner, list):
                stack.extend(inner)
        for h in getattr(st, "handlers", ()) or ():
            stack.extend(h.body)
        for c in getattr(st, "cases", ()) or ():
            stack.extend(c.body)


def _keeps_a_construction(methods: list, selfs: dict, cls: str, interesting: set, clones=frozenset()) -> bool:
    """Some statement of the class's methods keeps a construction of a project name on self (`self.x = X(...)`,
    `self.xs.append(X(...))`, a list of them), or `__init__` keeps a parameter or copies of it (`self.layers =
    _get_clones(decoder_layer, n)`): a look at the statements only, before the walk of every node."""
    for fn in methods:
        me = fn.args.args[0].arg if fn.args.args else ""
        params = _init_params(fn)
        held = None
        for st in _statements(fn):
            if type(st) is ast.Assign and len(st.targets) == 1 and _is_self_attr(st.targets[0], me) \
                    and (_stored(st.value, interesting) not in ((), _POISON)
                         or params and _param_kept(st.value, params, clones) is not None):
                return True
            if type(st) is ast.Assign and len(st.targets) == 1 and _is_self_attr(st.targets[0], me) \
                    and type(st.value) is ast.Name:
                if held is None:
                    held = _held_constructions(fn, interesting)
                if st.value.id in held:
                    return True
            if type(st) is ast.Expr and type(st.value) is ast.Call and type(st.value.func) is ast.Attribute \
                    and st.value.func.attr == "append" and _is_self_attr(st.value.func.value, me):
                return True
            if type(st) is ast.Assign and len(st.targets) == 1 and _is_self_attr(st.targets[0], me) \
                    and _listed(st.value, fn, interesting) is not None:
                return True
    return False


def _loop_vars(funcs: dict, selfs: dict) -> dict:
    """(method, name, line) -> attr for each line of `for name in self.attr:` bodies (the calls of `name` there)."""
    out: dict = {}
    for name, fn in funcs.items():
        me = selfs.get(name)
        if me is None:
            continue
        for node in _statements(fn):
            got = _loop_over(node, me) if type(node) in (ast.For, ast.AsyncFor) and node.body else None
            if got is not None:
                for line in range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1):
                    out[(name, got[0], line)] = got[1].attr
    return out


def _loop_over(loop, me: str):
    """(loop variable, the `self.attr` node) of `for x in self.attr:` or `for i, x in enumerate(self.attr):`
    (3detr's encoder), else None."""
    it, target = loop.iter, loop.target
    if type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "enumerate" and len(it.args) == 1 \
            and not it.keywords and type(target) is ast.Tuple and len(target.elts) == 2:
        it, target = it.args[0], target.elts[1]
    if type(target) is ast.Name and _is_self_attr(it, me):
        return target.id, it
    return None


def _init_params(fn) -> set:
    """The parameters of an `__init__` (not self) that its body reads once and never binds again: an instance
    handed in this way is kept where the one read puts it."""
    if fn.name != "__init__" or len(fn.args.args) < 2:
        return set()
    names = {a.arg for a in (*fn.args.args[1:], *fn.args.kwonlyargs)}
    loads: dict = {}
    for n in walk(fn):
        if type(n) is ast.Name and n.id in names:
            if type(n.ctx) is not ast.Load:
                names.discard(n.id)
            else:
                loads[n.id] = loads.get(n.id, 0) + 1
    return {p for p in names if loads.get(p) == 1}


# nn.Module methods that read or set an instance's weights: they run no forward and return no handle on the instance
_INSPECTIONS = frozenset({"named_parameters", "parameters", "state_dict", "load_state_dict", "named_buffers",
                          "buffers", "zero_grad"})
# ... and the ones that set its mode and return the instance itself: harmless as a statement of their own
_MODE_SETTERS = frozenset({"train", "eval", "requires_grad_"})


def _instances(funcs: dict, selfs: dict, interesting: set, clones=frozenset(), bases=None, inherit=None) -> dict:
    """class -> {attr: [callee, "one" | "many", construction sites, mentions of self.attr]} for instances of
    project classes kept on self and otherwise only called (directly, indexed, or as a loop variable that is only
    called) or counted (`len`). A subclass of the file (`bases`: class -> base names) that never stores the
    attribute and only calls or counts what its base keeps adds its mentions to the base's entry, and `inherit`
    (subclass -> {attr: base}) records that its calls through self reach the base's instances."""
    made: dict = {}  # (cls, attr) -> [set of (callee, kind), sites, mentions]; None once used or set otherwise
    for name, fn in funcs.items():
        me = selfs.get(name)
        if me is None:
            continue
        cls = name.split(".", 1)[0]
        init_params = _init_params(fn)
        held = None  # _held_constructions of the method, worked out when it keeps a local on self
        # One walk: each use of `self.attr` is judged from the node holding it, seen before the attribute itself
        # (ast.walk goes breadth first), so a holder marks the attributes it uses well.
        fine: dict = {}  # id(Attribute) -> what storing there makes ((callee, kind), () or _POISON), or None: a call
        for node in walk(fn):
            t = type(node)
            if t is ast.Call:
                func = node.func
                tf = type(func)
                if _is_self_attr(func, me):
                    fine[id(func)] = None
                elif tf is ast.Subscript and _is_self_attr(func.value, me):
                    fine[id(func.value)] = None
                elif tf is ast.Name and func.id == "len" and len(node.args) == 1 and _is_self_attr(node.args[0], me):
                    fine[id(node.args[0])] = None
                elif tf is ast.Attribute and func.attr in _INSPECTIONS and _is_self_attr(func.value, me):
                    # `self.transformer.named_parameters()`, `.state_dict()`, `.load_state_dict(d)`: the module's
                    # weights read or set, no forward run and the instance handed nowhere (RewardMachines-torch's
                    # TransformerSyn freezing its encoder, fresh81)
                    fine[id(func.value)] = None
            elif t is ast.Expr and type(node.value) is ast.Call and type(node.value.func) is ast.Attribute \
                    and node.value.func.attr in _MODE_SETTERS and _is_self_attr(node.value.func.value, me):
                fine[id(node.value.func.value)] = None  # `self.encoder.eval()`: the result is dropped
            elif t is ast.Expr and type(node.value) is ast.Call and type(node.value.func) is ast.Attribute \
                    and node.value.func.attr == "append" and _is_self_attr(node.value.func.value, me):
                call = node.value
                d = dotted(call.args[0].func) if len(call.args) == 1 and not call.keywords \
                    and type(call.args[0]) is ast.Call else None
                fine[id(call.func.value)] = (d, "many") if d is not None and d.split(".", 1)[0] in interesting \
                    else _POISON
            elif t is ast.Assign and len(node.targets) == 1 and _is_self_attr(node.targets[0], me):
                kept = _param_kept(node.value, init_params, clones) if init_params else None
                if kept is None and type(node.value) is ast.Name:
                    if held is None:
                        held = _held_constructions(fn, interesting)
                    if node.value.id in held:
                        kept = (held[node.value.id], "one")  # `transformer = Transformer(...)`, then kept on self
                if kept is None and type(node.value) is ast.Call:
                    got = _listed(node.value, fn, interesting)
                    if got is not None:
                        kept = (got, "many")  # `blocks.append(Layer(...))` ..., `self.blocks = nn.ModuleList(blocks)`
                fine[id(node.targets[0])] = kept if kept is not None else _stored(node.value, interesting)
            elif t in (ast.For, ast.AsyncFor) and _loop_over(node, me) is not None:
                if _only_called_in(node):
                    fine[id(_loop_over(node, me)[1])] = None
            elif t is ast.Attribute and type(node.value) is ast.Subscript and _is_self_attr(node.value.value, me) \
                    and type(node.ctx) is ast.Load:
                # `self.layers[0].linear2.out_features`: a member of an element read, nothing handed on or run
                fine[id(node.value.value)] = None
            elif t is ast.Attribute and _is_self_attr(node, me):
                key = (cls, node.attr)
                if key in made and made[key] is None:
                    continue
                if id(node) not in fine:
                    made[key] = None  # read or written some other way
                    continue
                got = fine[id(node)]
                if got == _POISON:
                    made[key] = None
                    continue
                entry = made.setdefault(key, [set(), 0, 0])
                entry[2] += 1
                if got:
                    entry[0].add(got)
                    entry[1] += 1
    out: dict = {}
    for (cls, attr), got in made.items():
        if got is not None and len(got[0]) == 1 and len(out.get(cls, ())) < 64:
            callee, kind = next(iter(got[0]))
            out.setdefault(cls, {})[attr] = [callee, kind, got[1], got[2]]
    if bases and inherit is not None:
        for (cls, attr), got in made.items():
            if got is None or got[0] or not got[2] or attr in out.get(cls, ()):
                continue
            holders = [b for b in bases.get(cls, ()) if attr in out.get(b, ())]
            if len(holders) == 1:
                out[holders[0]][attr][3] += got[2]
                inherit.setdefault(cls, {})[attr] = holders[0]
    return out


def _held_constructions(fn, interesting: set) -> dict:
    """name -> project callee for the locals the function binds once to a construction of a project name and
    otherwise only reads attributes of (MaskFormer's `transformer = Transformer(...)`, `self.transformer =
    transformer`, `hidden_dim = transformer.d_model`): kept on self, the instance is only what self holds."""
    made = {v: c for v, (c, _r, param) in _bound_constructions(fn).items()
            if not param and c.split(".", 1)[0] in interesting}
    if not made:
        return {}
    parents: dict = {}
    for node in walk(fn):
        for child in ast.iter_child_nodes(node):
            if type(child) is ast.Name and child.id in made:
                parents[id(child)] = node
    for node in walk(fn):
        if type(node) is ast.Name and node.id in made and type(node.ctx) is ast.Load:
            up = parents.get(id(node))
            if type(up) is ast.Attribute and up.value is node:
                continue  # `transformer.d_model`
            if type(up) is ast.Assign and up.value is node and len(up.targets) == 1 \
                    and type(up.targets[0]) is ast.Attribute and type(up.targets[0].value) is ast.Name:
                continue  # `self.transformer = transformer` (once: a second store keeps it twice)
            made.pop(node.id, None)
    kept: dict = {}
    for node in walk(fn):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.value) is ast.Name \
                and node.value.id in made:
            kept[node.value.id] = kept.get(node.value.id, 0) + 1
    return {v: c for v, c in made.items() if kept.get(v) == 1}


def _appended_lists(fn, interesting: set) -> dict:
    """name -> project callee for the locals the function binds once to `[]` and otherwise only appends
    constructions of that one project name to (`blocks = []`, `for _ in range(n): blocks.append(Layer(...))`) or
    hands whole to a list module (`self.blocks = nn.ModuleList(blocks)`, SimpleAICV's DETR layers)."""
    empty = {n.targets[0].id for n in walk(fn) if type(n) is ast.Assign and len(n.targets) == 1
             and type(n.targets[0]) is ast.Name and type(n.value) is ast.List and not n.value.elts}
    if not empty:
        return {}
    callee: dict = {}
    appends: set = set()  # ids of the Name nodes the appends read
    for n in walk(fn):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "append" \
                and type(n.func.value) is ast.Name and n.func.value.id in empty:
            name = n.func.value.id
            d = dotted(n.args[0].func) if len(n.args) == 1 and not n.keywords and type(n.args[0]) is ast.Call \
                else None
            if d is None or d.split(".", 1)[0] not in interesting or callee.get(name, d) != d:
                empty.discard(name)
            callee[name] = d
            appends.add(id(n.func.value))
    stores: dict = {}
    handed: dict = {}
    for n in walk(fn):
        if type(n) is ast.Name and n.id in empty:
            if type(n.ctx) is not ast.Load:
                stores[n.id] = stores.get(n.id, 0) + 1
            elif id(n) not in appends:
                handed[n.id] = handed.get(n.id, 0) + 1
    return {v: callee[v] for v in empty if v in callee and stores.get(v) == 1 and handed.get(v) == 1}


def _listed(v, fn, interesting: set):
    """The callee of `nn.ModuleList(blocks)` / `nn.Sequential(*blocks)` over a list of `_appended_lists` of the
    function `fn` (whose body is walked only for a value of that shape)."""
    if type(v) is not ast.Call or v.keywords or len(v.args) != 1:
        return None
    d = dotted(v.func)
    last = d.rsplit(".", 1)[-1] if d is not None else None
    a = v.args[0]
    if last in _LISTS and type(a) is ast.Name or last in _SEQUENCES and type(a) is ast.Starred \
            and type(a.value) is ast.Name:
        return _appended_lists(fn, interesting).get(a.id if type(a) is ast.Name else a.value.id)
    return None


def _is_self_attr(node, me: str) -> bool:
    return type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == me


def _stored(v, interesting: set):
    """What `self.attr = v` keeps: (callee, "one"), (callee, "many") for a list of constructions, () for an empty
    list (appended to later), _POISON for anything else."""
    if type(v) is ast.List and not v.elts:
        return ()
    if type(v) is not ast.Call:
        return _POISON
    d = dotted(v.func)
    if d is not None and d.split(".", 1)[0] in interesting:
        return (d, "one")
    last = d.rsplit(".", 1)[-1] if d is not None else None
    if last in _LISTS:
        if not v.args and not v.keywords:
            return ()
        if len(v.args) == 1 and not v.keywords:
            return _many(_elements(v.args[0]), interesting)
    elif last in _SEQUENCES and v.args and not v.keywords:
        # nn.Sequential(*[Layer(...) for _ in range(n)]) or nn.Sequential(Layer(...), Layer(...)): a stack of
        # layers looped over (`for layer in self.layers: x = layer(x)`) like a ModuleList
        return _many([e for a in v.args for e in (_elements(a.value) if type(a) is ast.Starred else [a])],
                     interesting)
    return _POISON


def _elements(inner) -> list:
    """The constructions a list display or comprehension holds ([None] for anything else)."""
    return inner.elts if type(inner) is ast.List else [inner.elt] if type(inner) is ast.ListComp else [None]


def _many(elts: list, interesting: set):
    kinds = {dotted(e.func) if type(e) is ast.Call else None for e in elts}
    if len(kinds) == 1 and None not in kinds and next(iter(kinds)).split(".", 1)[0] in interesting:
        return (next(iter(kinds)), "many")
    return _POISON


def _only_called_in(loop) -> bool:
    """The loop variable of `for x in self.attr:` (or `for i, x in enumerate(self.attr):`) is a plain name used in
    the loop only by calling it."""
    target = loop.target
    if type(target) is ast.Tuple and len(target.elts) == 2:
        target = target.elts[1]
    if type(target) is not ast.Name:
        return False
    var = target.id
    calls = set()
    names = []
    for st in (*loop.body, *loop.orelse):
        for n in walk(st):
            if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == var:
                calls.add(id(n.func))
            elif type(n) is ast.Call and type(n.func) is ast.Attribute and type(n.func.value) is ast.Name \
                    and n.func.value.id == var:
                return False  # `layer.other_method(...)` runs another method of the element, not its forward
            elif type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id == var \
                    and type(n.ctx) is ast.Load:
                calls.add(id(n.value))  # `layer.nhead` read (3detr's encoder): a member, nothing handed on
            elif type(n) is ast.Name and n.id == var:
                names.append(n)
            elif type(n) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
                return False  # (a closure may keep it)
    return all(id(n) in calls and type(n.ctx) is ast.Load for n in names)


_POISON = ("?", "?")


def passed(params: list, fname: str, call: list, param: str):
    """What a recorded call passes for a parameter of the function (`params` as in its signature): a literal's
    source, `=p`, `?`, or None when it leaves it out; "*" when a spread may hold it."""
    if "." in fname and params:
        params = params[1:]  # the instance (or class) is not passed
    if param not in params:
        return "*"
    i = params.index(param)
    star = next((j for j, p in enumerate(params) if p.startswith("*") and not p.startswith("**")), len(params))
    args, kws = call[6], call[7]
    if "*" in args[:min(i, star) + 1] or "**" in kws:
        return "*"
    if i < star and i < len(args):
        return args[i]
    return kws.get(param)
