"""The project-wide link step: cached per-file summaries -> findings where a flagged value enters.

Runs once in the main process after every file is in. It maps the project's Python files to module
names (relative imports, `__init__.py` packages, `src/` layouts, several top-level packages), then
for each recorded call that names something of the project's own it builds a tiny stand-alone
snippet in which the project's names are replaced by what they resolve to (a literal, or the
external API a re-export or alias stands for) and asks the ordinary engine about it. A rule that
fires on the resolved snippet but not on the unresolved one is reported at the call, with the chain
of places the value went through. Wrappers are followed into the function body with the caller's
literal arguments bound to its parameters.

Bounded: at most MAX_DEPTH wrapper levels and MAX_HOPS import hops; a cycle ends the chain; a name
that does not resolve to exactly one literal or one external name is left as it is (never guessed).
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import PurePosixPath

from .cpu_less_sources import cpu_less
from .summary import Compacted, _local_root, dotted, head_of, literal_source, unpack_list

MAX_DEPTH = 3
MAX_HOPS = 8
_NO_CALLERS = {"sigs": {}}
TREES = 256  # parsed expressions the link step keeps (Linker.tree)
EVALUATED = 512  # evaluate() answers it keeps


@dataclass(frozen=True)
class Const:
    source: str
    chain: tuple  # ((rel, line, text), ...)


@dataclass(frozen=True)
class External:
    qualname: str
    chain: tuple


@dataclass(frozen=True)
class Func:
    module: str
    name: str


@dataclass(frozen=True)
class Module:
    name: str


@dataclass(frozen=True)
class Class:
    module: str
    name: str


_LAST_NAMES: list = [None, None]  # (rels, their module names) of the last call: the link step and the
# imported-flags step of one scan ask for the same files


def module_names(rels) -> dict:
    """rel path -> dotted module names it can be imported as (from the root, and from every
    directory above its package, e.g. below src/). Callers must not change the answer."""
    rels = [r for r in rels if r.endswith(".py")]
    if rels == _LAST_NAMES[0]:
        return _LAST_NAMES[1]
    _LAST_NAMES[0], _LAST_NAMES[1] = rels, _module_names(rels)
    return _LAST_NAMES[1]


def _module_names(rels: list) -> dict:
    inits = {str(PurePosixPath(r).parent) for r in rels if r.endswith("/__init__.py") or r == "__init__.py"}
    out = {}
    for r in rels:
        p = PurePosixPath(r)
        parts = list(p.parent.parts) if p.name == "__init__.py" else [*p.parent.parts, p.stem]
        names = []
        # Every directory above the file's outermost package is a possible import root.
        d = list(p.parent.parts)
        start = len(d)
        while start > 0 and "/".join(d[:start]) in inits:
            start -= 1
        for s in range(0, start + 1):
            if parts[s:] and all(x.isidentifier() for x in parts[s:]):
                names.append(".".join(parts[s:]))
        out[r] = names
    return out


def _folder_key(folder: str, module: str) -> str:
    """The module name a folder's own `module.py` answers to when other folders hold one of that name too: the
    folder spelled without dots (the name is split at dots into package and attribute) before `::`."""
    return folder.replace(".", "\x00") + "::" + module


class ModuleMap:
    """The project's files by module name, and relative imports made absolute. Reading it touches no summary."""

    def __init__(self, summaries):
        self.summaries = summaries  # rel -> summary
        self.mods: dict = {}  # module name -> rel
        clash: set = set()
        names_of = module_names(summaries)
        for rel, names in names_of.items():
            for n in names:
                if n in self.mods and self.mods[n] != rel:
                    clash.add(n)
                self.mods[n] = rel
        # A name two files claim is kept for the one it names from the scan root (`sparseinst` for
        # `sparseinst/__init__.py`), when exactly one does; the other claims it from a folder below the root
        # (`mindspore/sparseinst/`, a port kept beside it), which a script in that folder puts first on sys.path:
        # its imports are resolved from there (`roots`). Otherwise never guess which one an import means.
        self.roots: set = set()  # folders below the scan root that another claim of a clashing name starts from
        for n in clash:
            canon = [rel for rel, names in names_of.items() if names and names[0] == n]
            if len(canon) == 1:
                self.mods[n] = canon[0]
                for rel, names in names_of.items():
                    if rel != canon[0] and n in names[1:]:
                        full = names[0]
                        if full.endswith("." + n):
                            self.roots.add(full[:-len(n) - 1].replace(".", "/"))
            else:
                del self.mods[n]
                # Scripts side by side in folders of their own (`a/main.py` + `a/train.py`, `b/main.py` +
                # `b/train.py`): Python puts a script's folder first on sys.path, so `from train import x` in
                # `a/main.py` means `a/train.py`. The claim is kept per folder (`absolute` asks for it from the
                # importing file's folder), under a name no other import spells.
                for rel, names in names_of.items():
                    if names and names[-1] == n:
                        folder = str(PurePosixPath(rel).parent)
                        if rel.endswith("__init__.py"):
                            folder = str(PurePosixPath(folder).parent)
                        for _ in n.split(".")[1:]:
                            folder = str(PurePosixPath(folder).parent)
                        self.mods[_folder_key(folder, n)] = rel
        self.rel_mod: dict = {}
        for n, rel in self.mods.items():
            self.rel_mod.setdefault(rel, n)

    def absolute(self, rel: str, module: str, level: int) -> str | None:
        if not level:
            if self.roots and module:
                # `from sparseinst import x` in `mindspore/test.py`: that folder's own `sparseinst` comes first
                here = str(PurePosixPath(rel).parent)
                for root in sorted(self.roots, key=len, reverse=True):
                    if (here == root or here.startswith(root + "/")) and f"{root.replace('/', '.')}.{module}" \
                            in self.mods:
                        return f"{root.replace('/', '.')}.{module}"
            if module in self.mods or not module:
                return module
            # a name several folders claim, imported by a file of one of them (a script beside its module)
            own = _folder_key(str(PurePosixPath(rel).parent), module)
            if own in self.mods:
                return own
            # `import network` beside network.py in a package: Python 2's implicit relative import (py-faster-rcnn
            # and its copies), or a script's own folder on sys.path; only when no module of that name is absolute
            here = self.rel_mod.get(rel)
            if here is not None:
                pkg = here.split(".") if rel.endswith("__init__.py") else here.split(".")[:-1]
                sibling = ".".join([*pkg, module])
                if pkg and sibling in self.mods:
                    return sibling
            return module
        here = self.rel_mod.get(rel)
        if here is None:
            return None
        pkg = here.split(".") if rel.endswith("__init__.py") else here.split(".")[:-1]
        if level - 1 > len(pkg):
            return None
        base = pkg[:len(pkg) - (level - 1)]
        return ".".join([*base, *([module] if module else [])])

    def imported_from(self, summary: dict, rel: str, name: str) -> tuple | None:
        """(defining file, its name) of `name` that module `rel` (with its `summary`) imports from a project module
        (`from .flags import HAS_CUDA as ok`: (flags.py, "HAS_CUDA")); None for a module imported whole, a name
        the file does not import, or a module outside the project."""
        imp = summary["imports"].get(name)
        if imp is None or imp[2] is None:
            return None
        target = self.absolute(rel, imp[0], imp[1])
        if target in self.mods:
            return self.mods[target], imp[2]
        if not imp[1] and target:
            # two files claim the module name (`utils/engine.py` and `deprecated/utils/engine.py`, a folder that is
            # no package): a script imports the one below its own folder, which Python puts first on sys.path
            folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
            path = folder + target.replace(".", "/")
            for cand in (path + ".py", path + "/__init__.py"):
                if cand in self.summaries:
                    return cand, imp[2]
        return None


