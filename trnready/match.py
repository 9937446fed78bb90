"""Catalogue matchers x the events of one file -> raw hits (pure, no I/O).

`Engine` is built once per catalogue: it turns every matcher into dictionary
lookups (callee name -> matchers, method name -> matchers, ...) and derives
the `Interest` the indexer uses to keep only candidate nodes.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from . import context, masks, shifts
from .catalogue import Catalogue
from .context import FileContext, ProjectFacts
from .context.base import argument_of, enclosing_function, root_name, value_bound_once
from .context._library_base import library_bases
from .index import FileIndex, Interest, device_like
from .local_attrs import assigned_value
from .narrowing import narrowed
from .model import ArgPredicate, Matcher, Rule
from .resolve import FOLLOWED_KINDS, LIST, Resolver, env_default, filled_parameter, overwritten_parameter
from .arg_predicates import holds as _holds
from .astwalk import walk
from .values import UNKNOWN, Drawn, same

_KWARGS_UNKNOWN = object()


@dataclass(frozen=True)
class Hit:
    rule: Rule
    matcher: Matcher
    node: ast.AST  # where the finding points
    name: str  # what matched: a qualified name, method, module or device string
    qualname: str = ""  # the full resolved name at the node (references and calls), for `fix`
    confidence: str | None = None  # overrides the matcher's (e.g. an optional, guarded import)
    note: str = ""  # appended to the message
    guarded: bool = False  # a context predicate with the guard effect holds (trnready/context/neuron_guarded.py)
    guard: str = ""  # the name of that predicate (the finding's `guarded_by`)
    stored: bool = False  # a keyword matcher's value stored under the name ({"k": v}, x.k = v), not passed to a call
    severity: str | None = None  # overrides the rule's (an optional import leaves a path without the package)
    also: tuple = ()  # further nodes listed as places of the finding (the literal a conditional expression picks)


# A Python 2 print statement or `except E, e:` at the start of a line (the prefilter's look for `syntax` rules)
_PYTHON2_HINT = re.compile(r"^[ \t]*(?:print[ \t]+[^\s(=.,)\[\]:;]|except\b[^:\n]*,[ \t]*\w+[ \t]*:)", re.M)


def _one_per_file(hits: list, rules: frozenset) -> list:
    """The hits of each rule in `rules` folded to the first by position; the others become its places."""
    firsts: dict = {}
    rest: dict = {}
    out = []
    for h in sorted(hits, key=lambda h: (h.node.lineno, h.node.col_offset)):
        if h.rule.id not in rules or h.guarded:
            out.append(h)
        elif h.rule.id not in firsts:
            firsts[h.rule.id] = h
        else:
            rest.setdefault(h.rule.id, []).append(h.node)
    for rid, h in firsts.items():
        out.append(replace(h, also=h.also + tuple(rest.get(rid, ()))) if rid in rest else h)
    return out


def _tails(names) -> set[str]:
    return {n.rsplit(".", 1)[-1] for n in names}


# Words nearly every Python file holds: a prefilter token inside one of them matches every file.
_EVERY_FILE_WORDS = ("import", "from", "return", "def", "class", "self", "print", "None", "True", "False")


class Engine:
    def __init__(self, catalogue: Catalogue, rules: list[Rule] | None = None, suppressions: bool = True):
        self.catalogue = catalogue
        rules = catalogue.rules if rules is None else rules
        self.rules = tuple(rules)  # the selected rules (meta rules are applied by suppress.py)
        self.suppressions = suppressions  # False: audit mode, inline suppressions are ignored
        self.one_per_thing = True  # post-processing folds repeats into one finding (off for `trnready fix`)
        self.resolver = Resolver(catalogue.aliases, catalogue.context_values.get("cuda-only-packages", ()),
                                 dict(v.split("=", 1) for v in catalogue.context_values.get("star-import-names", ())
                                      if "=" in v),
                                 catalogue.context_values.get("index-making-calls", ()))
        # `x[mask_k]`: words of an index name that say it is a boolean mask, and words that say it holds positions
        self._mask_words = frozenset(catalogue.context_values.get("mask-words", ()))
        self._mask_not_words = frozenset(catalogue.context_values.get("mask-not-words", ()))
        self._showing = showing_calls(catalogue.context_values)
        self._library_categories = frozenset(catalogue.context_values.get("library-import-categories", ()))
        self._mask_source_categories = frozenset(catalogue.context_values.get("mask-source-categories", ()))
        self._size_source_predicates = frozenset(catalogue.context_values.get("size-source-predicates", ()))
        self._size_source_subscripts = frozenset(catalogue.context_values.get("size-source-subscripts", ()))
        self._import_use_categories = frozenset(catalogue.context_values.get("import-use-categories", ()))
        # a use in code Neuron never runs (a CUDA-only test, the arm of a CUDA check) is no place to change
        self._guarded_uses = "neuron-guarded" in catalogue.everywhere
        self.project = ProjectFacts()  # set per scan by the caller (own packages of the scanned project)
        self.link = False  # set per scan: Python readers also summarise each file for project/link.py
        self.imported_copies: frozenset = frozenset()  # set per scan by the link step (project/installed_copies.py)
        self._predicates: dict = {}  # id(matcher) -> (drop predicates, guard predicates)
        self.calls: dict[str, list] = {}
        self.methods: dict[str, list] = {}
        self.refs: dict[str, list] = {}
        self.imports: dict[str, list] = {}
        self.decorators: dict[str, list] = {}
        self.devices: list = []
        self.subscripts: list = []  # (rule, matcher) for `subscript` matchers
        self.operators: list = []  # (rule, matcher) for `operator` matchers
        self.syntax: list = []  # (rule, matcher) for `syntax` matchers
        self.keywords: dict[str, list] = {}
        self.env: dict[str, list] = {}
        self.lines: list = []
        self.requirements: list = []
        self.rules = list(rules)
        self.surface: dict[str, list] = {}  # python / file matchers (trnready/surface.py)
        self.call_globs: list = []  # (regex, rule, matcher) for call names with a `*` component
        # (suffix, rule, matcher) for import names `*_cuda`: a module whose last part ends so, when no other import
        # matcher knows it (an unknown compiled extension: `import focal_cpp`)
        self.import_globs: list = []
        table = {"call": self.calls, "method": self.methods, "reference": self.refs,
                 "import": self.imports, "decorator": self.decorators, "keyword": self.keywords,
                 "env": self.env}
        for rule in rules:
            for m in rule.matchers:
                if m.kind == "call" and any("*" in n for n in m.names):
                    for n in m.names:
                        if "*" in n:
                            self.call_globs.append((_glob_re(n), rule, m))
                        else:
                            self.calls.setdefault(n, []).append((rule, m))
                elif m.kind == "import" and any(n.startswith("*") for n in m.names):
                    for n in m.names:
                        if n.startswith("*"):
                            self.import_globs.append((n[1:], rule, m))
                        else:
                            self.imports.setdefault(n, []).append((rule, m))
                elif m.kind in table:
                    for n in m.names:
                        table[m.kind].setdefault(n, []).append((rule, m))
                elif m.kind == "device":
                    self.devices.append((rule, m))
                elif m.kind == "subscript":
                    self.subscripts.append((rule, m))
                elif m.kind == "operator":
                    self.operators.append((rule, m))
                elif m.kind == "syntax":
                    self.syntax.append((rule, m))
                elif m.kind == "line":
                    self.lines.append((rule, m))
                elif m.kind == "requirement":
                    self.requirements.append((rule, m))
                elif m.kind in ("python", "file", "setting"):
                    self.surface.setdefault(m.kind, []).append((rule, m))
        # (and builtins an argument predicate names as a value: `dtype` equal to `builtins.float`, float64 as a dtype)
        self.resolver.builtins = frozenset(n.split(".", 1)[1] for n in self.calls if n.startswith("builtins.")) | \
            frozenset(v.split(".", 1)[1] for lst in self.calls.values() for _r, m in lst for p in m.args
                      for v in p.values if isinstance(v, str) and v.startswith("builtins."))
        # `env = ["NCCL_*"]`: a family of variables, matched by prefix (Interest.env_known)
        self.env_prefixes = {n[:-1]: self.env.pop(n) for n in [n for n in self.env if n.endswith("*")]}
        ctor = {n[: -len(".__call__")] for n in self.calls if n.endswith(".__call__")}
        positions = catalogue.device_positions if self.devices else {}
        self.device_calls = {k: v for k, v in positions.items() if not k.startswith(".") and "*" not in k}
        self.device_methods = {k[1:]: v for k, v in positions.items() if k.startswith(".") and "*" not in k}
        # `"*_device" = 0`: a helper named for the device it sets, given the device string first
        # (`solver_device("cuda")`, `select_device("cuda:0")`); torch's own functions keep their listed positions
        self.device_globs = {k[1:]: v for k, v in positions.items() if k.startswith("*") and "." not in k}
        # Aliased names (functorch -> torch.func) are matched after canonicalisation,
        # but the indexer sees source text, so it must keep the alias tails too.
        self.interest = Interest(
            call_tails=frozenset(_tails(self.calls) | _tails(self.decorators) | _tails(ctor)
                                 | _tails(n for _, _, m in self.call_globs for n in m.names)
                                 | _tails(self.device_calls) | {"partial"}),
            method_names=frozenset(self.methods),
            ctor_tails=frozenset(_tails(ctor)),
            device_keywords=frozenset(catalogue.device_keywords if self.devices else ()),
            device_tails=frozenset(self.device_methods) | frozenset(_tails(self.device_calls)),
            device_suffixes=tuple(self.device_globs),
            keywords=frozenset(self.keywords),
            # a default stored for any other name is skipped by every matcher (_match_store with defaults=True)
            default_keywords=frozenset(n for n, pairs in self.keywords.items()
                                       if any(m.defaults and all(p.name == n for p in m.args) for _, m in pairs)),
            env_names=frozenset(self.env),
            env_prefixes=tuple(self.env_prefixes),
            subscripts=bool(self.subscripts),
            shifts=any("int64-wide-shift" in m.names for _, m in self.operators),
            cuda_asserts=any("cuda-tensor-assert" in m.names for _, m in self.syntax),
            cuda_host_copies=any("cuda-only-host-copy" in m.names for _, m in self.syntax),
            pick_alternatives=frozenset(v.lower() for v in catalogue.context_values.get("device-pick-alternatives", ())),
        )

        # Literal prefilter (semgrep-style): every Python match needs one of these
        # identifiers or strings somewhere in the file's text, so a file with none
        # of them is never parsed. Ordered by length so common short tokens hit early.
        # Device positions (.to, device=) need the device string itself in the text,
        # so their callee names are not tokens ("to" would let every file through).
        tokens = set(_tails(self.calls) | _tails(self.decorators) | _tails(ctor))
        tokens |= set(self.methods) | set(self.env) | set(self.env_prefixes)
        tokens |= set(self.keywords)
        tokens |= _tails(self.refs) | _tails(self.imports) | {suffix for suffix, _, _ in self.import_globs}
        # A module name inside a keyword every Python file holds (`imp` in "import") lets every file through:
        # such a module is looked for as it is written when imported or used.
        for t in [t for t in tokens if any(t in k for k in _EVERY_FILE_WORDS)]:
            tokens.discard(t)
            tokens.update((f"import {t}", f"from {t}", f", {t}", f"{t}."))
        tokens |= {d for _, m in self.devices for d in m.names}
        if self.subscripts:
            # subscript matchers apply only in files that import torch or call a tensor-only method
            tokens.add("torch")
            tokens.update(catalogue.context_values.get("tensor-only-methods", ()))
        if self.operators:
            tokens.update(("int64", "long"))  # a wide shift needs an int64 dtype or .long() in the file
        if any("cuda-tensor-assert" in m.names for _, m in self.syntax):
            tokens.add("is_cuda")
        if any("cuda-only-host-copy" in m.names for _, m in self.syntax):
            tokens.update(("is_cuda", "device.type"))
        tokens |= {t for old in catalogue.aliases for t in _tails([old])}
        tokens.discard("__call__")
        if any(m.kind == "meta" for r in self.rules for m in r.matchers):
            tokens.add("trnready:")  # suppression comments are checked even where nothing else matches
        self.prefilter_tokens = tuple(sorted(tokens, key=lambda t: (len(t), t)))

        # rules whose findings in one file are one thing to change (`one-per-file-rules`: a Python 2 module is one
        # module to port, however many print statements it holds): the first is the finding, the rest its places
        self._one_per_file = frozenset(catalogue.context_values.get("one-per-file-rules", ()))
        # rules whose call's on/off keyword (`enabled=amp_on`) may be a name set from a CUDA device test
        # (`amp_on = device == "cuda"`): that assignment is a place of the finding (`device-switch-rules`)
        self._switch_rules = frozenset(catalogue.context_values.get("device-switch-rules", ()))
        self._switch_keywords = frozenset(catalogue.context_values.get("device-switch-keywords", ()))

    def may_match(self, text: str) -> bool:
        for t in self.prefilter_tokens:
            if t in text:
                return True
        # a Python 2 statement names no catalogue token: its own cheap look, only for files nothing else lets in
        return bool(self.syntax) and _PYTHON2_HINT.search(text) is not None

    # -- context predicates ------------------------------------------------
    def predicates_of(self, m: Matcher) -> tuple[tuple, tuple]:
        """(drop, guard) predicates for a matcher: its own `unless` plus the catalogue's `everywhere`."""
        found = self._predicates.get(id(m))
        if found is None:
            drop, guard = [], []
            for name in dict.fromkeys((*m.unless, *(self.catalogue.everywhere if m.everywhere else ()))):
                p = context.get(name)
                if p is not None and m.kind in p.kinds:
                    (drop if p.effect == "drop" else guard).append(p)
            # guards are tried before the advisory ones: a guarded finding needs no lower severity
            guard.sort(key=lambda p: p.effect != "guard")
            found = self._predicates[id(m)] = (tuple(drop), tuple(guard), m)
        return found[0], found[1]

    def _emit(self, ctx: FileContext, hits: list, hit: Hit) -> bool:
        """Append the hit unless a drop predicate holds; mark it guarded when a guard predicate holds."""
        drop, guard = self.predicates_of(hit.matcher)
        for p in drop:
            if p.test(ctx, hit):
                return False
        hits.append(self._guarded(ctx, hit, guard))
        return True

    @staticmethod
    def _guarded(ctx: FileContext, hit: Hit, guard) -> Hit:
        """The hit marked guarded by the first guard predicate that holds, or lowered to an advisory by the first
        advisory predicate that holds (unchanged when none does)."""
        for p in guard:
            held = p.test(ctx, hit)
            if not held:
                continue
            if p.effect == "guard":
                return replace(hit, guarded=True, guard=p.name)
            note = " " + p.note.format(held=held) if isinstance(held, str) and p.note else ""
            return replace(hit, severity="advisory", confidence="medium", note=hit.note + note)
        return hit

    # -- the per-file pass -------------------------------------------------
    def match(self, index: FileIndex, path: str = "") -> list[Hit]:
        ctx = FileContext(index=index, tree=index.tree, resolver=self.resolver.for_file(index.factories),
                          values=self.catalogue.context_values, project=self.project, path=path)
        try:
            return self._match(ctx, index)
        finally:
            # Facts in the memo may point back at the context (a cycle through the syntax tree): dropped
            # here, the tree is freed with the file instead of waiting for the cyclic GC.
            ctx.memo.clear()

    def _match(self, ctx: FileContext, index: FileIndex) -> list[Hit]:
        hits: list[Hit] = []
        resolver = ctx.resolver
        canon = resolver.canonical
        qualnames = resolver.qualnames
        emit = self._emit
        # imports
        if self.imports or self.import_globs:
            uses: dict | None = None
            for node, candidates in index.imports:
                if self.import_globs:
                    self._match_import_globs(ctx, node, candidates, hits)
                for cand in candidates:
                    cand = canon(cand)
                    for prefix in _prefixes(cand):
                        for rule, m in self.imports.get(prefix, ()):
                            also = ()
                            if rule.category in self._import_use_categories:
                                # `from flash_attn import flash_attn_func` then `flash_attn_func(q, k, v)`: the
                                # port replaces each use, so the lines using the imported names are places of
                                # the import's finding (a checklist shows every call to rewrite)
                                if uses is None:
                                    uses = _refs_by_root(index)
                                also = _uses_of_import(ctx, node, prefix, uses)
                                if also and self._guarded_uses:
                                    from .context.neuron_guarded import guarded_at

                                    also = tuple(r for r in also if not guarded_at(
                                        ctx, (r.lineno, r.col_offset), rule.category, ("reference",)))
                            if node in index.guarded and not _fallback_raises(ctx, node):
                                # The program has a path without the package (the handler did not raise), so
                                # the import alone blocks nothing: a blocker becomes a change (check that path).
                                # A flag the handler sets that every check turns into a raise is no such path.
                                emit(ctx, hits, Hit(rule, m, node, cand, confidence="medium",
                                                    note=" (optional import: guarded by try/except or an availability check)",
                                                    severity="change" if rule.severity == "blocker" else None,
                                                    also=also))
                            else:
                                emit(ctx, hits, Hit(rule, m, node, cand, also=also))
        # references (outermost attribute chains and imported names)
        if self.refs:
            from_imports = None
            refs = self.refs
            for node, scope in index.refs:
                names = [canon(q) for q in qualnames(node, scope)]
                if not any(prefix in refs for q in names for prefix in _prefixes(q)):
                    continue  # no rule matches the reference (most of them): nothing to report or to skip
                if type(node) is ast.Name and _alias_only(node.id, scope) and _handed_on(ctx, node):
                    continue  # `ds_init = deepspeed.initialize` ... `return args, ds_init`: the binding is the place
                for q in names:
                    also = ()
                    # The most specific matcher of a rule decides at one reference: `torch.cuda.amp.custom_fwd`
                    # (its own message) before `torch.cuda.amp`; a rule's shorter prefixes are not tried after it.
                    decided: dict = {}
                    prefixes = list(_prefixes(q))
                    for prefix in reversed(prefixes):
                        for rule, m in refs.get(prefix, ()):
                            if decided.setdefault(rule.id, prefix) != prefix:
                                continue
                            if type(node) is ast.Name and not also:
                                # `from torch.cuda.amp import custom_fwd` then `@custom_fwd`: the import line
                                # names the flagged module itself, so it is listed among the places of the
                                # use (`from torch import float64` names only the flagged object: not listed)
                                if from_imports is None:
                                    from_imports = _from_imports(index)
                                imp = from_imports.get(q)
                                mod = canon(imp.module or "") if imp is not None else ""
                                # (any prefix the rule matches: `torch.cuda.amp` for the custom_fwd matcher)
                                if any(mod == p or mod.startswith(p + ".") for p in prefixes
                                       if any(r is rule for r, _ in self.refs.get(p, ()))):
                                    also = (imp,)
                            elif type(node) is ast.Attribute and not also:
                                # `import torch.cuda.amp as amp` then `amp.autocast(...)`: the import binds the
                                # flagged module itself to a name, so its line is a place of the use too
                                # (`import torch` names no module of the rule: not listed). A rule that reports
                                # the import by itself (`import torch_xla...as xm`) keeps it its own finding,
                                # which may be suppressed apart from the uses.
                                if from_imports is None:
                                    from_imports = _from_imports(index)
                                imp, mod = _module_alias(node, q, from_imports)
                                if imp is not None and (mod == prefix or mod.startswith(prefix + ".")) \
                                        and not self._imports_rule(mod, rule):
                                    also = (imp,)
                                elif rule.category in self._library_categories:
                                    # `import deepspeed` then `deepspeed.initialize(...)`: the port drops the
                                    # library, so its import line is a place of the use (torch stays)
                                    top = prefix.split(".", 1)[0]
                                    imp = from_imports.get(("plain", top))
                                    if imp is not None and top != "torch" and root_name(node) == top \
                                            and not self._imports_rule(top, rule):
                                        also = (imp,)
                            if not also and type(node.ctx) is ast.Store and scope.kind == "function":
                                also = _default_fed(ctx, node, scope)
                            emit(ctx, hits, Hit(rule, m, node, prefix, q, also=also))
        # decorators
        if self.decorators:
            for expr, scope in index.decorators:
                target = expr.func if type(expr) is ast.Call else expr
                for q in qualnames(target, scope):
                    q = canon(q)
                    for rule, m in self.decorators.get(q, ()):
                        if type(expr) is ast.Call:
                            if not self._args_ok(ctx, m.args, expr, scope):
                                continue
                        elif m.args:
                            continue
                        emit(ctx, hits, Hit(rule, m, expr, q))
        # a type compared by its name (`x.type() == "torch.cuda.HalfTensor"`): the same test as comparing with the
        # object, false for every tensor off CUDA; only a name a reference matcher lists exactly counts
        if self.refs:
            for node, text in index.named_strings:
                q = canon(text)
                for rule, m in self.refs.get(q, ()):
                    emit(ctx, hits, Hit(rule, m, node, q))
        for node, name in index.env:
            for rule, m in self.env.get(name, ()):
                emit(ctx, hits, Hit(rule, m, node, name))
            for prefix, pairs in self.env_prefixes.items():
                if name.startswith(prefix) and name not in self.env:
                    for rule, m in pairs:
                        emit(ctx, hits, Hit(rule, m, node, name))
        for call, scope in index.calls:
            self._match_call(ctx, call, scope, hits)
        if self.keywords:
            for name, expr, scope in index.keyword_stores:
                self._match_store(ctx, name, expr, scope, hits)
            for name, expr, scope in index.keyword_defaults:
                if id(expr) in index.base_defaults and not library_bases(ctx, scope):
                    continue
                self._match_store(ctx, name, expr, scope, hits, defaults=True)
            for name, expr, scope in index.keyword_compares:
                self._match_store(ctx, name, expr, scope, hits, compared=True)
            for name, expr, scope in index.keyword_asserts:
                self._match_store(ctx, name, expr, scope, hits, asserted=True)
        if self.subscripts:
            for node, scope in index.subscripts:
                self._match_subscript(ctx, node, scope, hits)
        if self.operators:
            for node, scope in index.shifts:
                if shifts.is_wide_int64_shift(node, scope, ctx.resolver):
                    for rule, m in self.operators:
                        if "int64-wide-shift" in m.names:
                            self._emit(ctx, hits, Hit(rule, m, node, "int64-wide-shift"))
        if self.syntax:
            # the statement the reader rewrote to parse a Python 2 module (`print "x"`, `except E, e:`)
            at = getattr(index.tree, "trnready_python2", None)
            if isinstance(at, tuple):
                for node, form in getattr(index.tree, "trnready_python2_all", None) or [at]:
                    for rule, m in self.syntax:
                        if "python2-statement" in m.names:
                            self._emit(ctx, hits, Hit(rule, m, node, form))
            for node, _scope in index.cuda_asserts:
                for rule, m in self.syntax:
                    if "cuda-tensor-assert" in m.names:
                        self._emit(ctx, hits, Hit(rule, m, node, "is_cuda"))
            for node, _scope in index.cuda_host_copies:
                for rule, m in self.syntax:
                    if "cuda-only-host-copy" in m.names:
                        self._emit(ctx, hits, Hit(rule, m, node, "is_cuda" if type(node) is ast.Attribute
                                                  else 'device.type == "cuda"'))
        if self.devices:
            for expr, scope in index.device_values:
                n = len(hits)
                self._device_hits(ctx, [expr], scope, hits)
                if len(hits) > n:
                    # parser.add_argument("--device", default="cuda:0"), then `.to(args.device)`: the reads of
                    # the option are where the default is used, places of its finding (as for keyword defaults)
                    reads = _device_option_reads(ctx, expr, self._showing)
                    if reads:
                        hits[n:] = [replace(h, also=h.also + reads) for h in hits[n:]]
        if self._one_per_file and hits:
            hits = _one_per_file(hits, self._one_per_file)
        if self._mask_source_categories and hits:
            hits = [_with_mask_sources(ctx, h) if h.rule.category in self._mask_source_categories else h
                    for h in hits]
        if (self._size_source_predicates or self._size_source_subscripts) and hits:
            hits = [_with_size_sources(ctx, h) if self._size_source_predicates.intersection(h.matcher.unless)
                    or self._size_source_subscripts.intersection(h.matcher.names) else h for h in hits]
        return hits

    def _match_import_globs(self, ctx: FileContext, node, candidates: tuple, hits: list[Hit]) -> None:
        """`import focal_cpp`: a module whose last part ends as an import glob says (`*_cpp`), when no import
        matcher of the catalogue knows the module or a package above it (that entry's finding is the item)."""
        # the module, never a name imported from one: `from utils import to_cuda` imports a helper of utils (the
        # suffix is looked at first: nearly every import of every file ends otherwise)
        for cand in candidates[:1] if type(node) is ast.ImportFrom else candidates:
            last = cand.rsplit(".", 1)[-1]
            for suffix, rule, m in self.import_globs:
                if last.endswith(suffix) and len(last) > len(suffix):
                    canon = ctx.resolver.canonical
                    if not any(self.imports.get(p) for c in candidates for p in _prefixes(canon(c))):
                        self._emit(ctx, hits, Hit(rule, m, node, canon(cand)))
                    return

    def _match_call(self, ctx: FileContext, call: ast.Call, scope, hits: list[Hit]) -> None:
        func = call.func
        canon = ctx.resolver.canonical
        names = tuple(canon(q) for q in ctx.resolver.qualnames(func, scope))
        if "functools.partial" in names:
            self._match_partial(ctx, call, scope, hits)
            return
        if not names:
            names = tuple(canon(c) + ".__call__" for c in ctx.resolver.instance_class(func, scope))
        on_call: set = set()  # rules already reported for this call
        for q in names:
            for rule, m in self.calls.get(q, ()):
                if self._args_ok(ctx, m.args, call, scope):
                    if self._emit(ctx, hits, Hit(rule, m, call, q, q, *self._may_be(ctx, m, call, scope))):
                        self._at_entry(ctx, m, call, scope, hits, q)
                        if rule.id in self._switch_rules:
                            self._switch_place(ctx, call, scope, hits)
                    on_call.add(rule.id)
            for rx, rule, m in self.call_globs:
                if rx.fullmatch(q) and self._args_ok(ctx, m.args, call, scope):
                    self._emit(ctx, hits, Hit(rule, m, call, q, q))
                    on_call.add(rule.id)
        is_method = type(func) is ast.Attribute and not names
        if is_method and func.attr in self.methods:
            # A method on something that is not a library module: x.cuda(), t.double().
            if not ctx.resolver.qualnames(func.value, scope) and not self._foreign_receiver(ctx, func.value, scope) \
                    and not self._foreign_consumer(ctx, call):
                for rule, m in self.methods[func.attr]:
                    if self._args_ok(ctx, m.args, call, scope):
                        if self._emit(ctx, hits, Hit(rule, m, call, func.attr, "", *self._may_be(ctx, m, call, scope))):
                            self._at_entry(ctx, m, call, scope, hits, func.attr)
                        on_call.add(rule.id)
        if self.keywords:
            for kw in call.keywords:
                for rule, m in self.keywords.get(kw.arg, ()):
                    if m.asserted or not m.calls:
                        continue  # (asserts only, or stores and defaults only: never a call's keyword)
                    # A keyword matcher is a fallback for calls no callee matcher recognised; the
                    # finding points at the keyword's value (the line a reviewer edits in a
                    # multi-line call), and a call already reported for the rule is not reported twice.
                    if rule.id not in on_call and self._args_ok(ctx, m.args, call, scope) \
                            and self._emit(ctx, hits, Hit(rule, m, kw.value, kw.arg,
                                                          also=_option_reads(ctx, call, kw, self._showing))):
                        self._at_entry(ctx, m, call, scope, hits, kw.arg)
                        on_call.add(rule.id)
        if self.devices:
            self._match_device(ctx, call, scope, names, is_method, hits)

    def _switch_place(self, ctx: FileContext, call: ast.Call, scope, hits: list[Hit]) -> None:
        """`amp_on = device == "cuda"`, then `torch.autocast("cuda", enabled=amp_on)`: the switch is set from a
        test of the CUDA device, False on Neuron, so porting the call alone leaves mixed precision off; the
        assignment (one in the call's own function) is listed among the finding's places."""
        for kw in call.keywords:
            if kw.arg not in self._switch_keywords or type(kw.value) is not ast.Name:
                continue
            bindings = ctx.resolver.lookup(scope, kw.value.id)
            if not bindings or len(bindings) != 1 or bindings[0].scope is not scope or scope.kind != "function":
                continue
            fn = enclosing_function(ctx, call)
            value = value_bound_once(fn, kw.value.id) if fn is not None else None
            if value is not None and value.lineno != call.lineno and _tests_cuda_device(value):
                hits[-1] = replace(hits[-1], also=hits[-1].also + (value,))

    def _match_partial(self, ctx: FileContext, call: ast.Call, scope, hits: list[Hit]) -> None:
        """`functools.partial(F.interpolate, mode="bilinear")`: the arguments it fixes are passed to the API
        on every call of the result. Matched like a call of the API with those arguments, for matchers whose
        argument predicates all read an argument the partial fixes (what the later calls pass is not seen,
        so a matcher that needs an argument to be absent is not tried)."""
        if not call.args or type(call.args[0]) is ast.Starred:
            return
        inner = ast.Call(func=call.args[0], args=call.args[1:], keywords=call.keywords)
        ast.copy_location(inner, call)
        inner.end_lineno, inner.end_col_offset = call.end_lineno, call.end_col_offset
        canon = ctx.resolver.canonical
        for q in (canon(n) for n in ctx.resolver.qualnames(inner.func, scope)):
            for rule, m in self.calls.get(q, ()):
                if all(_fixed(p, inner) for p in m.args) and self._args_ok(ctx, m.args, inner, scope):
                    self._emit(ctx, hits, Hit(rule, m, call, q, q))

    def _match_store(self, ctx: FileContext, name: str, expr: ast.expr, scope, hits: list[Hit],
                     defaults: bool = False, compared: bool = False, asserted: bool = False) -> None:
        """A value stored under a keyword name (`{"attn_implementation": "flash_attention_2"}`, `cfg.x = v`,
        `kw["x"] = v`, `add_argument("--x", default=v)`) for keyword matchers with `stores = true`; with
        `defaults`, a parameter default or an asserted value (`def f(backend="nccl")`, `assert backend == "nccl"`)
        for keyword matchers with `defaults = true`; with `compared`, the value an `if` test compares the name with
        (`if backend == "nccl":`) for keyword matchers with `compared = true`; with `asserted`, the value an `assert`
        requires, for keyword matchers with `asserted = true` (which match nothing else)."""
        values = None
        for rule, m in self.keywords.get(name, ()):
            wanted = m.asserted if asserted else m.compared if compared else m.defaults if defaults else m.stores
            if not wanted or any(p.name != name for p in m.args):
                continue
            if values is None:
                pairs = ctx.resolver.values(expr, scope)
                values = [v for v, _ in pairs]
                # `= DEFAULT_ATTENTION_IMPLEMENTATION`: the module constant's literal is listed as a place
                also = tuple(o for v, o in pairs if type(expr) is ast.Name and type(o) is ast.Constant
                             and o.lineno != expr.lineno)[:1]
            if all(_holds(p, True, values) for p in m.args):
                self._emit(ctx, hits, Hit(rule, m, expr, name, stored=True, also=also))

    def _match_subscript(self, ctx: FileContext, node: ast.Subscript, scope, hits: list[Hit]) -> None:
        """`x[mask]` with a boolean mask by local evidence; neither side made by a [methods] not-on library."""
        resolver = ctx.resolver
        if not _imports_torch(ctx):
            return
        if type(node.value) in (ast.Tuple, ast.List, ast.Dict, ast.JoinedStr, ast.Constant):
            return  # `("", "s")[n > 1]`: a literal container or string picked by a truth value is no tensor
        attrs = ctx.index.mask_attrs
        if masks.is_mask(node.slice, scope, resolver, negated=ctx.index.negated, attrs=attrs):
            shape = "mask-write" if type(node.ctx) is ast.Store and id(node) not in ctx.index.augmented \
                else "boolean-mask"
            if shape == "mask-write" and not masks.rows_written(ctx.index.stored.get(id(node)), scope, resolver,
                                                                attrs, node.slice):
                if not masks.paired_masks(node.slice, scope, resolver, attrs):
                    return  # x[m] = 0 fills in place; x[m] = rows needs one row per True value
                shape = "mask-pair"
        elif type(node.ctx) is ast.Store:
            # `fg_mask[fg_mask.clone()] = inboxes` (`inboxes = matched > 0`): an index a mask by its name, written
            # with a boolean tensor by local evidence, one truth value per True value of the index
            value = ctx.index.stored.get(id(node))
            if value is None or not masks.is_mask(value, scope, resolver, attrs=attrs) or not masks.named_mask(
                    masks.unkept(node.slice), scope, resolver, self._mask_words, self._mask_not_words):
                return
            shape = "mask-write"
        elif any("mask-named" in m.names for _, m in self.subscripts) \
                and (axis := masks.named_axis(node.slice)) is not None \
                and masks.named_mask(axis, scope, resolver, self._mask_words, self._mask_not_words):
            shape = "mask-named"
            shown = axis.id
        elif any("tensor-slice" in m.names for _, m in self.subscripts) \
                and masks.tensor_slice_bound(node.slice, scope, resolver) \
                and not masks.python_sequence(node.value, scope, resolver):
            shape = "tensor-slice"
        else:
            return
        not_on = self.catalogue.method_not_on
        if masks.foreign(node.value, scope, resolver, not_on) or masks.foreign(node.slice, scope, resolver, not_on):
            return
        if masks.string_keyed(node):
            return  # `data[~data['index'].isin(res)]`: a DataFrame filtered by its own column
        for rule, m in self.subscripts:
            if shape in m.names:
                self._emit(ctx, hits, Hit(rule, m, node, shown if shape == "mask-named" else shape))

    def _match_device(self, ctx: FileContext, call: ast.Call, scope, names, is_method, hits) -> None:
        # `device=`, and like a stored value, any device-named keyword (`compute_device=`, `train_device=`)
        exprs = [kw.value for kw in call.keywords if kw.arg and device_like(kw.arg, self.interest.device_keywords)]
        # Hugging Face's per-module form, `device_map={"": "cuda:0"}` or `{"lm_head": "cuda:1", ...}`: each value
        # is the device that part of the model is loaded on (integer values stay unread, see "Deliberately not
        # matched" in docs/catalogue.md)
        exprs += [v for e in exprs if type(e) is ast.Dict for v in e.values
                  if type(v) is ast.Constant and type(v.value) is str]
        pos = None
        for q in names:
            if q in self.device_calls:
                pos = self.device_calls[q]
                param = self.catalogue.device_parameters.get(q)
                if param is not None:  # the positional parameter passed by its name: `torch.device(type="cuda")`
                    exprs += [kw.value for kw in call.keywords if kw.arg == param]
        if pos is None and is_method and call.func.attr in self.device_methods:
            if not ctx.resolver.qualnames(call.func.value, scope):
                pos = self.device_methods[call.func.attr]
        if pos is None and self.device_globs:
            pos = self._device_glob_position(call, names)
        if pos is not None and pos < len(call.args) and not any(type(a) is ast.Starred for a in call.args[:pos + 1]):
            exprs.append(call.args[pos])
        self._device_hits(ctx, exprs, scope, hits)

    def _device_glob_position(self, call: ast.Call, names) -> int | None:
        """The device position a glob of `[device] positions` gives a call whose callee's name ends with its suffix
        (`*_device`), unless the callee is torch's own (`torch.cuda.set_device(0)` takes an index, and torch's
        device functions are listed by name)."""
        tail = masks.tail_of(call.func)
        if not tail or any(q == "torch" or q.startswith("torch.") for q in names):
            return None
        return next((pos for suffix, pos in self.device_globs.items() if tail.endswith(suffix)), None)

    def _device_hits(self, ctx: FileContext, exprs, scope, hits) -> None:
        for expr in exprs:
            for value, origin in ctx.resolver.values(expr, scope):
                if not isinstance(value, str) or type(value) is not str:
                    continue
                # a device string is one word after its colon (`"cuda:0"`, also `"cuda: 0"`, which shawroad's
                # configs write); `"cuda:0 RTX 4090"` describes a GPU in a manifest
                for rule, m in self.devices:
                    for dev in m.names:
                        if value == dev or value.startswith(dev + ":") and len(value[len(dev) + 1:].split()) <= 1:
                            self._emit(ctx, hits, Hit(rule, m, origin, value))

    def _foreign_receiver(self, ctx: FileContext, receiver: ast.expr, scope) -> bool:
        """True when the receiver was made by a library listed in [methods] not-on (arr.nonzero() on NumPy)."""
        not_on = self.catalogue.method_not_on
        if not not_on:
            return False
        for origin in ctx.resolver.origins(receiver, scope):
            origin = ctx.resolver.canonical(origin)
            if any(origin == lib or origin.startswith(lib + ".") for lib in not_on):
                return True
        return False

    def _foreign_consumer(self, ctx: FileContext, call: ast.Call) -> bool:
        """True when the method call's result goes straight into a [methods] not-on library call:
        `np.median(mask.nonzero(), axis=1)`, `np.split(tokens, doc_mask.nonzero()[0] + 1)` (NumPy arrays)."""
        outer = ctx.index.outer_calls.get(id(call)) if ctx.index.outer_calls else None
        not_on = self.catalogue.method_not_on
        if outer is None or not not_on:
            return False
        func, scope = outer
        for q in ctx.resolver.qualnames(func, scope):
            q = ctx.resolver.canonical(q)
            if any(q == lib or q.startswith(lib + ".") for lib in not_on):
                return True
        return False

    # -- argument predicates -----------------------------------------------
    def _arg_values(self, ctx: FileContext, pred: ArgPredicate, call: ast.Call, scope):
        """(passed, values): passed is True/False, or None when **kwargs hide it."""
        if pred.name is not None:
            for kw in call.keywords:
                if kw.arg == pred.name:
                    return True, [v for v, _ in _argument_values(ctx, kw.value, scope, call)]
        if pred.position is not None:
            for i, a in enumerate(call.args):
                if type(a) is ast.Starred:
                    return None, [UNKNOWN]
                if i == pred.position:
                    return True, [v for v, _ in _argument_values(ctx, a, scope, call)]
        if any(kw.arg is None for kw in call.keywords):
            if pred.name is None:
                return None, [UNKNOWN]
            complete = True
            for kw in call.keywords:
                if kw.arg is not None:
                    continue
                found = ctx.resolver.starred_dict(kw.value, scope)
                if found is None:
                    return None, [UNKNOWN]
                entries, whole = found
                if pred.name in entries:  # torch.compile(m, **{"backend": "inductor"}) and its spellings
                    value, where = entries[pred.name]
                    extra = [] if whole else [UNKNOWN]
                    return True, [v for v, _ in ctx.resolver.values(value, where)] + extra
                complete = complete and whole
            if not complete:
                return None, [UNKNOWN]
        if pred.has_default:
            return False, [pred.default]
        return False, []

    def _imports_rule(self, module: str, rule) -> bool:
        """Does `rule` have an import matcher for this module (or a package above it)?"""
        return any(r is rule for p in _prefixes(module) for r, _ in self.imports.get(p, ()))

    def _at_entry(self, ctx: FileContext, m, call: ast.Call, scope, hits: list, name: str) -> None:
        """Move the hit just emitted for `call` to where its flagged value enters the file, when that value
        is one of several the argument may hold and is written in another statement (`backend = "nccl"` in
        one arm of an if/else, the default of os.environ.get): that literal is the line to change. A value
        fixed by a single assignment, a parameter default, or one written in the call keeps the call's place.
        Context predicates have already been applied to the call."""
        for p in m.args:
            if p.op in ("present", "absent", "is-none", "is-not-none"):
                continue
            expr = argument_of(p, call)
            first, last = call.lineno, call.end_lineno or call.lineno
            if expr is None and p.name is not None:
                # pl.Trainer(**train_params) after `train_params = dict(gpus=args.n_gpu, ...)`: the entry is where
                # the value enters, a place of the finding (the call keeps it)
                entry = _starred_entry(ctx, p.name, call, scope)
                if entry is not None and not first <= entry.lineno <= last:
                    hits[-1] = replace(hits[-1], also=hits[-1].also + (entry,))
                continue
            if type(expr) is ast.Attribute:
                # args.dist_backend = "nccl" just above the call: that statement is where the value is written
                literal = _written_literal(ctx, p, _local_attribute(ctx, expr, scope, call), first, last)
                if literal is None and p.op == "at-least":
                    # `prime = 1000000000039` in the class body, then `torch.randint(0, self.prime, ...)`: the
                    # constant is the line that sets the range (each call using it stays a finding)
                    literal = _written_literal(ctx, p, ctx.resolver.values(expr, scope), first, last)
                if literal is not None:
                    hits[-1] = replace(hits[-1], also=hits[-1].also + (literal,))
                continue
            if type(expr) is not ast.Name:
                continue
            draws = [(v, o) for v, o in ctx.resolver.values(expr, scope) if type(v) is Drawn and _holds(p, True, [v])]
            if draws:
                # seed = random.randint(0, sys.maxsize), then g.manual_seed(seed): the finding stays at the call
                # and the draw, the line that sets the range, is listed among its places
                places = tuple(o for _, o in draws if not first <= getattr(o, "lineno", first) <= last)
                high = max(v.high for v, _ in draws)
                hits[-1] = replace(hits[-1], also=hits[-1].also + places,
                                   note=hits[-1].note + f" (a host random draw of up to {_power_of_two(high)})")
                return
            bindings = ctx.resolver.lookup(scope, expr.id)
            if _conditional_literal(bindings):
                # backend = "gloo" if os.name == "nt" else "nccl": the finding stays at the call, which reads
                # the choice, and the flagged literal is listed among its places
                literal = next((o for v, o in ctx.resolver.values(expr, scope)
                                if v is not UNKNOWN and v is not LIST and _holds(p, True, [v])
                                and type(o) is ast.Constant), None)
                if literal is not None:
                    hits[-1] = replace(hits[-1], also=hits[-1].also + (literal,))
                return
            if not _several_or_env(bindings, expr):
                # backend = "nccl", then init_process_group(backend=backend): the call keeps the finding and the
                # statement that writes the flagged literal is listed among its places (the line a reader edits)
                literal = _written_literal(ctx, p, ctx.resolver.values(expr, scope), first, last)
                if literal is not None:
                    hits[-1] = replace(hits[-1], also=hits[-1].also + (literal,))
                continue
            pairs = ctx.resolver.values(expr, scope)
            first, last = call.lineno, call.end_lineno or call.lineno
            for v, origin in pairs:
                if v is UNKNOWN or v is LIST or not _holds(p, True, [v]):
                    continue
                line = getattr(origin, "lineno", None)
                if line is not None and not first <= line <= last:
                    # the argument that hands the value to the call is listed among the finding's places: the
                    # line to change is the literal, and the call is where the CUDA choice takes effect
                    # (on a call over several lines, the line naming the callee too: `out = F.interpolate(` above
                    # its `mode=mode` line is where a reader looks for the call)
                    at = (expr,) if getattr(call.func, "end_lineno", expr.lineno) == expr.lineno else \
                        (call.func, expr)
                    hits[-1] = replace(hits[-1], node=origin, also=hits[-1].also + at,
                                       note=hits[-1].note + f" (the value is passed to `{name}` later)")
                    # The guard predicates judge the new place too: `backend = "nccl"` in the CUDA arm of
                    # `if torch.cuda.is_available(): ... else: backend = "gloo"` is never assigned on Neuron.
                    if not hits[-1].guarded:
                        hits[-1] = self._guarded(ctx, hits[-1], self.predicates_of(m)[1])
                    return
                break

    def _may_be(self, ctx: FileContext, m, call: ast.Call, scope) -> tuple:
        """(confidence, note) for a call hit: ("medium", why) when the flagged value is one of several the
        argument may hold and another is a known value the rule does not flag (`backend = "nccl"` in one arm
        of an if/else, "gloo" in the other); (None, "") keeps the matcher's confidence."""
        if m.confidence != "high":
            return None, ""
        for p in m.args:
            if p.op not in ("equals", "in"):
                continue
            passed, values = self._arg_values(ctx, p, call, scope)
            if not passed:
                continue
            flagged = [v for v in values if any(same(e, v) for e in p.values)]
            other = [v for v in values if v is not UNKNOWN and v is not LIST and v not in flagged]
            if flagged and other:
                return "medium", f" (`{p.name or 'argument'}` may be {flagged[0]!r} or {other[0]!r})"
        return None, ""

    def _args_ok(self, ctx: FileContext, preds, call: ast.Call, scope) -> bool:
        for p in preds:
            passed, values = self._arg_values(ctx, p, call, scope)
            if not _holds(p, passed, values):
                return False
        return True