class Linker(ModuleMap):
    def __init__(self, summaries, scan, memo=None, needles=()):
        super().__init__(summaries)
        self.needles = frozenset(needles)  # literal values the rules' argument predicates look for
        self._owners = None
        self._below: dict | None = None  # module name -> files of it and of the modules below it
        self._rel_names: dict = {}
        self.scan = scan  # snippet text -> findings of the ordinary per-file pass
        self.read_source = None  # rel -> any scanned file's text or None (C++ sources of fallback builds)
        self.source_listing: tuple = ()  # the project-relative paths scanned (globbed sources of fallback builds)
        # (rel, line, column) of each build picked with a C++ fallback that gives no operator (cpu_less_sources)
        self.cpu_less_builds: set = set()
        self.memo = memo  # (key) -> list or None; put(key, list)
        self._engine_cache: dict = {}
        self._resolved: dict = {}  # (rel, dotted name) -> (what it resolves to, files consulted)
        self.touched: set = set()  # files whose summaries the current file's links consulted
        self._attr_aliases: dict | None = None
        self._flagged_of: dict = {}  # module -> its (function, parameter) with flagged defaults (link._left_out)
        # expression text -> its syntax tree: the same call sources are evaluated again and again (18,192 parses of
        # 3,400 texts on diffusers/src), a wrapper's body once per caller. Shared, so never changed in place
        # (substitute builds new nodes); the last TREES only, as keeping every tree doubled the step's peak memory.
        self.tree = functools.lru_cache(maxsize=TREES)(_parse)
        self._evaluated: dict = {}  # evaluate()'s arguments -> (its answer, files consulted)
        self._defined: dict = {}  # (module, name) -> (file defining it, its name there): _defining
        self._imports: dict = {}  # file -> its summary's imports, while _defining walks them

    def forget(self) -> None:
        """Drop what only spares work while linking (resolutions, the snippets' verdicts, decoded summaries):
        the steps after the link ask the linker little, and the next one parses whole files."""
        self._resolved = {}
        self._engine_cache = {}
        self._flagged_of = {}
        self.tree.cache_clear()
        self._evaluated = {}
        if isinstance(self.summaries, Compacted):
            self.summaries.forget()

    @property
    def attr_aliases(self) -> dict:
        """`pkg.attr = a.b` assignments by attribute name: looked up when a module lacks a name. Built on
        first use: it reads every summary, and a warm re-scan with every file's links stored needs none."""
        if self._attr_aliases is None:
            self._attr_aliases, self._owners = self._project_tables()
        return self._attr_aliases

    def _project_tables(self) -> tuple[dict, dict]:
        """The attribute-alias table and the class-attribute owners, built in one pass over every summary
        (only the fields they read decoded, `head_of`) when either is first needed."""
        aliases: dict = {}
        owners: dict = {}
        for other in self.summaries:
            s = head_of(self.summaries, other)
            for target, (line, value) in s["aliases"].items():
                if "." in target:
                    aliases.setdefault(target.rsplit(".", 1)[1], []).append((other, target, line, value))
            for cname, attrs in s["classes"].items():
                for a, (line, lit) in attrs.items():
                    owners.setdefault(a, []).append((other, cname, line, lit))
        return aliases, owners

    # ---------------------------------------------------------------- name resolution
    def lookup(self, rel: str, name: str, hops: int, seen: frozenset):
        """What `name` is at module level of file `rel`: Const, External, Func, Class, Module or None."""
        if hops > MAX_HOPS or (rel, name) in seen:
            return None
        self.touched.add(rel)
        seen = seen | {(rel, name)}
        s = self.summaries[rel]
        if name in s["consts"]:
            line, src = s["consts"][name]
            return Const(src, ((rel, line, f"{name} = {src}"),))
        if name in s["funcs"]:
            return Func(rel, name)
        if name in s["classes"] or name in s["stores"] or any(k.startswith(name + ".") for k in s["funcs"]):
            return Class(rel, name)
        if name in s["aliases"]:
            line, target = s["aliases"][name]
            r = self.expr(rel, target, hops + 1, seen)
            return _with_step(r, (rel, line, f"{name} = {target}"))
        if name in s["imports"]:
            mod, level, imported = s["imports"][name]
            target = self.absolute(rel, mod, level)
            if target is None:
                return None
            if imported is None:  # import a.b [as c]
                return Module(target) if target in self.mods else External(target, ())
            sub = f"{target}.{imported}" if target else imported
            if target in self.mods:
                r = self.lookup(self.mods[target], imported, hops + 1, seen)
                if r is None and sub in self.mods:
                    return Module(sub)
                return r
            if sub in self.mods:
                return Module(sub)
            if level:
                return None  # a relative import the project does not hold
            return External(sub, ((rel, None, f"from {mod} import {imported}"),))
        # `from .ops import *`: only project modules are followed (a library's star export is unknown)
        for mod, level in s["stars"]:
            target = self.absolute(rel, mod, level)
            if target in self.mods:
                r = self.lookup(self.mods[target], name, hops + 1, seen)
                if r is not None:
                    return r
        # `pkg.attr = torch.x` assigned in some other module of the project
        found = self._assigned_attr(rel, name, hops, seen)
        if found is None:
            # a function that passes nothing on (no `funcs` entry) or a class without methods that do: known from
            # the callers record, and only when nothing else binds the name (an import, an alias)
            rec = s.get("callers") or _NO_CALLERS
            if name in rec["sigs"]:
                return Func(rel, name)
            if name in rec.get("bases", ()):
                return Class(rel, name)
        return found

    def _assigned_attr(self, rel, name, hops, seen):
        for other, target, line, value in self.attr_aliases.get(name, ()):
            owner = self.expr(other, target.rsplit(".", 1)[0], hops + 1, seen)
            if isinstance(owner, Module) and self.mods.get(owner.name) == rel:
                r = self.expr(other, value, hops + 1, seen)
                return _with_step(r, (other, line, f"{target} = {value}"))
        return None

    def expr(self, rel: str, text: str, hops: int, seen: frozenset = frozenset()):
        if hops or seen:
            return self._expr(rel, text, hops, seen)
        key = (rel, text)
        if key not in self._resolved:
            outer, self.touched = self.touched, set()
            r = self._expr(rel, text, 0, seen)
            self._resolved[key] = (r, self.touched)
            self.touched = outer
        r, touched = self._resolved[key]
        self.touched |= touched
        return r

    def _expr(self, rel: str, text: str, hops: int, seen: frozenset):
        parts = text.split(".")
        r = self.lookup(rel, parts[0], hops, seen)
        for attr in parts[1:]:
            if r is None:
                return None
            if isinstance(r, External):
                r = External(f"{r.qualname}.{attr}", r.chain)
            elif isinstance(r, Module):
                name = r.name
                target = self.mods.get(name)
                r = self.lookup(target, attr, hops + 1, seen) if target else None
                if r is None and f"{name}.{attr}" in self.mods:
                    r = Module(f"{name}.{attr}")
            elif isinstance(r, Class):
                attrs = self.summaries[r.module]["classes"].get(r.name, {})
                if attr not in attrs:
                    method = f"{r.name}.{attr}"
                    return Func(r.module, method) if method in self.summaries[r.module]["funcs"] else None
                line, src = attrs[attr]
                r = Const(src, ((r.module, line, f"{r.name}.{attr} = {src}"),))
            else:
                return None
        return r

    # ---------------------------------------------------------------- snippets
    def external_imports(self, rel: str) -> list[str]:
        """The file's imports of names outside the project, as statements for a stand-alone snippet."""
        out = []
        for local, (mod, level, name) in self.summaries[rel]["imports"].items():
            if level:
                continue
            if name is None:
                if mod.split(".", 1)[0] in self.mods or mod in self.mods:
                    continue
                out.append(f"import {mod} as {local}" if local != mod.split(".", 1)[0] else f"import {mod}")
            elif mod not in self.mods and f"{mod}.{name}" not in self.mods:
                out.append(f"from {mod} import {name} as {local}" if local != name else f"from {mod} import {name}")
        return out

    def substitute(self, rel: str, call: ast.Call, values: dict, resolve: bool, chain: list):
        """Replace parameter names (values) and, when resolve, project names by what they stand for.
        Returns (the call with them replaced, whether anything was), a new node: `call` is left as it is (a
        shared tree of self.tree); steps of resolved project names go into chain."""
        changed = False
        imports_needed = []
        qualnames = []

        def repl(node):
            nonlocal changed
            if type(node) is ast.IfExp:
                # `mixed_precision_type if amp else "no"`: either arm may be passed; the test stays as written
                return ast.IfExp(test=node.test, body=repl(node.body), orelse=repl(node.orelse))
            d = dotted(node)
            if d is None:
                return node
            if d in values:
                changed = True
                return self.tree(values[d])
            if not resolve:
                return node
            r = self.expr(rel, d, 0)
            if isinstance(r, Const):
                changed = True
                chain.extend(r.chain)
                return self.tree(r.source)
            if isinstance(r, External) and r.qualname != self._plain(rel, d):
                changed = True
                chain.extend(r.chain)
                mod = r.qualname.rsplit(".", 1)[0] if "." in r.qualname else r.qualname
                imports_needed.append(mod)
                qualnames.append(r.qualname)
                return self.tree(r.qualname)
            return node

        func = repl(call.func)
        args = [ast.Starred(repl(a.value), a.ctx) if isinstance(a, ast.Starred) else repl(a) for a in call.args]
        spread = []
        for k in call.keywords:
            d = dotted(k.value) if k.arg is None else None
            if d is not None and f"**{d}" in values:  # `**kwargs` of a wrapper: the caller's keywords
                changed = True
                spread += self.tree(values[f"**{d}"]).keywords
                continue
            spread.append(ast.keyword(arg=k.arg, value=repl(k.value)))
        self._imports_needed, self._qualnames = imports_needed, qualnames
        return ast.Call(func=func, args=args, keywords=spread), changed

    def _plain(self, rel: str, d: str) -> str | None:
        """The external name `d` stands for through the file's own import alone (no project step)."""
        head, _, rest = d.partition(".")
        imp = self.summaries[rel]["imports"].get(head)
        if imp is None or imp[1]:
            return None
        mod, _, name = imp
        base = mod if name is None else f"{mod}.{name}"
        return f"{base}.{rest}" if rest else base

    # ---------------------------------------------------------------- engine
    def rules_for(self, text: str) -> dict:
        """rule id -> (message, confidence, guarded) the engine reports on a stand-alone snippet."""
        if text in self._engine_cache:
            return self._engine_cache[text]
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        stored = self.memo.get(key) if self.memo else None
        if stored is None:
            findings = self.scan(text)
            last = text.count("\n") + 1
            stored = {f.rule: [f.message, f.confidence, f.guarded] for f in findings if f.line == last}
            if self.memo:
                self.memo.put(key, stored)
        out = {r: tuple(v) for r, v in stored.items()}
        self._engine_cache[text] = out
        return out

    def evaluate(self, rel: str, src: str, values: dict, defaults: dict, inner: bool, depth: int,
                 stack: frozenset) -> list:
        """[(rule, message, confidence, guarded, chain)] a call in file rel gains from values. Half the calls
        of a project repeat an earlier one (a wrapper's body evaluated for every caller passing the same
        value): answered from a memo, with the files the first evaluation consulted (`touched`)."""
        key = (rel, src, frozenset(values.items()), frozenset(defaults.items()), inner, depth, stack)
        found = self._evaluated.get(key)
        if found is None:
            outer, self.touched = self.touched, set()
            try:
                found = (self._evaluate(rel, src, values, defaults, inner, depth, stack), self.touched)
            finally:
                self.touched = outer | self.touched
            if len(self._evaluated) >= EVALUATED:
                del self._evaluated[next(iter(self._evaluated))]  # the oldest: memory stays flat
            self._evaluated[key] = found
        else:
            self.touched |= found[1]
        return list(found[0])

    def _evaluate(self, rel: str, src: str, values: dict, defaults: dict, inner: bool, depth: int,
                  stack: frozenset) -> list:
        try:
            call = self.tree(src)
        except (SyntaxError, ValueError, RecursionError):
            return []
        if not isinstance(call, ast.Call):
            return []
        name = dotted(call.func)
        callee = self.expr(rel, name, 0) if name else None
        if isinstance(callee, External) and callee.qualname == "functools.partial" and call.args \
                and not isinstance(call.args[0], ast.Starred):
            # partial(f, *a, **k) fixes those arguments of every later call of f through it
            call = ast.Call(func=call.args[0], args=call.args[1:], keywords=call.keywords)
            src = ast.unparse(call)
            name = dotted(call.func)
            callee = self.expr(rel, name, 0) if name else None
        if isinstance(callee, (Func, Class)):
            go = self._into if isinstance(callee, Func) else self._construct
            got = go(rel, call, callee, values, depth, stack)
            if not got or not inner:
                return got
            # Inside a wrapper: what the wrapper's own defaults cause is not the caller's doing. The
            # same call with only the baseline values (the caller's arguments unknown) tells which is.
            before = {r for r, *_ in go(rel, self.tree(src), callee, defaults, depth, stack)}
            return [g for g in got if g[0] not in before]
        chain: list = []
        full, changed = self.substitute(rel, call, values, True, chain)
        if not changed:
            return []
        needed, qualnames = self._imports_needed, self._qualnames
        base, _ = self.substitute(rel, self.tree(src), defaults, inner, [])
        imports = self.external_imports(rel) + [f"import {m}" for m in needed]
        head = "\n".join(imports)
        got = self.rules_for(f"{head}\n{ast.unparse(full)}")
        if not got:
            return []
        before = set(self.rules_for(f"{head}\n{ast.unparse(base)}"))
        # A re-export or alias whose name alone is flagged was reported where it was written: the
        # value entered there, not at each call.
        for mod, qualname in zip(needed, qualnames):
            before |= set(self.rules_for(f"import {mod}\n{qualname}"))
        return [(r, m, c, g, list(chain)) for r, (m, c, g) in got.items() if r not in before]

    def _bind(self, rel, call, params, values) -> dict:
        """The caller's literal (or literal-resolving) arguments bound to the callee's parameters."""
        bound = {}
        star = params[-1] if params and params[-1].startswith("**") else None
        named = params[:-1] if star else params
        extra = []
        for p, a in zip(named, call.args):
            if isinstance(a, ast.Starred):
                break
            lit = _value(a, values, rel, self)
            if lit is not None:
                bound[p] = lit
        for k in call.keywords:
            if f"={k.arg}" in named:
                continue  # a parameter the callee assigns before reading it (summary.overwritten)
            if k.arg in named:
                lit = _value(k.value, values, rel, self)
                if lit is not None:
                    bound[k.arg] = lit
            elif star and k.arg:  # collected by the wrapper's **kwargs
                lit = _value(k.value, values, rel, self)
                if lit is not None:
                    extra.append(f"{k.arg}={lit}")
        if extra:
            # the wrapper's `**kwargs` stands for these keywords (as `f(**kwargs)` would spread them)
            bound[star] = "dict(" + ", ".join(extra) + ")"
        return bound

    def _construct(self, rel, call, cls: Class, values, depth, stack) -> list:
        """`Interpolate(mode="bilinear")`: the arguments bound to __init__'s parameters, followed into
        __init__'s own calls and into every method call reading what __init__ kept on self."""
        s = self.summaries[cls.module]
        init = s["funcs"].get(f"{cls.name}.__init__")
        if init is None or depth >= MAX_DEPTH or (cls.module, cls.name) in stack:
            return []
        self.touched.add(cls.module)
        _line, params, defaults, _calls, _places = init
        if not params:
            return []
        bound = self._bind(rel, call, params[1:], values)
        if not bound:
            return []
        kept = s["stores"].get(cls.name, {})
        out = []
        inner = stack | {(cls.module, cls.name)}
        for name, (_l, mparams, _d, calls, _p) in s["funcs"].items():
            if not name.startswith(cls.name + ".") or not mparams:
                continue
            me = mparams[0]
            if name.endswith(".__init__"):
                full = {**defaults, **bound}
                base = {k: v for k, v in defaults.items() if k not in bound}
            else:
                full, base = {}, {}
                for attr, (kind, value) in kept.items():
                    key = f"{me}.{attr}"
                    if kind == "alias":
                        full[key] = base[key] = value
                    elif value in bound:
                        full[key] = bound[value]
                    elif value in defaults:
                        full[key] = base[key] = defaults[value]
            for cline, _col, csrc, *_arms in calls:
                for r, m, c, g, chain in self.evaluate(cls.module, csrc, full, base, True, depth + 1, inner):
                    out.append((r, m, c, g, [(cls.module, cline, _callee_text(csrc)), *chain]))
        return out

    def _into(self, rel, call, fn: Func, values, depth, stack) -> list:
        if depth >= MAX_DEPTH or (fn.module, fn.name) in stack:
            return []
        self.touched.add(fn.module)
        if fn.name not in self.summaries[fn.module]["funcs"]:
            return []  # it passes nothing on
        line, params, defaults, calls, _places = self.summaries[fn.module]["funcs"][fn.name]
        # a method (`Class.helper(...)`, also how `self.helper(...)` is recorded) takes self or cls first
        bound = self._bind(rel, call, params[1:] if "." in fn.name else params, values)
        if not bound:
            return []
        out = []
        known = {**defaults, **bound}
        for cline, _col, csrc, *arms in calls:
            if arms and not _arms_taken(arms, known):
                continue  # `make_resizer("PIL", ...)` never reaches the interpolate of its `library == "PyTorch"` arm
            # Baseline: the parameters the caller sets left unknown, the others at their defaults. A
            # value the caller passes explicitly is a place to change even when the default is the same.
            unset = {k: v for k, v in defaults.items() if k not in bound}
            for r, m, c, g, chain in self.evaluate(fn.module, csrc, {**defaults, **bound}, unset, True,
                                                   depth + 1, stack | {(fn.module, fn.name)}):
                here = (fn.module, cline, _callee_text(csrc))
                out.append((r, m, c, g, [here, *chain]))
        return out

    def may_gain(self, rel: str, names: list, passes_literal: bool) -> bool:
        """Whether a call naming `names` could change once project names are resolved: a project
        function given a literal, or a name standing for a literal or another module's library API."""
        for d in names:
            r = self.expr(rel, d, 0)
            if isinstance(r, (Func, Class)) and passes_literal or isinstance(r, Const):
                return True
            if isinstance(r, External) and r.qualname != self._plain(rel, d):
                return True
        return False

    def link(self, stored=None, store=None, noted=None) -> list:
        """[(rel, use, rule, message, confidence, guarded, chain)] for every call of the project.
        stored(rel) -> that file's links from an earlier run whose inputs are unchanged, or None;
        store(rel, files consulted, links) records a file's links. noted: rel -> (`exts`, `imported`) of
        each summary that has any, when the caller noted them aside (then no summary is unpacked for them)."""
        out = []
        built: dict = {}
        kernel_mods: dict = {}  # rel -> its exts entry for the kernels it defines
        imported: list = []
        for rel in sorted(self.summaries):
            if noted is None:
                s = self.summaries[rel]
                exts, imps = s.get("exts", ()), s.get("imported", ())
            else:
                exts, imps = noted.get(rel, ((), ()))
            for e in exts:
                if e[0] and len(e) > 7:
                    # a C++ fallback build: CUDA's only when its C++ sources serve CUDA tensors alone
                    read = self.read_source
                    if read is not None and e[0] not in built and cpu_less(rel, e[0], e[7], read, self.source_listing):
                        built[e[0]] = (rel, e[:7])
                        self.cpu_less_builds.add((rel, e[1], e[2] + 1))
                        for alias in built_aliases(rel, e):
                            built.setdefault(alias, (rel, e[:7]))
                elif e[0]:
                    built.setdefault(e[0], (rel, e))
                    for alias in built_aliases(rel, e):
                        built.setdefault(alias, (rel, e))
                else:
                    kernel_mods[rel] = e
            if imps:
                imported.append((rel, imps))
            # Stored links are asked for first: they exist only for a file that had something to link
            # and are valid only while its content (so its summary) is unchanged, and answering from
            # them needs no summary unpacked.
            got = stored(rel) if stored else None
            if got is None:
                s = self.summaries[rel]
                if not s["uses"] and not s["reads"] and not self._flagged_defaults(s) \
                        and not self._stored_defaults(s) and not (s.get("callers") or {}).get("calls"):
                    if store:  # nothing to link, recorded too: the next run need not unpack the summary
                        store(rel, {rel}, [])
                    continue
                self.touched = {rel}
                got = []
                for use in s["uses"]:
                    if not self.may_gain(rel, use[5], use[6]):
                        continue
                    for r, m, c, g, chain in self.evaluate(rel, use[4], {}, {}, False, 0, frozenset()):
                        got.append((rel, use, r, m, c, g, chain))
                got += self._defaults(rel)
                got += self._kept_defaults(rel)
                got += self._reads(rel)
                got += self._left_out(rel)
                if store:
                    store(rel, self.touched, got)
            out.extend(got)
        if built or kernel_mods:  # only then are the imports of every file read
            imported = [(rel, i) for rel, imps in imported for i in unpack_list(imps)]
        # top-level modules the project compiles from CUDA sources (`CUDAExtension("fftconv", ...)`): like a
        # CUDA-only package, never importable on a Trainium host
        self.built_roots = frozenset(n for n in built if "." not in n)
        if built:
            found = self._built_imports(built, imported)
            out += found
            # A module importing a built extension at its top runs that extension's kernels, and so does a
            # module importing it: it is a kernel module too (its first such import stands for it).
            for rel, use, rule, message, confidence, _g, _chain in found:
                if (use[1] == 0 or self._tried_build(rel, use[0])) and rel not in kernel_mods:
                    kernel_mods[rel] = ["", use[0], use[1], use[4], rule, confidence, message]
        if kernel_mods:
            out += self._kernel_imports(kernel_mods, imported)
            self._defined, self._imports = {}, {}
        return out

    def _tried_build(self, rel: str, line: int) -> bool:
        """The import at `line` sits in a module-level `try:` whose every handler re-raises or builds the module again
        with a JIT `load(...)` (pointnet2-style `try: import pkg._ext as _ext` / `except ImportError: _ext =
        load("_ext", sources=[... .cu])`): importing the file still needs the CUDA extension, as a top-level import
        does. A handler binding a fallback (`_ext = None`) leaves the import optional."""
        read = self.read_source
        text = read(rel) if read is not None else None
        if not text or "try" not in text:
            return False
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        for st in tree.body:
            if isinstance(st, ast.Try) and st.handlers and any(
                    isinstance(b, (ast.Import, ast.ImportFrom)) and b.lineno == line for b in st.body):
                return all(_rebuilds(h.body) for h in st.handlers)
        return False

    # ---------------------------------------------------------------- modules that define kernels
    def _kernel_imports(self, kernel_mods: dict, imported: list) -> list:
        """`from kernel import act_quant` where the project's kernel.py defines Triton kernels (or CUDA-only
        custom ops, CuPy/NVRTC kernels): the importing module runs them, so the import is reported with the
        kernel's rule and the kernel in the chain. One finding per importing file and kernel module (its first
        import of it); a file that defines kernels itself is left out (its own kernels are its items), and so
        are imports the project does not hold. Recomputed on every run, like _built_imports.

        Left out as well, since the kernel's own finding is already the item (readers called these duplicates):
        a file of the kernel's own package (a sibling module, or an `__init__.py` re-exporting from below it), and
        a test or benchmark of the kernel (scope test or benchmark). A file importing several kernel modules is
        one item: report.py folds the later modules' imports into the first one's finding once guards are known."""
        from ..scope import classify

        out = []
        done: dict = {}  # (importing file, kernel module) -> its use
        for rel, (line, col, end_line, end_col, mod, level, name) in imported:
            if rel in kernel_mods or classify(rel) in ("test", "benchmark"):
                continue
            base = self.absolute(rel, mod, level)
            if base is None:
                continue
            target, tname = self._defining(base, name)
            if target is None or target not in kernel_mods or _same_package(rel, target, self.summaries):
                continue
            # `from attention_dispatch import dispatch_attention_fn` where that module also defines a custom op
            # the function never reaches: the import runs no kernel (a whole-module import may, so it counts)
            reach = kernel_mods[target][7] if len(kernel_mods[target]) > 7 else None
            if reach is not None and tname is not None and tname not in reach:
                continue
            if (rel, target) in done:  # a further import of the same kernel module: its calls count too
                done[(rel, target)][7].append([line, col, mod, name])
                continue
            _n, kline, _c, ksrc, rule, confidence, message = kernel_mods[target][:7]
            text = f"from {'.' * level}{mod} import {name}" if name is not None else f"import {mod}"
            # the eighth field: the file's imports of this kernel module, whose calls become places of the finding;
            # the ninth: the packages the kernel module imports at module level (triton: the import fails where
            # they are missing, so an importer's `except ImportError:` fallback is taken there)
            roots = sorted({m.split(".", 1)[0] for m, lv, _i in self.summaries[target]["imports"].values() if not lv})
            use = [line, col, end_line, end_col, text, [], False, [[line, col, mod, name]], roots]
            done[(rel, target)] = use
            out.append((rel, use, rule, message, confidence, False, [(target, kline, ksrc)]))
        return out

    def _defining(self, base: str, name: str | None) -> tuple:
        """The project file an import reaches, and the name it binds there (None for the module itself):
        the module (`import pkg.kernels`, `from pkg import kernels`) or the one defining `name`, through
        `__init__` re-exports (at most MAX_HOPS, cycles end). (None, None) when the project holds neither."""
        if name is None:
            return self.mods.get(base), None
        # asked for every import of the project once any file defines kernels: the same few names come back
        key = (base, name)
        got = self._defined.get(key)
        if got is None:
            got = self._defined[key] = self._walk(base, name)
        return got

    def _imports_of(self, rel: str) -> dict:
        got = self._imports.get(rel)
        if got is None:
            got = self._imports[rel] = head_of(self.summaries, rel)["imports"]
        return got

    def _walk(self, base: str, name: str) -> tuple:
        seen: set = set()
        while len(seen) <= MAX_HOPS:
            sub = f"{base}.{name}" if base else name
            rel = self.mods.get(base)
            if rel is None:
                return self.mods.get(sub), None
            if (rel, name) in seen:
                return None, None
            seen.add((rel, name))
            imp = self._imports_of(rel).get(name)
            if imp is None:  # bound in that module itself (or a submodule of that name)
                if rel.endswith("__init__.py") and sub in self.mods:
                    return self.mods[sub], None
                return rel, name
            mod, level, imported = imp
            nxt = self.absolute(rel, mod, level)
            if nxt is None:
                return None, None
            if imported is None:
                return self.mods.get(nxt), None
            base, name = nxt, imported
        return None, None

    # ---------------------------------------------------------------- modules the project builds
    def _built_imports(self, built: dict, imported: list) -> list:
        """`import scaled_softmax_cuda`, `from pkg import _C`: an import of a module that a build call of the
        project (`CUDAExtension(name="pkg._C", sources=[... .cu])`, `load(name=...)`) compiles from CUDA
        sources is a use of those kernels, reported at the import with the build call in the chain. A name
        that is also one of the project's Python modules is that module, not the extension. Recomputed on
        every run (a cheap pass over recorded imports), so no link memo can go stale."""
        out = []
        for rel, (line, col, end_line, end_col, mod, level, name) in imported:
            base = self.absolute(rel, mod, level)
            if base is None:
                continue
            full = base if name is None else (f"{base}.{name}" if base else name)
            # `from pkg._C import fn` uses pkg._C; `from pkg import _C` and `import pkg._C` name it
            for cand in (full, base) if name is not None else (full,):
                # a name that is the importing file's own module (src/ops/fftconv.py: `from fftconv import
                # fftconv_fwd`, with src/ops as a possible import root) cannot be what the file imports: the build
                # (a torch.utils.ffi build writes a Python package of that name, the loader of its compiled library)
                if cand in built and (self.mods.get(cand, rel) == rel or _ffi_build(built[cand][1][3])):
                    brel, (_n, bline, _c, bsrc, rule, confidence, message) = built[cand]
                    if brel == rel:
                        continue  # the build script itself (an import check next to the build call)
                    text = f"from {'.' * level}{mod} import {name}" if name is not None else f"import {mod}"
                    # the tenth field: the build's place, where the report step folds this import; the eleventh:
                    # the import statement, whose calls of the module (`ext.gemv_forward_cuda(...)`) are its places
                    use = [line, col, end_line, end_col, text, [], False, [], [], [brel, bline],
                           [[line, col, mod, name]]]
                    out.append((rel, use, rule, message, confidence, False, [(brel, bline, f"{bsrc}(name={cand!r})")]))
                    break
        return out

    # ---------------------------------------------------------------- config components
    def dotted_path(self, path: str):
        """`pkg.mod.Name` as a config names it: the longest prefix that is a project module, then the
        name looked up there (through its imports and re-exports)."""
        parts = path.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod = ".".join(parts[:i])
            if mod in self.mods:
                r = self.lookup(self.mods[mod], parts[i], 0, frozenset())
                for attr in parts[i + 1:]:
                    r = External(f"{r.qualname}.{attr}", r.chain) if isinstance(r, External) else None
                return r, self.mods[mod]
        return None, None

    # ---------------------------------------------------------------- defaults
    def _flagged_defaults(self, s) -> list:
        """(function, parameter) whose literal default is a value some rule looks for."""
        out = []
        for fname, (_l, _ps, defaults, calls, places) in s["funcs"].items():
            if calls:
                out += [(fname, p) for p, v in defaults.items() if p in places and _needle(v, self.needles)]
        return out

    def _defaults(self, rel: str) -> list:
        """A wrapper whose parameter default is a flagged value and reaches a library API through
        another function of the project (`def init_dist(backend="nccl")` -> `_init(backend)` ->
        `init_process_group(backend=backend)`): reported at the default, which is what every call
        leaving the argument out runs with. A default used by a library call in the same function
        is already reported at that call by the per-file pass: only the default's place is noted."""
        s = self.summaries[rel]
        out = []
        for fname, p in self._flagged_defaults(s):
            _l, params, defaults, calls, places = s["funcs"][fname]
            base = {k: v for k, v in defaults.items() if k != p}
            line, col, end_line, end_col = places[p]
            use = [line, col, end_line, end_col, f"{fname.rsplit('.', 1)[-1]}({p}={defaults[p]})", [], True]
            note = [line, col, end_line, p, [], False]
            got = []
            for cline, _c, csrc, *_arms in calls:
                if p in csrc:
                    got += self._default_links(rel, fname, cline, csrc, defaults, base, use, note)
            out += _with_library_places(rel, use, got)
        return out

    def _default_links(self, rel, fname, cline, csrc, values, base, use, note) -> list:
        """What the call `csrc` (line cline of function fname) gains from a default: reported at the default
        (`use`) when the call enters a project wrapper; otherwise a note for the per-file finding at the call
        (empty message), naming the default's place (`note`: line, col, end_line, parameter, ...)."""
        try:
            head = dotted(self.tree(csrc).func)
        except (SyntaxError, ValueError, AttributeError, RecursionError):
            return []
        wrapper = isinstance(self.expr(rel, head, 0), (Func, Class)) if head else False
        out = []
        for r, m, c, g, chain in self.evaluate(rel, csrc, values, base, True, 0, frozenset({(rel, fname)})):
            steps = [(rel, cline, _callee_text(csrc)), *chain]
            out.append((rel, use, r, m, c, g, steps) if wrapper else (rel, [cline, *note], r, "", c, g, steps))
        return out

    def _stored_defaults(self, s) -> list:
        """(class, parameter, attributes) for an `__init__` parameter whose literal default is a value some
        rule looks for and which __init__ keeps on self under those attribute names."""
        out = []
        for cls, kept in s["stores"].items():
            init = s["funcs"].get(f"{cls}.__init__")
            if init is None:
                continue
            defaults, places = init[2], init[4]
            for p, v in defaults.items():
                attrs = sorted(a for a, (kind, value) in kept.items() if kind == "param" and value == p)
                if attrs and p in places and _needle(v, self.needles):
                    out.append((cls, p, attrs))
        return out

    def _kept_defaults(self, rel: str) -> list:
        """`def __init__(self, mode="bilinear"): self.mode = mode` and a method calling
        `F.interpolate(x, mode=self.mode)` (or a project wrapper given `self.mode`): every construction
        that leaves the argument out runs with the default, so the default is a place to change. Through
        a project wrapper it is reported at the default; a library call in the method is reported there
        by the per-file pass, and the default is only noted (listed as an occurrence)."""
        s = self.summaries[rel]
        out = []
        for cls, p, attrs in self._stored_defaults(s):
            _l, _params, defaults, _calls, places = s["funcs"][f"{cls}.__init__"]
            line, col, end_line, end_col = places[p]
            use = [line, col, end_line, end_col, f"{cls}({p}={defaults[p]})", [], True]
            note = [line, col, end_line, p, [], False]
            for name, (_ml, mparams, _d, calls, _p) in s["funcs"].items():
                if not name.startswith(cls + ".") or name.endswith(".__init__") or not mparams:
                    continue
                full = {f"{mparams[0]}.{a}": defaults[p] for a in attrs}
                for cline, _c, csrc, *_arms in calls:
                    if any(k in csrc for k in full):
                        out += self._default_links(rel, name, cline, csrc, full, {}, use, note)
        return out

    # ---------------------------------------------------------------- calls leaving a flagged default out
    def _left_out(self, rel: str) -> list:
        """`predict(model, image, caption, 0.35, 0.25)` where `def predict(..., device="cuda")` hands `device` to
        `model.to(device)`: the call runs with the default, so it is a place of the default's finding. In another
        module it is reported at the call (one finding per file, function and parameter; the file's further such
        calls are its places); in the module of the function, it is listed among the places of the per-file
        finding (a note, as for the default itself)."""
        from .call_sites import passed

        rec = self.summaries[rel].get("callers")
        if not rec:
            return []
        out = []
        first: dict = {}  # (function, parameter, rule) -> index into out
        for call in rec["calls"]:
            callee = call[4]
            if "@" in callee:
                continue
            fn = Func(rel, callee) if callee in rec["sigs"] and "." in callee else self.expr(rel, callee, 0)
            if not isinstance(fn, Func):
                continue
            self.touched.add(fn.module)
            if fn.module not in self._flagged_of:
                self._flagged_of[fn.module] = self._flagged_defaults(self.summaries[fn.module])
            flagged = [p for f, p in self._flagged_of[fn.module] if f == fn.name]
            if not flagged:
                continue
            fs = self.summaries[fn.module]
            frec = fs.get("callers")
            if not frec or fn.name not in frec["sigs"]:
                continue
            _l, _params, defaults, calls, places = fs["funcs"][fn.name]
            for p in flagged:
                if passed(frec["sigs"][fn.name][2], fn.name, call, p) is not None:
                    continue
                base = {k: v for k, v in defaults.items() if k != p}
                short = f"{fn.name.rsplit('.', 1)[-1]}({p}={defaults[p]})"
                for cline, _c, csrc, *_arms in calls:
                    if p not in csrc:
                        continue
                    for r, m, c, g, chain in self.evaluate(fn.module, csrc, defaults, base, True, 0,
                                                           frozenset({(fn.module, fn.name)})):
                        if fn.module == rel:
                            # the per-file finding sits at the library call or at the default: either way this
                            # call is one more of its places
                            for key in (cline, places[p][0]):
                                out.append((rel, [key, call[0], call[1], call[2], "", [], False], r, "", c, g, []))
                            continue
                        k = (fn.module, fn.name, p, r)
                        if k in first:
                            use = out[first[k]][1]
                            if [call[0], call[1]] not in use[5] and use[:2] != call[:2]:
                                use[5].append([call[0], call[1]])
                            continue
                        first[k] = len(out)
                        use = [call[0], call[1], call[2], call[3], f"{callee}()", [], False]
                        steps = [(fn.module, places[p][0], short), (fn.module, cline, _callee_text(csrc)), *chain]
                        out.append((rel, use, r, m, c, g, steps))
        return out

    # ---------------------------------------------------------------- attributes read through an object
    def _reads(self, rel: str) -> list:
        """`init_process_group(device.dist_backend)`, `compile(backend=cfg.backend)`: the object's type is
        unknown, so every class attribute or dataclass field of that name with a literal value is tried,
        in the classes of the modules this file imports (or of the file itself). One whose value makes a
        rule fire is reported where it is defined, with the read in the chain. `self.x` is left to the
        per-file pass, which knows the class."""
        out = []
        s = self.summaries[rel]
        if s["reads"]:
            # Any class in a module this file can see may gain or lose the attribute: an edit there
            # must link this file again.
            seen = self._visible(rel)
            self.touched.update(r for v in seen for r in self._under(v))
        for read in s["reads"]:
            try:
                call = self.tree(read[4])
            except (SyntaxError, ValueError, RecursionError):
                continue
            vals = [(None, a) for a in call.args if not isinstance(a, ast.Starred)] + \
                [(k.arg, k.value) for k in call.keywords]
            for arg, v in vals:
                if not isinstance(v, ast.Attribute):
                    continue
                root = _local_root(v)
                if root is None or root in ("self", "cls"):
                    continue
                if root in s["imports"] or root in s["consts"] or root in s["classes"]:
                    continue
                key = dotted(v)
                if key is None:
                    continue
                for crel, cname, line, lit in self._attribute_owners(rel, v.attr):
                    self.touched.add(crel)
                    for r, m, c, g, chain in self.evaluate(rel, read[4], {key: lit}, {}, True, 0, frozenset()):
                        text = f"{cname}.{v.attr} = {lit}"
                        use = [line, -1, line, -1, text, [], True]
                        shown = f"{arg}={key}" if arg else key
                        out.append((crel, use, r, m, c, g,
                                    [(rel, read[0], f"{_callee_text(read[4])}({shown})"), *chain]))
        return out

    def _attribute_owners(self, rel: str, attr: str) -> list:
        """(file, class, line, literal) of the classes defining `attr` that file `rel` can see."""
        if self._owners is None:
            self._attr_aliases, self._owners = self._project_tables()
        found = self._owners.get(attr)
        if not found:
            return []
        seen = self._visible(rel)
        return [o for o in found if o[0] == rel or any(m == n or m.startswith(n + ".")
                                                       for m in self._names_of(o[0]) for n in seen)]

    def _under(self, name: str) -> list:
        """Files of the module `name` and of every module below it (`name.x`, `name.x.y`)."""
        if self._below is None:
            self._below = {}
            for n, r in self.mods.items():
                for i, ch in enumerate(n):
                    if ch == ".":
                        self._below.setdefault(n[:i], []).append(r)
                self._below.setdefault(n, []).append(r)
        return self._below.get(name, ())

    def _names_of(self, rel: str) -> list:
        if not self._rel_names:
            for n, r in self.mods.items():
                self._rel_names.setdefault(r, []).append(n)
        return self._rel_names.get(rel, [])

    def _visible(self, rel: str) -> set:
        """Project modules and packages the file imports from (absolute names)."""
        out = set()
        for _local, (mod, level, _name) in self.summaries[rel]["imports"].items():
            target = self.absolute(rel, mod, level)
            if target and target in self.mods:
                out.add(target)
        return out