def _argument_values(ctx: FileContext, expr, scope, call: ast.Call) -> list:
    """(value, origin) pairs of an argument: the resolver's, and for `obj.attr` it cannot know, the value the
    same function assigned to `obj.attr` just before the call (trnready/local_attrs.py)."""
    pairs = ctx.resolver.values(expr, scope)
    if type(expr) is ast.Attribute and len(pairs) == 1 and pairs[0][0] is UNKNOWN:
        return _local_attribute(ctx, expr, scope, call) or pairs
    if type(expr) is ast.Name:
        # `elif mode in {"nearest", "area"}: F.interpolate(x, mode=mode)`: only those values reach the call
        return narrowed(ctx, expr, call, pairs)
    return pairs


def _local_attribute(ctx: FileContext, expr: ast.Attribute, scope, call: ast.Call) -> list:
    if ctx.resolver.values(expr, scope)[0][0] is not UNKNOWN or ctx.tree is None:
        return []
    value = assigned_value(ctx, expr, call)
    return ctx.resolver.values(value, scope) if value is not None else []


def _written_literal(ctx, p, pairs, first: int, last: int):
    """The flagged literal among (value, origin) pairs that another statement of the function writes
    (`backend = "nccl"`, `args.dist_backend = "nccl"` above the call): the place a reader edits, or None."""
    for v, o in pairs:
        if v is LIST and p.op in ("not-equals", "is-not-none") and type(o) in (ast.List, ast.Tuple) and o.elts \
                and not first <= o.lineno <= last and _assigned(ctx, o):
            return o  # `gpus = [0]`, then `Trainer(gpus=gpus)`: a list of device ids is neither 0 nor None
    return next((o for v, o in pairs if v is not UNKNOWN and v is not LIST and _holds(p, True, [v])
                 and type(o) is ast.Constant and not first <= o.lineno <= last and _assigned(ctx, o)), None)