def built_aliases(rel: str, ext) -> list:
    """Further module names a build call of `rel` produces: its name under the build script's own folder (utils/build.py
    building `Extension("nms.gpu_nms", ...)` in place gives `utils.nms.gpu_nms`, imported as `from .nms.gpu_nms import
    gpu_nms` by utils/nms_wrapper.py), and for a torch.utils.ffi build (`create_extension("_ext.reorg_layer", ...)`)
    the compiled library inside the package it writes (`_ext.reorg_layer._reorg_layer`, which the generated
    `_ext/reorg_layer/__init__.py` imports)."""
    name = ext[0]
    names = [name]
    if _ffi_build(ext[3]):
        names.append(f"{name}._{name.rsplit('.', 1)[-1]}")
    parts = PurePosixPath(rel).parent.parts
    out = names[1:]
    if parts and all(p.isidentifier() for p in parts):
        out += [".".join(parts) + "." + n for n in names]
    return out


def _arms_taken(arms: list, known: dict) -> bool:
    """False when a literal the call binds (or a default) rules out an arm holding the call: `library == "PyTorch"`
    with library='PIL'. A parameter whose value is unknown leaves the arm in."""
    for param, op, lits, taken in arms:
        src = known.get(param)
        if src is None:
            continue
        try:
            v = ast.literal_eval(src)
            options = [ast.literal_eval(x) for x in lits]
        except (ValueError, SyntaxError, RecursionError, TypeError):
            continue
        try:
            hit = v in options if op in ("in", "==") else v not in options
        except TypeError:
            continue
        if hit != taken:
            return False
    return True


def _ffi_build(src) -> bool:
    return isinstance(src, str) and src.rsplit(".", 1)[-1] == "create_extension"


def _needle(lit: str, needles) -> bool:
    # The same few defaults (None, True, 1e-5, "cuda") recur across a project: each is evaluated once.
    return _is_needle(lit, needles if isinstance(needles, frozenset) else frozenset(needles))


@functools.lru_cache(maxsize=4096)
def _is_needle(lit: str, needles: frozenset) -> bool:
    try:
        v = ast.literal_eval(lit)
    except (ValueError, SyntaxError, RecursionError):
        return False
    return isinstance(v, str) and v in needles


def _with_step(r, step):
    if isinstance(r, Const):
        return Const(r.source, (step, *r.chain))
    if isinstance(r, External):
        return External(r.qualname, (step, *r.chain))
    return r


def _value(node, values, rel, linker) -> str | None:
    lit = literal_source(node)
    if lit is not None:
        return lit
    d = dotted(node)
    if d is None:
        return None
    if d in values:
        return values[d]
    r = linker.expr(rel, d, 0)
    return r.source if isinstance(r, Const) else None


def _parse(src: str):
    """The expression `src` parsed (raises SyntaxError & co as ast.parse does; a failure is not kept)."""
    return ast.parse(src, mode="eval").body