def _assigned(ctx: FileContext, literal) -> bool:
    """The literal is the value (or an element of the value) of an assignment statement, not a parameter
    default: a default reached through a call is the link step's to place and describe."""
    up = ctx.parent(literal)
    if type(up) in (ast.List, ast.Tuple, ast.Dict):
        up = ctx.parent(up)
    return type(up) in (ast.Assign, ast.AnnAssign)


def _fixed(p, call: ast.Call) -> bool:
    """The argument the predicate reads is written in the call (by keyword, or at its position)."""
    if p.name is not None and any(k.arg == p.name for k in call.keywords):
        return True
    return p.position is not None and p.position < len(call.args) \
        and not any(type(a) is ast.Starred for a in call.args[:p.position + 1])


def _power_of_two(n: int) -> str:
    """4294967295 -> "2**32-1", 2**40 -> "2**40", other numbers as written."""
    for k in range(1, 513):
        if n == 1 << k:
            return f"2**{k}"
        if n == (1 << k) - 1:
            return f"2**{k}-1"
    return str(n)


def _handed_on(ctx, node) -> bool:
    """The name is only passed on as it is: returned or yielded (`return args, ds_init`) or assigned to another
    name, alone or in a tuple or list. An argument of a call (`torch.zeros(n, dtype=DTYPE)`) uses it there."""
    p = ctx.parent(node)
    while type(p) in (ast.Tuple, ast.List, ast.Starred):
        p = ctx.parent(p)
    return type(p) in (ast.Return, ast.Yield, ast.Assign)


def _alias_only(name: str, scope) -> bool:
    """Every binding of the name, in the nearest scope binding it, is an assignment of an expression (`ds_init =
    deepspeed.initialize`, `ds_init = None`): the reference written on the assignment's right-hand side is matched
    where it stands, so a use that only hands the value on (`_handed_on`) is not reported again (one thing, one
    finding). A name some import binds is the library's object itself."""
    s = scope
    while s is not None:
        got = s.bindings.get(name)
        if got:
            return all(b.kind == "expr" for b in got)
        s = s.parent
    return False


def _from_imports(index) -> dict:
    """Full dotted name -> the `from X import name` statement that binds it (`torch.cuda.amp.custom_fwd`); and
    ("as", local name, module) -> the statement binding a submodule to that name: `import X.Y as name`, or
    `from torch.cuda import amp` (the name's uses are attribute chains of it, `amp.GradScaler()`, so it is
    a module there; a class imported so is used by calling it, which this table is not asked about)."""
    out: dict = {}
    for node, cands in index.imports:
        if type(node) is ast.ImportFrom and len(cands) == 2:
            out.setdefault(cands[1], node)
            if node.level == 0 and node.module and "." in node.module:
                for a in node.names:
                    # a lower-case name is a module (`amp`); `FakeQuantize.with_args(...)` uses a class, and
                    # the import of a flagged object is not listed with its uses (as for `from torch import float64`)
                    if cands[1] == f"{node.module}.{a.name}" and a.name[:1].islower():
                        out.setdefault(("as", a.asname or a.name, cands[1]), node)
        elif type(node) is ast.Import:
            for a in node.names:
                if a.asname and a.name == cands[0] and "." in a.name:
                    out.setdefault(("as", a.asname, a.name), node)
                elif not a.asname and a.name == cands[0] and "." not in a.name:
                    out.setdefault(("plain", a.name), node)
    return out