def _callee_text(src: str) -> str:
    try:
        call = ast.parse(src, mode="eval").body
        return ast.unparse(call.func)
    except (SyntaxError, ValueError, AttributeError, RecursionError):
        return src.split("(", 1)[0]


def use_text(src: str, linker: Linker, rel: str) -> str:
    """`resize(mode='bilinear')`: the callee with the literal or project-resolved arguments only."""
    try:
        call = ast.parse(src, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return src
    args = [ast.unparse(a) for a in call.args if literal_source(a) is not None or _is_project(a, linker, rel)]
    args += [f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords
             if k.arg and (literal_source(k.value) is not None or _is_project(k.value, linker, rel))]
    return f"{ast.unparse(call.func)}({', '.join(args)})"


def _is_project(node, linker, rel) -> bool:
    """A name standing for a literal or for a project function or class (`partial(resize, ...)`)."""
    d = dotted(node)
    return d is not None and isinstance(linker.expr(rel, d, 0), (Const, Func, Class))


def summary_json(summary) -> str:
    return json.dumps(summary, separators=(",", ":"))


def _same_package(importer: str, kernel: str, files) -> bool:
    """The importer is part of the kernel's own package: a module in the kernel module's folder when that folder
    is a package (it has an `__init__.py`; scripts side by side in a plain folder, such as a training script
    next to its kernels file, stay apart), or an `__init__.py` of that folder or of a folder above it (a
    re-export)."""
    idir, kdir = PurePosixPath(importer).parent, PurePosixPath(kernel).parent
    if idir == kdir:
        return str(kdir) != "." and f"{kdir}/__init__.py" in files
    return PurePosixPath(importer).name == "__init__.py" and idir in kdir.parents


def _with_library_places(rel: str, use: list, got: list) -> list:
    """The links of one default, each finding at the default given the library calls of its own file that the
    default reaches (`dist.init_process_group(backend=backend)` in each helper `init_dist(backend="nccl")` hands it
    to) as places: where the value is used. When the chain goes on into another module, the last call of the file
    on it is the place (`dist.init_process_group(backend=backend)` of a project wrapper module: jukebox's
    dist_adapter), where the value leaves the file. A note for a per-file finding (no message) is left as it is."""
    ends = sorted({last[1] for _rel, u, _r, m, _c, _g, chain in got if m and u is use and chain
                   for last in (next((st for st in reversed(chain) if st[0] == rel), None),)
                   if last is not None and isinstance(last[1], int) and last[1] != use[0]})
    if not ends:
        return got
    placed = [*use[:5], [*use[5], *([ln, -1] for ln in ends)], *use[6:]]
    return [(r0, placed if u is use else u, r, m, c, g, chain) for r0, u, r, m, c, g, chain in got]


def _rebuilds(stmts) -> bool:
    """A handler that ends in `raise` or calls a JIT build (`load(...)`, `cpp_extension.load_inline(...)`)."""
    if stmts and isinstance(stmts[-1], ast.Raise):
        return True
    for node in (n for st in stmts for n in ast.walk(st)):
        if isinstance(node, ast.Call):
            f = node.func
            tail = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if tail in ("load", "load_inline"):
                return True
    return False