def _module_alias(node: ast.Attribute, q: str, from_imports: dict):
    """The import statement that bound the root name of `amp.autocast` to a submodule (`import torch.cuda.amp
    as amp`) and that module, given the chain's full name `q`; (None, "") for a
    top-level package (`import torch`) or a name bound otherwise."""
    depth = 0
    root = node
    while type(root) is ast.Attribute:
        root = root.value
        depth += 1
    if type(root) is not ast.Name or q.count(".") < depth:
        return None, ""
    module = q.rsplit(".", depth)[0]
    if "." not in module:
        return None, ""
    return from_imports.get(("as", root.id, module)), module


def _tests_cuda_device(expr: ast.expr) -> bool:
    """The expression (perhaps inside `and` / `or` / `not`) tests for the CUDA device: `device == "cuda"`,
    `x.device.type == "cuda"`, `"cuda" in str(device)`, `x.is_cuda`."""
    for node in walk(expr):
        if type(node) is ast.Attribute and node.attr == "is_cuda":
            return True
        if type(node) is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) in (ast.Eq, ast.In) and any(
                type(c) is ast.Constant and type(c.value) is str and (c.value == "cuda" or c.value.startswith("cuda:"))
                for c in (node.left, node.comparators[0])):
            return True
    return False


def _conditional_literal(bindings) -> bool:
    """A name bound once, from a conditional expression (`backend = "nccl" if cuda else "gloo"`)."""
    return bool(bindings) and len(bindings) == 1 and bindings[0].kind == "expr" \
        and type(bindings[0].value) is ast.IfExp


def _several_or_env(bindings, use=None) -> bool:
    """A name assigned in several places the resolver follows (if/else arms), or once from an
    environment getter with a default: the values whose literal is the place to report."""
    if not bindings:
        return False
    if len(bindings) == 1:
        b = bindings[0]
        return b.kind == "call" and env_default(b.value) is not None
    # (a parameter filled in by the function, `if backend is None: backend = "nccl"`: the arm's literal)
    # (a parameter the function overwrites before the use, `backend = "nccl"` then `else: backend = "gloo"`)
    param_scope = next((b.scope for b in bindings if b.kind == "param"), None)
    return all(b.kind in FOLLOWED_KINDS and b.branch is not None for b in bindings) or \
        filled_parameter(bindings, param_scope) or (use is not None and overwritten_parameter(bindings, param_scope,
                                                                                              use))


def showing_calls(values: dict) -> frozenset:
    """Calls whose arguments only show a value (`output-functions` of [context.values], and `str.format`, which
    only builds the text): a parsed option printed or logged is no place where it is used."""
    return frozenset(values.get("output-functions", ())) | {"format"}


def _option_dest(call: ast.Call) -> str | None:
    """The attribute `parser.add_argument("--dist-backend", ...)` stores its value under (`dist_backend`)."""
    for k in call.keywords:
        if k.arg == "dest":
            return k.value.value if type(k.value) is ast.Constant and type(k.value.value) is str else None
    flags = [a.value for a in call.args if type(a) is ast.Constant and type(a.value) is str]
    long = [f for f in flags if f.startswith("--")]
    name = long[0][2:] if long else flags[0].lstrip("-") if flags else None
    name = name.replace("-", "_") if name else None
    return name if name and name.isidentifier() else None


def _option_reads(ctx: FileContext, call: ast.Call, kw: ast.keyword, showing: frozenset) -> tuple:
    """`parser.add_argument("--dist-backend", default="nccl")`, then `launch(..., backend=args.dist_backend)` in the
    same file: each read of the option handed to a call (not one that only shows it) is where the default is used,
    a place of the default's finding (at most 8)."""
    if kw.arg != "default" or type(call.func) is not ast.Attribute or call.func.attr != "add_argument":
        return ()
    dest = _option_dest(call)
    if dest is None:
        return ()
    parsed = _parsed_names(ctx)
    if not parsed:
        return ()
    out = []
    for other in ctx.nodes(ast.Call):
        if other is call:
            continue
        f = other.func
        if (f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else "") in showing:
            continue
        for v in (*other.args, *(k.value for k in other.keywords)):
            if type(v) is ast.Attribute and v.attr == dest and type(v.value) is ast.Name and v.value.id in parsed:
                out.append(v)
                if len(out) >= 8:
                    return tuple(out)
    return tuple(out)


def _parsed_names(ctx: FileContext) -> frozenset:
    """Names the file binds to the namespace its parser makes (`args = make_parser().parse_args()`, `args, _ =
    parser.parse_known_args()`): reads through them are this file's options. A parameter named `args` may hold
    any namespace and is not one."""
    found = ctx.memo.get("_parsed_names")
    if found is None:
        names = set()
        for st in ctx.nodes(ast.Assign):
            v = st.value
            if type(v) is ast.Call and type(v.func) is ast.Attribute \
                    and v.func.attr in ("parse_args", "parse_known_args"):
                for t in st.targets:
                    first = t.elts[0] if type(t) is ast.Tuple and t.elts else t
                    if type(first) is ast.Name:
                        names.add(first.id)
        found = ctx.memo["_parsed_names"] = frozenset(names)
    return found


def _imports_torch(ctx: FileContext) -> bool:
    """The file imports torch somewhere, or calls a method only torch tensors have (`[context.values]
    tensor-only-methods`: a module of a torch project handed tensors, fairseq's criteria). A mask index means
    nothing for trnready in other files; the prefilter tokens of subscript matchers (`torch` and those methods)
    rely on this."""
    found = ctx.memo.get("_imports_torch")
    if found is None:
        found = any(c == "torch" or c.startswith("torch.") for _, cands in ctx.index.imports for c in cands)
        if not found and ctx.index.module.stars:
            # `from model import *` of a module whose `import torch as th` the file then reads (`th.cat(...)`):
            # a conventional torch name the file never binds resolves to torch through the star (resolve.py)
            torch_names = {n for n, q in ctx.resolver.star_names.items() if q == "torch" or q.startswith("torch.")}
            found = any(type(a.value) is ast.Name and a.value.id in torch_names
                        and ctx.resolver.lookup(ctx.index.module, a.value.id) is None
                        for a in ctx.nodes(ast.Attribute))
        if not found:
            methods = frozenset(ctx.values.get("tensor-only-methods", ()))
            found = bool(methods) and any(type(c.func) is ast.Attribute and c.func.attr in methods
                                          for c in ctx.calls())
        ctx.memo["_imports_torch"] = found
    return found


def _starred_entry(ctx: FileContext, name: str, call: ast.Call, scope):
    """The value node of the `name` entry of a dict a call unpacks (`**params`, `params = dict(gpus=n)` or
    `{"gpus": n}`), or None."""
    for kw in call.keywords:
        if kw.arg is None:
            found = ctx.resolver.starred_dict(kw.value, scope)
            if found is not None and name in found[0]:
                value = found[0][name][0]
                return value if hasattr(value, "lineno") else None
    return None


def _glob_re(name: str):
    """Call-name globs: a component `*` is one or more dotted components ("transformers.*.from_pretrained");
    a component with `*` inside ("*ForCausalLM") is a name glob, optionally after submodules
    ("transformers.*For*.from_pretrained" also matches transformers.models.bert.BertForMaskedLM...)."""
    import re

    def part(p):
        if p == "*":
            return r"[\w.]+"
        if "*" in p:
            return r"(?:\w+\.)*" + r"\w*".join(re.escape(x) for x in p.split("*"))
        return re.escape(p)
    return re.compile(r"\.".join(part(p) for p in name.split(".")))


# At most this many uses of a library's imported names are listed with its import finding.
MAX_IMPORT_USES = 40


def _refs_by_root(index) -> dict:
    """Root name -> the recorded references (imported names and attribute chains) rooted at it, in file order."""
    out: dict = {}
    for ref, scope in index.refs:
        root = root_name(ref)
        if root is not None:
            out.setdefault(root, []).append((ref, scope))
    return out


def _bound_names(node) -> list:
    """The names an import statement binds: `import a.b` binds `a`, `import a.b as c` and `from a import b as c`
    bind `c`."""
    return [a.asname or (a.name if type(node) is ast.ImportFrom else a.name.split(".", 1)[0]) for a in node.names
            if a.name != "*"]


def _uses_of_import(ctx: FileContext, node, prefix: str, uses: dict) -> tuple:
    """The references that use a name this import statement binds and resolve into the module `prefix`
    (`flash_attn_func(...)` after `from flash_attn import flash_attn_func`; `rot.apply_rotary(...)` after
    `import flash_attn.layers.rotary as rot`). A name rebound in a function resolves to something else there
    and is not listed."""
    out: list = []
    canon = ctx.resolver.canonical
    for name in _bound_names(node):
        for ref, scope in uses.get(name, ()):
            if ref.lineno == node.lineno or not any((q := canon(q0)) == prefix or q.startswith(prefix + ".")
                                                    for q0 in ctx.resolver.qualnames(ref, scope)):
                continue
            if not _type_test(ctx, ref) and not _in_kernel(ctx, ref, _library_names(ctx, prefix)):
                out.append(ref)
                if len(out) >= MAX_IMPORT_USES:
                    return tuple(out)
    return tuple(out)


def _library_names(ctx: FileContext, prefix: str) -> frozenset:
    """The names the file's imports of `prefix`'s top-level package bind (`triton` and `tl` for Triton)."""
    top = prefix.split(".", 1)[0]
    key = ("_library_names", top)
    names = ctx.memo.get(key)
    if names is None:
        out = set()
        canon = ctx.resolver.canonical  # `import triton_pre_mlir.language as tl`: an alias of the same library
        for node, cands in ctx.index.imports:
            if any((c := canon(c0)) == top or c.startswith(top + ".") for c0 in cands):
                out.update(_bound_names(node))
        names = ctx.memo[key] = frozenset(out)
    return names


def _in_kernel(ctx: FileContext, ref, bound) -> bool:
    """A decorator naming the library (`@triton.jit`, `@cuda.jit`) or a use inside the function it decorates:
    that kernel is reported where it is defined, not at each `tl.load` in its body."""
    cur, up = ref, ctx.parent(ref)
    while up is not None:
        if type(up) in (ast.FunctionDef, ast.AsyncFunctionDef):
            if cur in up.decorator_list:
                return True
            if any(root_name(d.func if type(d) is ast.Call else d) in bound for d in up.decorator_list):
                return True
        cur, up = up, ctx.parent(up)
    return False


def _type_test(ctx: FileContext, ref) -> bool:
    """`isinstance(m, bnb.nn.Linear4bit)`: a class named only to test a type (issue 13 counts a library used so
    apart from its calls; without the library the test is simply dropped)."""
    up = ctx.parent(ref)
    if type(up) is ast.Tuple:
        up = ctx.parent(up)
    return type(up) is ast.Call and type(up.func) is ast.Name and up.func.id in ("isinstance", "issubclass") \
        and ref is not up.func and (len(up.args) < 1 or ref is not up.args[0])


def _prefixes(dotted: str):
    parts = dotted.split(".")
    acc = parts[0]
    yield acc
    for part in parts[1:]:
        acc = f"{acc}.{part}"
        yield acc


def _default_fed(ctx: FileContext, target: ast.expr, scope) -> tuple:
    """The literal default of the parameter a setting is assigned from, as a place of the setting's finding:
    `def training_loop(..., cudnn_benchmark=True): ... torch.backends.cudnn.benchmark = cudnn_benchmark`. The
    default is the value every call leaving the argument out runs with, the line a user edits along with the
    setting. A parameter the function binds again, or one without a literal default, adds nothing."""
    st = ctx.statement_at((target.lineno, target.col_offset))
    if type(st) is not ast.Assign or type(st.value) is not ast.Name or target not in st.targets:
        return ()
    bound = scope.bindings.get(st.value.id)
    if not bound or len(bound) != 1 or bound[0].kind != "param":
        return ()
    default = bound[0].value[0]  # (default expression or None, the scope defaults are read in)
    return (default,) if type(default) is ast.Constant and default.value is not None else ()


def _with_mask_sources(ctx: FileContext, hit: Hit) -> Hit:
    """A hit whose matcher requires an argument not None, given a parameter of the enclosing method: the places
    where the file's own blocks hand it a mask are listed with it (trnready/mask_sources.py)."""
    call = hit.node
    if type(call) is not ast.Call or hit.guarded:
        return hit
    from .mask_sources import mask_sources

    found: tuple = ()
    for p in hit.matcher.args:
        if p.op == "is-not-none":
            arg = argument_of(p, call)
            if type(arg) is ast.Name and arg.id in ctx.index.param_names:
                found += mask_sources(ctx, call, arg)
            elif type(arg) is ast.Name:
                found += _mask_built_here(ctx, call, arg)
    # the rule's other masks given by keyword (`attn_mask=memory_mask` beside the `key_padding_mask=...` its
    # first matcher took: Mask2Former's cross-attention), read by name only (positions differ between matchers)
    named = {p.name for m in hit.rule.matchers if m is not hit.matcher for p in m.args
             if p.op == "is-not-none" and p.name} - {p.name for p in hit.matcher.args}
    for k in call.keywords:
        if k.arg in named and type(k.value) is ast.Name and k.value.id in ctx.index.param_names:
            found += mask_sources(ctx, call, k.value)
    return replace(hit, also=hit.also + tuple(dict.fromkeys(found))) if found else hit


def _mask_built_here(ctx: FileContext, call: ast.Call, arg: ast.Name) -> tuple:
    """The statement building a mask the function binds once (`key_padding_mask = ~valid_mask(x)` above
    `self.encoder(x, src_key_padding_mask=key_padding_mask)`), when it sits on another line than the call: the line
    a reader changes to bucket, pack or drop the mask."""
    fn = enclosing_function(ctx, call)
    value = value_bound_once(fn, arg.id) if fn is not None else None
    if value is None or not hasattr(value, "lineno"):
        return ()
    return () if call.lineno <= value.lineno <= (call.end_lineno or call.lineno) else (value,)


def _with_size_sources(ctx: FileContext, hit: Hit) -> Hit:
    """A hit kept because its size argument is read out of tensor data (`topk(x, num_nn)` after
    `num_nn = adj.sum(-1).max().item() + 1`), or a slice bounded by such a number: the reads of the data
    (`.item()`) and the assignment of a bound's name are listed among its places, the lines a reader looks at to
    see which value decides the size."""
    node = hit.node
    if hit.guarded:
        return hit
    from .context.base import call_scope, size_argument, subscript_scope
    from .masks import tensor_data_reads

    if type(node) is ast.Call:
        k = size_argument(hit, "k")
        sizes = [k] if k is not None else []
        scope = call_scope(ctx, node)
    elif type(node) is ast.Subscript:
        # `h[:batch_size_t]` after `batch_size_t = sum([l > t for l in decode_lengths])`: the bounds of its slices,
        # and the assignment binding a bound's name (where the size is computed)
        parts = node.slice.elts if type(node.slice) is ast.Tuple else [node.slice]
        sizes = [b for p in parts if type(p) is ast.Slice for b in (p.lower, p.upper) if b is not None]
        scope = subscript_scope(ctx, node)
    else:
        return hit
    found: list = []
    for size in sizes:
        reads = tensor_data_reads(size, scope, ctx.resolver)
        if reads and type(size) is ast.Name:
            found += [b.value for b in ctx.resolver.lookup(scope, size.id) or ()
                      if b.kind in ("expr", "call") and isinstance(b.value, ast.expr)]
        found += reads
    found = [e for e in found if e.lineno != node.lineno]
    return replace(hit, also=hit.also + tuple(dict.fromkeys(found))) if found else hit


def _device_option_reads(ctx: FileContext, expr: ast.expr, showing: frozenset) -> tuple:
    """The reads of a command-line option whose `default=` is `expr` (`_option_reads`), else ()."""
    st = ctx.statement_at((expr.lineno, expr.col_offset))
    call = getattr(st, "value", None)
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute or call.func.attr != "add_argument":
        return ()
    for kw in call.keywords:
        if kw.arg == "default" and kw.value is expr:
            return _option_reads(ctx, call, kw, showing)
    return ()


def _fallback_raises(ctx, node) -> bool:
    """The optional import's fallback only raises where the op is used (context/_raising_fallback.py)."""
    from .context._raising_fallback import fallback_raises

    return ctx.fact("raising-fallback:%d" % id(node), lambda c: fallback_raises(c, node))
