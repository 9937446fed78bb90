"""What the project's own callers pass: the call sites of a project function decide about its parameters.

Per file (summary field `callers`, computed with the rest of the summary):

    sigs   function or `Class.method` -> [first line, last line, parameters, {parameter: default literal or "?"}]
           (parameters in order; `*name` and `**name` mark the catch-alls)
    calls  [line, col, end_line, end_col, callee, enclosing function or "", arguments, keywords] for each call
           of a project name, of a method through `self` (`Class.method`; also on a name the function binds once
           to a construction of a class of the file: `model = DLA(...)`, `model.load_pretrained_model(...)`),
           of an instance kept on `self`
           (`Class@attr`) or of an element of a list of them (`Class@attr[]`: `self.layers[i](x)`, `for layer in
           self.layers: layer(x)`). An argument is a literal's source, `=p` for the enclosing function's own
           parameter p passed on as it is, `*` for a spread, `?` for anything else. (The per-file summary holds
           the cheap record: no instance calls, and `=p` even when the body assigns p again; `Callers.full` gives
           the whole record of a file when a decision needs it.)
    insts  class -> {attr: [callee as written, "one" | "many"]}: `self.attr = Thing(...)`, or a list of them
           (`self.attr.append(Thing(...))`, `nn.ModuleList([Thing(...) for ...])`, `nn.Sequential(*[Thing(...) ...])`,
           `nn.ModuleList(blocks)` of a local list only appended `Thing(...)` to),
           where Thing is a project name (imported, or a class of the same file)
           and the attribute is used in no other way than by being called, indexed and called, or looped over;
           or `["=p", ...]`: `__init__` keeps its parameter p (`self.layer = layer`) or copies of it (`self.layers =
           _get_clones(decoder_layer, n)`, a clone helper of the file returning `nn.ModuleList([copy.deepcopy(p)
           ...])`), p read once and never bound again. The class is then whatever every construction hands to p.
An argument `@Callee` is an instance built for that call alone: a construction written in the argument, or a name the
function binds once to a construction and reads only there (`decoder_layer = TransformerDecoderLayer(...)`).

A function's callers are known only when every mention of its name in the scanned files is its definition, an
import of it, or a call the link step resolved to a project function: a reference as a
value (a callback, a registry), a call through an object of unknown type, a string or a comment naming it
leaves the callers unknown and the finding stands. For `forward`, reached by calling an instance, the mentions
counted are those of the class: its definition, its imports and the constructions kept in `insts`.
"""
from __future__ import annotations

import ast
import json
import re
from typing import Callable

from .call_sites import passed, rebound
from .quiet_mentions import quiet_mentions
from .switch_params import SWITCH_OFF, may_switch, switched_off, switched_on_by
from .syntax import dotted
from .app_packaging import declares_package
from .word_sets import is_word, kept_only
from ..astwalk import walk
from ..scope import classify

MAX_CHAIN = 4  # parameters passed on from caller to callee, followed at most this deep
KEEP_TREES = 2  # syntax trees kept while deciding (candidates are taken file by file)
KEEP_TEXTS = 8  # file texts kept while deciding (the others are read again when asked for)
KEEP_FULL = 32  # whole callers records kept while deciding (the least recently used is summarised again)
MAX_ATTR_FILES = 64  # files naming an instance attribute read whole to account for its mentions, at most


# ---------------------------------------------------------------- the link side
class Callers:
    """The project's calls resolved to the functions they reach, and what can be concluded about a parameter
    from all of them. `linker`: a Linker over the summaries (its name resolution only); `mentions(name)`: how
    often the word occurs in the scanned files' text (asked only for the few names a finding needs)."""

    def __init__(self, linker, mentions, full=None, naming=None, wanted=(), own_attrs=None, facts=None, shares=None):
        self.linker = linker
        # word -> {rel: its mentions there}, once `mentions(word)` has counted them (per-module accounting)
        self.shares: Callable[[str], dict] = shares or (lambda word: {})
        self.defs_in: dict = {}  # (rel, last name) -> definitions of functions and methods of that name in the file
        self.imports_in: dict = {}  # rel -> {imported name: import statements naming it}
        self.written_in: dict = {}  # (calling rel, last name) -> resolved calls written there
        # what the first pass reads of each summary (`_file_facts`), kept in the cache under the file's digest
        # (cache.FileFacts, or None): after an edit, only the edited files' summaries are decoded for it
        self.facts = facts
        # (rel, attr) -> {class: mentions of `self.attr` in its body} for the classes of the file that set
        # `self.attr` themselves (their own attribute, whatever a holder elsewhere keeps under that name)
        self.own_attrs: Callable[[str, str, frozenset], dict] = own_attrs or (lambda rel, attr, holders: {})
        self.mentions = mentions
        # The summaries hold the cheap record (call_sites.record); `full(rel)` gives a file's whole record (the
        # instances its classes keep, parameters passed on as they are), asked for the few files a decision needs.
        self.full = full or (lambda rel: None)
        self.naming = naming or (lambda word: ())  # the Python files whose text holds the word
        self.by_target: dict = {}  # (rel, function) -> [(caller rel, call record)]
        self.written: dict = {}  # last name as written at a resolved call -> how many
        self.defs: dict = {}  # last name of a function or method -> definitions
        self.classes: dict = {}  # class name -> definitions
        self.children: dict = {}  # base last name -> [(rel, class)]
        self.imports: dict = {}  # imported name -> import statements naming it
        self.deco: set = set()  # (rel, name) decorated
        self.constructions: dict = {}  # (rel, class) -> resolved calls constructing it
        self.built_in: dict = {}  # (rel, class) -> the files holding those calls
        self.names: dict = {}  # rel -> the functions and methods it defines
        self.sigs: dict = {}  # rel -> {function: signature}, for the functions of the names indexed
        self._memo: dict = {}
        self._indexed: set = set()
        self._passes = 0
        # rel -> the last names a pass can look for in it (its defined functions, its callees and the names its
        # imports rename), noted by the first pass: a later pass decodes only the summaries holding one
        self._names_in: dict = {}
        self.index(set(wanted))

    def index(self, names: set) -> None:
        """Make the calls of the functions and classes with these last names known (by_target, written,
        constructions), with the calls handing a parameter on to them followed MAX_CHAIN deep: one pass over every
        summary per level. Only those calls and signatures are kept: resolving and keeping every call of the
        project, when a scan asks about a few functions, was most of the scan's peak memory."""
        names = set(names) - self._indexed
        for _ in range(MAX_CHAIN + 1):
            if not names and self._passes:
                return
            self._indexed |= names
            kept = self._pass(names)
            # the functions whose own parameter reaches one of these calls: their callers decide too
            names = {call[5].rsplit(".", 1)[-1] for _rel, call in kept if call[5] and any(
                a[:1] in ("=", "~") for a in (*call[6], *call[7].values()))} - self._indexed

    def _pass(self, names: set) -> list:
        if not self._passes:
            self._tables()
        self._passes += 1
        kept = []
        through_self = []  # (rel, call) of `self.method(...)`: a subclass's override is a target too
        for rel in self.linker.summaries:
            # a file naming none of the names (no definition, call or import of one) holds no call of them
            if not names or names.isdisjoint(self._names_in.get(rel, ())):
                continue
            s = self.linker.summaries[rel]
            rec = s.get("callers")
            if not rec:
                continue
            sigs = {n: v for n, v in rec["sigs"].items() if n.rsplit(".", 1)[-1] in names}
            if sigs:
                self.sigs.setdefault(rel, {}).update(sigs)
            # a name imported under another one (`from .ops import attend as att`) is called by that one
            local = names | {k for k, (_m, _l, orig) in s.get("imports", {}).items() if orig in names}
            for call in rec["calls"]:
                callee = call[4]
                if callee.rsplit(".", 1)[-1] not in local:
                    continue
                if callee.count(".") == 1 and callee in rec["sigs"]:
                    through_self.append((rel, call))
                for target in self._targets(rel, rec, callee):
                    self.by_target.setdefault(target, []).append((rel, call))
                    kept.append((rel, call))
        for rel, call in through_self:
            cls, _, meth = call[4].partition(".")
            for target in self._overrides(cls, meth):
                self.by_target.setdefault(target, []).append((rel, call))
                kept.append((rel, call))
        return kept

    def _tables(self) -> None:
        """The project-wide tables (imports, definitions, classes and their bases, decorated functions) and each file's
        names (`_names_in`), from every summary's `_file_facts`: kept in the cache for the file's content, or read
        from its summary."""
        for rel in self.linker.summaries:
            fact = self.facts.get(rel, _facts_valid) if self.facts is not None else None
            if fact is None:
                src = self.linker.summaries
                fact = _file_facts(src.untracked(rel) if hasattr(src, "untracked") else src[rel])
                if self.facts is not None:
                    self.facts.put(rel, fact)
            imported, sigs, bases, deco, names_in = fact
            mine: dict = {}
            for name in imported:
                self.imports[name] = self.imports.get(name, 0) + 1
                mine[name] = mine.get(name, 0) + 1
            if mine:
                self.imports_in[rel] = mine
            if sigs is None:
                continue
            self.names[rel] = frozenset(sigs)
            for name in sigs:
                last = name.rsplit(".", 1)[-1]
                self.defs[last] = self.defs.get(last, 0) + 1
                self.defs_in[(rel, last)] = self.defs_in.get((rel, last), 0) + 1
            for cls, bs in bases.items():
                self.classes[cls] = self.classes.get(cls, 0) + 1
                for b in bs:
                    self.children.setdefault(b, []).append((rel, cls))
            self.deco.update((rel, d) for d in deco)
            self._names_in[rel] = frozenset(names_in)

    def _wrote(self, rel: str, last: str) -> None:
        self.written[last] = self.written.get(last, 0) + 1
        self.written_in[(rel, last)] = self.written_in.get((rel, last), 0) + 1

    def sig(self, rel: str, fname: str):
        self.index({fname.rsplit(".", 1)[-1]})
        return self.sigs.get(rel, {}).get(fname)

    def _targets(self, rel: str, rec: dict, callee: str) -> list:
        if "@" in callee:
            cls, _, attr = callee.partition("@")
            many = attr.endswith("[]")
            inst = rec["insts"].get(cls, {}).get(attr.rstrip("[]"))
            if inst is None or (inst[1] == "many") != many:
                return []
            if inst[0].startswith("="):
                return [(m[0], f"{m[1]}.forward") for m in self._handed_in(rel, cls, inst[0][1:])]
            made = self._class_of(rel, inst[0])
            if made is None:
                return []
            return [(made[0], f"{made[1]}.forward")]
        from .link import Class, Func

        if callee.count(".") == 1 and callee in rec["sigs"]:
            # `self.helper(...)`, written Class.helper (a subclass's override of helper is a target too: added once
            # every class is known, in __init__)
            cls, _, meth = callee.partition(".")
            self._wrote(rel, meth)
            return [(rel, callee)]
        r = self.linker.expr(rel, callee, 0)
        last = callee.rsplit(".", 1)[-1]
        if isinstance(r, Func):
            self._wrote(rel, last)
            return [(r.module, r.name)]
        if isinstance(r, Class):
            self._wrote(rel, last)
            key = (r.module, r.name)
            self.constructions[key] = self.constructions.get(key, 0) + 1
            self.built_in.setdefault(key, set()).add(rel)
            # a construction calls __init__ (whether the class defines one is known once every file is indexed)
            return [(r.module, f"{r.name}.__init__")]
        return []

    def _handed_in(self, rel: str, cls: str, param: str) -> list:
        """The classes (file, name) whose instances every construction of `cls` hands to its `__init__` parameter
        (`TransformerDecoder(decoder_layer, n)` with `decoder_layer = TransformerDecoderLayer(...)`): [] unless
        every construction is known and passes a construction of a project class there."""
        key = ("handed", rel, cls, param)
        if key not in self._memo:
            self._memo[key] = []
            init = f"{cls}.__init__"
            found = self.callers(rel, init)
            if found and self.known(rel, init):
                out: set = set()
                for crel, call in found:
                    v = self.passed(rel, init, call, param)
                    made = self._class_of(crel, v[1:]) if v is not None and v.startswith("@") else None
                    if made is None:
                        out = set()
                        break
                    out.add(made)
                self._memo[key] = sorted(out)
        return self._memo[key]

    def _handed_sites(self, rel: str, cls: str):
        """(sites, attrs, holder files) for the instances of `cls` handed to the `__init__` of another class that
        keeps them on self (`self.layers = _get_clones(decoder_layer, n)`): each construction of a holder passing a
        construction of `cls` is one site. Asked for a class's callers and for its instances alike: kept."""
        key = ("handed-sites", rel, cls)
        if key not in self._memo:
            self._memo[key] = self._count_handed_sites(rel, cls)
        return self._memo[key]

    def _count_handed_sites(self, rel: str, cls: str):
        sites, attrs, files = 0, set(), set()
        for hrel in sorted(self.built_in.get((rel, cls), ())):
            rec = self.full(hrel)
            if not rec:
                continue
            for call in rec["calls"]:
                vals = [v for v in (*call[6], *call[7].values()) if v.startswith("@")]
                if not any(self._class_of(hrel, v[1:]) == (rel, cls) for v in vals):
                    continue
                holder = self._class_of(hrel, call[4])
                if holder is None:
                    continue
                sig = self.sig(holder[0], f"{holder[1]}.__init__")
                hrec = self.full(holder[0])
                if sig is None or not hrec:
                    continue
                kept = hrec["insts"].get(holder[1], {})
                for p in sig[2]:
                    v = passed(sig[2], f"{holder[1]}.__init__", call, p)
                    if v is not None and v.startswith("@") and self._class_of(hrel, v[1:]) == (rel, cls):
                        for attr, entry in kept.items():
                            if entry[0] == "=" + p:
                                sites += 1
                                attrs.add(attr)
                                files.add(holder[0])
        return sites, attrs, files

    def _class_of(self, rel: str, callee: str):
        """(file, class) a callee builds: a project class, or a module-level project function returning one
        construction of a project class (its full record's `rets`: 3detr's `build_decoder(args)` returns the
        TransformerDecoder it builds, and `Model3DETR(..., decoder, ...)` keeps that instance on self)."""
        from .link import Class, Func

        r = self.linker.expr(rel, callee, 0)
        if isinstance(r, Class):
            return (r.module, r.name)
        if isinstance(r, Func) and "." not in r.name:
            ret = ((self.full(r.module) or {}).get("rets") or {}).get(r.name)
            if ret is not None:
                c = self.linker.expr(r.module, ret, 0)
                if isinstance(c, Class):
                    return (c.module, c.name)
        return None

    def _overrides(self, cls: str, meth: str) -> list:
        """The overrides of the method in the classes below cls (by base name; each class once, so a cycle of
        names such as `class Linear(nn.Linear)` ends)."""
        key = ("overrides", cls, meth)
        if key not in self._memo:
            out = []
            for crel, child in sorted(self._below(cls)):
                if f"{child}.{meth}" in self.names.get(crel, ()):
                    out.append((crel, f"{child}.{meth}"))
            self._memo[key] = out
        return self._memo[key]

    def _below(self, cls: str) -> set:
        """(file, class) of every class below cls, by base name."""
        out: set = set()
        todo = [cls]
        named: set = {cls}
        while todo and len(out) < 4096:
            for crel, child in self.children.get(todo.pop(), ()):
                if (crel, child) not in out:
                    out.add((crel, child))
                    if child not in named:
                        named.add(child)
                        todo.append(child)
        return out

    # -------------------------------------------------------------- what is known
    def known(self, rel: str, fname: str) -> bool:
        """Every caller of the function is among the resolved calls (see the module's docstring)."""
        key = ("known", rel, fname)
        if key not in self._memo:
            self._memo[key] = self._known(rel, fname)
        return self._memo[key]

    def _known(self, rel: str, fname: str) -> bool:
        if (rel, fname) in self.deco or fname not in self.names.get(rel, ()):
            return False
        last = fname.rsplit(".", 1)[-1]
        self.index({last})
        if last in ("forward", "__call__"):
            return "." in fname and last == "forward" and self._instances_known(rel, fname.split(".", 1)[0])
        if last == "__init__" and fname.count(".") == 1:
            return self._constructions_known(rel, fname.split(".", 1)[0])
        if last.startswith("__"):
            return False  # dunders are called by the language
        accounted = self.defs.get(last, 0) + self.written.get(last, 0) + self.imports.get(last, 0) \
            + self.classes.get(last, 0)
        total = self.mentions(last)
        if total == accounted or "." in fname:
            return total == accounted
        # Copies of one script each define `train` / `test` (rethinking-network-pruning's dozen cifar.py variants):
        # a file with its own module-level definition of the name that imports neither the name nor this module
        # means its own, so its mentions and what accounts for them leave both counts.
        stem = rel.rsplit("/", 1)[-1].removesuffix(".py")
        for other, n in self.shares(last).items():
            if other == rel:
                continue
            imported = self.imports_in.get(other, {})
            if last in imported or stem in imported:
                # Script folders side by side (`a/main.py` importing `train_model` from `a/train.py`, `b/main.py`
                # from `b/train.py`): a file taking the name from another project file mentions that one's
                # function, so its mentions and what accounts for them leave both counts too
                source = self._import_source(other, last if last in imported else None, stem)
                if source is None or source == rel:
                    continue
                total -= n
                accounted -= self.written_in.get((other, last), 0) + imported.get(last, 0) \
                    + self.defs_in.get((other, last), 0)
                continue
            if last not in self.names.get(other, ()):
                continue
            total -= n
            accounted -= self.defs_in.get((other, last), 0) + self.written_in.get((other, last), 0)
        return total == accounted

    def _import_source(self, rel: str, name: str | None, stem: str) -> str | None:
        """The project file `rel` takes `name` from (`from train import train_model`), or, for None, the file its
        import of the module `stem` names (`import train`); None when that is not known."""
        try:
            summary = self.linker.summaries[rel]
        except KeyError:
            return None
        if name is not None:
            got = self.linker.imported_from(summary, rel, name)
            return got[0] if got else None
        imp = summary.get("imports", {}).get(stem)
        if imp is None or imp[2] is not None:
            return None
        target = self.linker.absolute(rel, imp[0], imp[1])
        return self.linker.mods.get(target)

    def _constructions_known(self, rel: str, cls: str) -> bool:
        """Every mention of the class is its definition, an import of it or a resolved construction, and no class
        derives from it (a subclass's `super().__init__(...)` is a call no record resolves)."""
        if (rel, cls) in self.deco or self._below(cls):
            return False
        self.index({cls})
        return self.mentions(cls) == self.classes.get(cls, 0) + self.imports.get(cls, 0) + self.written.get(cls, 0)

    def _instances_known(self, rel: str, cls: str) -> bool:
        """Every instance of the class is kept on self by a project class and only called there."""
        if (rel, cls) in self.deco:
            return False
        self.index({cls})  # its constructions
        sites = 0
        attrs = set()
        for hrel, rec in self._holder_records(rel, cls):
            for _holder, kept in rec["insts"].items():
                for attr, (callee, _kind, n, _m) in kept.items():
                    if not callee.startswith("=") and self._class_of(hrel, callee) == (rel, cls):
                        sites += n
                        attrs.add(attr)
        handed, handed_attrs, _files = self._handed_sites(rel, cls)
        sites += handed
        attrs |= handed_attrs
        made = self.constructions.get((rel, cls), 0)
        if not sites or made != sites:
            return False  # a construction whose instance goes somewhere else
        if self.mentions(cls) != self.classes.get(cls, 0) + self.imports.get(cls, 0) + self.written.get(cls, 0):
            return False
        # (a subclass of the holder keeping something else under the same name would make the holder's calls
        # reach that instead: holders of one attribute name must not descend from one another)
        for a in attrs:
            kept = self._kept_under(a)
            if kept is None:
                return False
            inst_mentions, holders = kept
            if self.mentions("." + a) != inst_mentions or any(
                    h in self._descendants(g) for g in holders for h in holders):
                return False
        return True

    def _kept_under(self, attr: str):
        """(mentions of `.attr` that instances kept under that name account for, the classes keeping them), over
        the files naming the attribute (whole records: a copied module may keep other instances under the same
        name); None when too many files name it to read them all (the answer is then "unknown")."""
        key = ("kept", attr)
        if key not in self._memo:
            files = self.naming(attr)
            if len(files) > MAX_ATTR_FILES:
                self._memo[key] = None
            else:
                n = 0
                holders = []
                for hrel in sorted(files):
                    for holder, kept in (self.full(hrel) or {}).get("insts", {}).items():
                        if attr in kept:
                            n += kept[attr][3]
                            holders.append(holder)
                # `self.self_attn = nn.MultiheadAttention(...)` in a class that is no holder and neither below nor
                # above one: its `self.self_attn` is its own attribute, never the holder's instance
                related = set(holders) | {d for h in holders for d in self._descendants(h)}
                for hrel in sorted(files):
                    for cls, count in self.own_attrs(hrel, attr, frozenset(related)).items():
                        if cls not in related and not related & self._descendants(cls):
                            n += count
                self._memo[key] = (n, holders)
        return self._memo[key]

    def _holder_records(self, rel: str, cls: str) -> list:
        """(file, full record) of the files constructing the class: the ones whose classes can keep its instances."""
        key = ("holders", rel, cls)
        if key not in self._memo:
            out = []
            for hrel in sorted(self.built_in.get((rel, cls), ())):
                rec = self.full(hrel)
                if rec and rec["insts"]:
                    out.append((hrel, rec))
            self._memo[key] = out
        return self._memo[key]

    def _descendants(self, cls: str) -> set:
        return {child for _crel, child in self._below(cls)}

    def callers(self, rel: str, fname: str) -> list:
        self.index({fname.rsplit(".", 1)[-1]})
        if fname.endswith(".__init__"):
            self.index({fname.split(".", 1)[0]})  # its constructions
        found = self.by_target.get((rel, fname), [])
        if not fname.endswith(".forward"):
            return found
        self.index({fname.split(".", 1)[0]})  # the constructions of the class: where its instances are kept
        key = ("forward", rel, fname)
        if key not in self._memo:
            # calls through kept instances are in the full records of the files naming the class only
            extra = []
            cls = fname.split(".", 1)[0]
            holders = self._holder_records(rel, cls)
            seen = {h for h, _ in holders}
            for hrel in sorted(self._handed_sites(rel, cls)[2] - seen):
                rec = self.full(hrel)
                if rec:
                    holders = [*holders, (hrel, rec)]
            for hrel, rec in holders:
                for call in rec["calls"]:
                    if "@" in call[4] and (rel, fname) in self._targets(hrel, rec, call[4]):
                        extra.append((hrel, call))
            self._memo[key] = found + extra
        return self._memo[key]

    def _passed_on(self, crel: str, call: list, rel: str, fname: str, param: str) -> bool:
        """The caller's parameter reaches the call as the caller got it (not assigned again in its body), or, for
        the question whether it is None, assigned again only where it is not None (`~p`: `if mask is not None: mask
        = mask.flatten(1)`, DETR's transformer). Only the argument that fills `param` of the callee counts: another
        argument the caller assigns again (`tgt = self._forward_self_attn(tgt, pos, attn_mask)`, MOTR's decoder
        layer) says nothing about this one."""
        rec = self.full(crel)
        if not rec:
            return False
        same = next((c for c in rec["calls"] if c[:6] == call[:6]), None)
        if same is None:
            return False
        plain = lambda v: "=" + v[1:] if v[:1] == "~" else v  # noqa: E731
        if len(same[6]) != len(call[6]) or set(same[7]) != set(call[7]):
            return False
        got, want = self.passed(rel, fname, same, param), self.passed(rel, fname, call, param)
        return got is not None and want is not None and plain(got) == plain(want)

    def passed(self, rel: str, fname: str, call: list, param: str):
        return passed(self.sig(rel, fname)[2], fname, call, param)

    def always_none(self, rel: str, fname: str, param: str, depth: int = 0) -> bool:
        """Every caller passes None for the parameter or leaves it out while its default is None; a caller handing
        on a parameter of its own counts when the same holds for that one (at most MAX_CHAIN deep)."""
        key = ("none", rel, fname, param)
        if key in self._memo:
            return bool(self._memo[key])
        if depth > MAX_CHAIN:
            return False
        self._memo[key] = None  # a cycle is not None-only
        ok = self._always_none(rel, fname, param, depth)
        self._memo[key] = ok
        return ok

    def _always_none(self, rel, fname, param, depth) -> bool:
        sig = self.sig(rel, fname)
        callers = self.callers(rel, fname)
        if sig is None or not callers or not self.known(rel, fname):
            return False
        default = sig[3].get(param)
        for crel, call in callers:
            v = self.passed(rel, fname, call, param)
            if v is None:
                if default is None or default[0] != "None":
                    return False
            elif v[:1] in ("=", "~"):
                if not call[5] or not self._passed_on(crel, call, rel, fname, param) \
                        or not self.always_none(crel, call[5], v[1:], depth + 1):
                    return False
            elif v != "None":
                return False
        return True

    def always_passed(self, rel: str, fname: str, param: str) -> bool:
        """Every caller passes the parameter explicitly: its default never applies in the project."""
        callers = self.callers(rel, fname)
        if not callers or not self.known(rel, fname):
            return False
        return all(self.passed(rel, fname, call, param) not in (None, "*") for _crel, call in callers)

    def leaving_out(self, rel: str, fname: str, param: str) -> list:
        """The resolved calls that leave the parameter out (its default applies there)."""
        return [(crel, call) for crel, call in self.callers(rel, fname)
                if self.passed(rel, fname, call, param) is None]


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what `\w` matches in a str pattern


def count_mentions(text: str, name: str, attribute: bool, quoted: bool = True, keep=None) -> int:
    """How often identifier `name` occurs in text as a whole word; with `attribute`, only as an attribute
    (`x.name`, also `x . name`) or, with `quoted`, quoted (`getattr(self, "name")`). Found with str.find, then judged
    by the characters around: a regex leading with a look-behind or a character class tries every position of every
    file. `keep(text, at, end)`: a further test of each mention found (where it starts and ends)."""
    count, at, size = 0, text.find(name), len(name)
    floor = 0  # where the last mention ends: its characters are not another's quote or dot
    while at >= 0:
        end = at + size
        after = text[end] if end < len(text) else ""
        before = text[at - 1] if at else ""
        if attribute:
            back = at - 1
            while back >= 0 and text[back].isspace():
                back -= 1
            dotted = back >= floor and text[back] == "." and not _word_char(after)
            found = dotted or (quoted and at - 1 >= floor and before in ("'", '"') and after in ("'", '"'))
            end += found and not dotted  # a quoted mention takes its closing quote with it, as a match would
            floor = end if found else floor
        else:
            found = not _word_char(before) and not _word_char(after)
        count += found and (keep is None or keep(text, at, at + size))
        at = text.find(name, end if found else at + 1)
    return count


def _file_facts(s: dict) -> list:
    """What `Callers._tables` reads of one summary: [imported names (an entry per import), the callers record's
    function names (None without a record), its classes' bases, its decorated functions, the last names the file
    defines, calls or imports under another name]."""
    imported = [imp[6] for imp in s.get("imported", ()) if imp[6]]
    rec = s.get("callers")
    if not rec:
        return [imported, None, {}, [], []]
    called = {call[4].rsplit(".", 1)[-1] for call in rec["calls"]}
    names_in = {n.rsplit(".", 1)[-1] for n in rec["sigs"]} | called | {
        orig for k, (_m, _l, orig) in s.get("imports", {}).items() if orig and k in called}
    return [imported, list(rec["sigs"]), rec["bases"], list(rec["deco"]), sorted(names_in)]


def _facts_valid(fact) -> bool:
    def strs(x) -> bool:
        return isinstance(x, list) and all(isinstance(n, str) for n in x)

    return isinstance(fact, list) and len(fact) == 5 and strs(fact[0]) and (fact[1] is None or strs(fact[1])) \
        and isinstance(fact[2], dict) and all(isinstance(k, str) and strs(v) for k, v in fact[2].items()) \
        and strs(fact[3]) and strs(fact[4])


CALLERS_FACT = "callers-tables"


# ---------------------------------------------------------------- findings the callers decide
PASS_NONE = "callers-pass-none"
OVERRIDE = "callers-override-default"


def guard_by_callers(findings: list, files, summaries, engine, cache=None, config=None, digests=()) -> list:
    """Findings no run of the project can reach as written, given every resolved caller:

    - an argument some rule requires to be not None (an attention or padding mask) that is a parameter of the
      enclosing function which every caller passes as None or leaves at its default None, also through callers
      handing on a parameter of their own (`TransformerDecoder` -> `layer(...)` -> `forward_post`);
    - a flagged parameter default (`device="cuda"`) of a private function or method that every caller overrides.

    Marked guarded (`callers-pass-none`, `callers-override-default`). A function with no resolved caller, one
    referenced otherwise than by a resolved call, or a caller passing anything else keeps the finding."""
    from ..cache import LastAnswer, StepMemo

    memo = StepMemo(cache, "callers")
    key = _key(memo, files, digests)
    got = memo.get(key)
    if not _answer_valid(got):
        cands = _candidates(findings, files, summaries, engine, _packaged(files))
        last = LastAnswer(cache, "callers")
        inputs = _inputs(files, digests) if last.cache is not None else None
        sig = _cands_sig(cands) if inputs is not None else ""
        record = last.get() if inputs is not None else None
        got = _reuse(record, inputs, sig, files, summaries, cache, config)
        if got is None:
            reads = Reads()
            got = _decide(cands, files, summaries, engine, config, cache, reads) if cands else []
            record = reads.record({sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}) \
                if inputs is not None else None
        memo.put(key, got)
        if inputs is not None and record is not None:
            last.put({"inputs": inputs, "cands": sig, **{k: record[k] for k in Reads().record({})}, "got": got})
    if not got:
        return findings
    from dataclasses import replace

    verdict = {(p, ln, c, r): why for p, ln, c, r, why in got}
    out = []
    for f in findings:
        why = verdict.get((f.path, f.line, f.column, f.rule)) if not f.guarded and f.cell is None else None
        if why and why.startswith(SWITCHED_ON):
            f = _with_switching_callers(f, json.loads(why[len(SWITCHED_ON):]))
        elif why:
            f = replace(f, guarded=True, guarded_by=why)
        out.append(f)
    return out


# an answer naming the callers that switch a finding's arm on (their places), not a guard
SWITCHED_ON = "switched-on:"


def _with_switching_callers(f, places: list):
    from dataclasses import replace

    here = tuple((ln, col, f.rule) for p, ln, col in places if p == f.path)
    away = tuple((p, ln, col, f.rule) for p, ln, col in places if p != f.path)
    return replace(f, occurrences=tuple(dict.fromkeys((*f.occurrences, *here))),
                   elsewhere=tuple(dict.fromkeys((*f.elsewhere, *away))),
                   message=f"{f.message}; switched on at {len(places)} call{'s' if len(places) != 1 else ''} of "
                           f"the function (first at {places[0][0]}:{places[0][1]})")


def _answer_valid(got) -> bool:
    return isinstance(got, list) and all(isinstance(g, list) and len(g) == 5 for g in got)


class Reads:
    """What deciding read of the files: `deep`, the files whose text it read for more than counting mentions (a
    syntax tree, a whole callers record, lines: any change there may change a verdict); `summaries`, the files
    whose summary it read (an edit leaving the summary as it was changes nothing read there); `words`, the words
    whose mentions it counted, and `counts`, file -> {word: its mentions there} for the files whose text holds
    the word (a file's share of a count is all a count reads of it). Of the other files only their
    `_file_facts` were read (the project-wide tables and which names a file holds)."""

    def __init__(self):
        self.deep: set = set()
        self.summaries: set = set()
        self.heads: set = set()  # files whose summary's head fields only were read (the linker's project tables)
        self.words: set = set()
        self.counts: dict = {}

    def record(self, summaries) -> dict:
        """What `_reuse` checks, with the digests of the summaries read (whole, and their head fields)."""
        from .report import _packed

        return {"sums": {rel: _sums(_packed(summaries[rel])) for rel in sorted(self.summaries | self.heads)
                         if rel in summaries},
                "deep": sorted(self.deep), "summaries": sorted(self.summaries), "heads": sorted(self.heads),
                "words": sorted(self.words),
                "counts": self.counts}


def _sums(packed):
    """Digests of a packed summary, whole and of its head fields (None for no summary)."""
    if packed is None:
        return None
    import hashlib

    from .summary import StaleSummary, _parts

    try:
        head = _parts("", packed)[0]
    except (StaleSummary, ValueError, IndexError):
        return None
    return [hashlib.sha256(bytes(packed)).hexdigest()[:24], hashlib.sha256(bytes(head)).hexdigest()[:24]]


def _share(sf, text: str, word: str, code_words=None) -> int:
    """The file's mentions of the word (callers' `mentions`): in Python sources only code counts
    (project/code_words.py), less the quiet mentions (`super(Cls, self)`, `__all__ = ["Cls"]`); with a leading
    dot, only as an attribute or quoted."""
    bare = word.lstrip(".")
    attribute = word.startswith(".")
    if bare not in text:
        return 0
    if sf.kind == "python":
        if code_words is None:
            from .code_words import CodeWords

            code_words = CodeWords.of(text)
        n = code_words.count(bare, attribute) if code_words is not None else count_mentions(text, bare, attribute)
        return n - quiet_mentions(text, bare) if not attribute else n
    # a quoted key of a data or config file (`"layers": 12` in open_clip's model configs) is no `getattr` of the
    # attribute: only code looks attributes up by a quoted name (a notebook's cells are code)
    return count_mentions(text, bare, attribute, quoted=sf.kind in ("notebook", "python"),
                          keep=None if sf.kind == "notebook" else _names_a_value)


_TOKEN_CHARS = frozenset("._/")


def _names_a_value(text: str, at: int, end: int) -> bool:
    """A mention in a data file's text that can name a function for a program to look up: a config refers to one
    as a whole value (`"type": "FocalLoss"`, `_target_: pkg.losses.focal`, `- train_model`), so the name ends a
    quoted string or a `key:` / `- ` / `key =` line. Prose, tracebacks and code quoted in the text
    (`train_model(model, ...)`, `Functions: train_model, test_model`, a chat log holding whole scripts:
    LLM_based_Segmentation, fresh81) name nothing."""
    if text[end:end + 1] in ("'", '"'):
        return True
    eol = text.find("\n", end, end + 400)
    rest = text[end:eol if eol >= 0 else end + 400].strip()
    if rest and not rest.startswith("#"):
        return False
    start = at
    while start > 0 and (_word_char(text[start - 1]) or text[start - 1] in _TOKEN_CHARS):
        start -= 1
    head = text[max(text.rfind("\n", 0, start) + 1, start - 400):start].rstrip()
    return not head or head.endswith((":", "-", "="))


def _inputs(files, digests):
    """`rel\0kind` -> content digest of every scanned file (None when a digest is missing)."""
    if len(digests) != len(files) or not all(digests):
        return None
    return {f"{sf.rel}\0{sf.kind}": d for sf, d in zip(files, digests)}


def _cands_sig(cands) -> str:
    """One digest of the candidates, with every field of their findings (the decisions read the findings)."""
    import hashlib

    h = hashlib.sha256()
    for f, rel, fname, kind, p in cands:
        h.update(repr((sorted(vars(f).items()), rel, fname, kind, p)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _reuse(record, inputs, sig: str, files, summaries, cache, config):
    """The last answer for this root, when no file edited since changed anything its decisions read: the same
    files and candidates; no edited file among those read deep (`Reads.deep`); each edited file's share of every
    count the same as before (`Reads.counts`), its summary the same where one was read (`Reads.summaries`), and
    its `_file_facts` (what the tables and a pass's first look read) the same as before. None otherwise (decide
    again)."""
    if not isinstance(record, dict) or inputs is None or record.get("cands") != sig:
        return None
    old, deep, words, got = record.get("inputs"), record.get("deep"), record.get("words"), record.get("got")
    read, heads, counts, sums = record.get("summaries"), record.get("heads"), record.get("counts"), record.get("sums")
    if not (isinstance(old, dict) and isinstance(deep, list) and isinstance(words, list) and isinstance(read, list)
            and isinstance(heads, list) and isinstance(sums, dict)
            and isinstance(counts, dict) and all(isinstance(w, str) for w in words) and _answer_valid(got)) \
            or old.keys() != inputs.keys():
        return None
    changed = [k for k, d in inputs.items() if old[k] != d]
    deep = set(deep)
    if any(k.split("\0", 1)[0] in deep for k in changed):
        return None
    if not changed:
        return got
    import json

    from ..read import read_bytes
    from .report import _packed, _unpack

    by_key = {f"{sf.rel}\0{sf.kind}": (sf, s) for sf, s in zip(files, summaries)}
    store = cache.facts(CALLERS_FACT)
    limit = getattr(config, "max_file_size", None)
    read, heads = set(read), set(heads)
    for k in changed:
        sf, s = by_key[k]
        data, diag = read_bytes(sf.path, sf.rel, limit) if limit else read_bytes(sf.path, sf.rel)
        text = data.decode("utf-8", "replace") if diag is None and data is not None else ""
        was = counts.get(sf.rel) or {}
        if not isinstance(was, dict):
            return None
        code_words = None
        for w in words:
            if w.lstrip(".") in text and sf.kind == "python" and code_words is None:
                from .code_words import CodeWords

                code_words = CodeWords.of(text)
            if _share(sf, text, w, code_words) != was.get(w, 0):
                return None
        if sf.kind != "python":
            continue
        if sf.rel in read or sf.rel in heads:
            was_sums, now_sums = sums.get(sf.rel), _sums(_packed(s))
            which = 0 if sf.rel in read else 1  # the whole summary, or its head fields only
            if not isinstance(was_sums, list) or len(was_sums) != 2 or now_sums is None \
                    or was_sums[which] != now_sums[which]:
                return None
        before = store.get_for(sf.rel, old[k], _facts_valid) if isinstance(old[k], str) else None
        if before is None:
            return None
        now = store.get(sf.rel, _facts_valid)
        if now is None:
            from .summary import StaleSummary

            try:
                now = _file_facts(_unpack(sf.rel, s) if s is not None else {})
            except StaleSummary:
                return None  # (deciding meets it too, and the scan reads the file again)
            store.put(sf.rel, now)
        if json.loads(json.dumps(now)) != before:
            return None
    return got


def _private(fname: str) -> bool:
    """`_helper`, `Model._helper`, `_Impl.method`: no code outside the project calls it, so the project's callers
    are all of them. A public function's default is what every user of the library gets, whatever the project's
    own calls pass (readers count `def load_model(..., device="cuda")` a place to change even then)."""
    return any(part.startswith("_") and not part.endswith("__") for part in fname.split("."))


def _test_helper(rel: str) -> bool:
    """A module of the test scope (`tests/helpers.py`, `pkg/common/test_utils.py`, `pkg/testing/`): its functions
    serve the project's own tests, not users of the library, so the project's callers are all of them, as for a
    private function (a test helper's `backend="nccl"` that every test passes explicitly)."""
    return classify(rel) == "test"


def _key(memo, files, digests):
    import hashlib

    if memo.cache is None or len(digests) != len(files) or not all(digests):
        return None
    h = hashlib.sha256(f"{memo.cache.salt}\0{memo.step}".encode())
    for sf, digest in zip(files, digests):  # every file: a config or notebook may name a function too
        h.update(f"\0{sf.rel}\0{digest}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _none_rules(engine) -> dict:
    """rule id -> its matchers' argument predicates, for the rules whose matchers require an argument not None."""
    out = {}
    for r in engine.rules:
        if any(a.op == "is-not-none" for m in r.matchers for a in m.args):
            out[r.id] = r
    return out


def _packaged(files) -> tuple:
    """(folders, package dirs): code below one of the folders, or in one of the package dirs, may be imported by code
    outside the project. A folder holds packaging metadata (setup.py, a setup.cfg with `[metadata]` or `[options]`,
    a pyproject.toml with `[project]`, `[tool.poetry]` or `[build-system]`; "" for the scan root). Where the folder's
    setup.py installs what `find_packages()` finds, only the regular packages it finds are installed (each folder
    down from the search root holds an `__init__.py`) and the modules beside setup.py: detrex's `projects/` has no
    `__init__.py`, so the model files under it are the configs' alone. Elsewhere (a sibling folder of a packaged
    one: data-efficient-gans' `DiffAugment-biggan-cifar/` beside the installable `DiffAugment-biggan-imagenet/`),
    the project's own calls are every call there is."""
    inits = {sf.rel.rsplit("/", 1)[0] if "/" in sf.rel else "" for sf in files
             if sf.rel.rsplit("/", 1)[-1] == "__init__.py"}
    folders: set = set()
    found: dict = {}  # folder -> find_packages' search root below it
    for sf in files:
        name = sf.rel.rsplit("/", 1)[-1]
        if name not in _MANIFEST_TABLES:
            continue
        folder = sf.rel.rsplit("/", 1)[0] if "/" in sf.rel else ""
        text = _manifest_text(sf)
        if name == "setup.py":
            m = _FIND_PACKAGES.search(text)
            if m and not _OTHER_LAYOUT.search(text):
                found[folder] = m.group(1) or ""
                continue
        test = _MANIFEST_TABLES[name]
        if test is None or (test(text, _package_in(folder, inits)) if callable(test) else test.search(text)):
            folders.add(folder)
    exact: set = set()
    for folder, where in found.items():
        folders.discard(folder)
        exact.add(folder)
        base = "/".join(p for p in (folder, where.strip("./")) if p)
        for d in inits:
            if d == base or not (base == "" or d.startswith(base + "/")):
                continue
            parts = d[len(base) + 1 if base else 0:].split("/")
            if all("/".join((base, *parts[:i]) if base else parts[:i]) in inits for i in range(1, len(parts))):
                exact.add(d)  # (d itself holds an __init__.py: it is one of `inits`)
    return frozenset(folders), frozenset(exact)


# the metadata tables that make a setup.cfg packaging (a file holding only linters' settings does not), the test of a
# pyproject.toml (app_packaging.declares_package: a uv application installs nothing); setup.py always is
_MANIFEST_TABLES = {"setup.py": None, "setup.cfg": re.compile(r"^\[(?:metadata|options)\]", re.M),
                    "pyproject.toml": declares_package}
# `find_packages()`, `find_packages("src")`, `find_packages(where="python", exclude=...)`: the search root
_FIND_PACKAGES = re.compile(r"\bfind_packages\s*\(\s*(?:where\s*=\s*)?(?:[\"']([\w./-]*)[\"'])?")
# a layout find_packages does not describe alone: namespace packages, renamed package folders, packages listed
# beside the found ones (`find_packages() + ["projects"]`)
_OTHER_LAYOUT = re.compile(r"namespace|package_dir|find_packages\s*\([^)]*\)\s*\+|\+\s*find_packages")


def _package_in(folder: str, inits: set):
    """`exists(name)` for declares_package: a package of that name right in the folder or in its `src/`."""
    return lambda n: "/".join(p for p in (folder, n) if p) in inits or "/".join(p for p in (folder, "src", n) if p) \
        in inits


def _manifest_text(sf) -> str:
    from ..read import read_bytes

    data, diag = read_bytes(sf.path, sf.rel)
    return data.decode("utf-8", "replace") if diag is None and data is not None else ""


def _covered(rel: str, packaged: tuple) -> bool:
    """`rel` lies below a folder with packaging metadata, or in a package its setup.py installs."""
    folders, exact = packaged
    if "" in folders:
        return True
    parts = rel.split("/")[:-1]
    if "/".join(parts) in exact:
        return True
    return any("/".join(parts[:i]) in folders for i in range(1, len(parts) + 1))


# a default that builds the device from the literal the finding is at (`device=torch.device("cuda:0")`): the
# default is still the finding's place
_DEVICE_DEFAULT = re.compile(r"(?:\w+\.)*device\(\s*")


def _candidates(findings, files, summaries, engine, packaged: tuple = (frozenset({""}), frozenset())) -> list:
    """(finding, rel, function, kind, parameter or None) for findings inside a project function that callers
    could decide: at a parameter default (kind "default"), or of a rule requiring an argument not None ("none")."""
    from .report import _unpack

    none_rules = _none_rules(engine)
    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}
    out = []
    by_file: dict = {}
    for f in findings:
        if f.guarded or f.suppressed or f.cell is not None or f.path not in py or py[f.path] is None:
            continue
        by_file.setdefault(f.path, []).append(f)
    for rel, fs in by_file.items():
        rec = _unpack(rel, py[rel]).get("callers")
        if not rec:
            continue
        for f in fs:
            inner = [(a, b, n) for n, (a, b, _ps, _ds) in rec["sigs"].items() if a <= f.line <= b]
            if not inner:
                continue
            _a, _b, fname = max(inner)  # the innermost recorded (a method inside its class)
            sig = rec["sigs"][fname]
            written_default = (f.snippet or "")[:max(f.column - 1, 0)].rstrip().endswith("=")
            for p, (_lit, line, col) in sig[3].items():
                # the finding is at the default, or, in a test helper, at the call it reaches (the default listed
                # as its place by note_defaults: `dist.init_process_group(backend=backend)` under
                # `def init(backend="nccl")`). Elsewhere a finding at the call also stands for callers that pass
                # the same value on (a wrapper's own "bilinear" default, `new_group(backend="nccl")`), which the
                # override check below does not tell apart from callers that override it.
                at_default = written_default and (line, col + 1) == (f.line, f.column) or \
                    line == f.line and _DEVICE_DEFAULT.fullmatch((f.snippet or "")[col:max(f.column - 1, 0)]) or \
                    _test_helper(rel) and f"`{p}` defaults to it at line {line})" in f.message and \
                    (line, col + 1) in {(o[0], o[1]) for o in f.occurrences}
                if at_default and (
                        _private(fname) or not _covered(rel, packaged) or _test_helper(rel)):
                    out.append((f, rel, fname, "default", p))
            if f.rule in none_rules:
                out.append((f, rel, fname, "none", None))
            if "." in fname and fname.split(".", 1)[0] in rec.get("bases", {}) and _built_in_a_switch(
                    rec, fname.split(".", 1)[0]):
                # in a method of a module-level class: dead when every construction of the class sits in an arm no
                # caller takes (detectron2's demo `AsyncPredictor`, built only under `if parallel:`)
                out.append((f, rel, fname, "built", fname.split(".", 1)[0]))
            if f.line > _a and sig[2]:
                # in a branch a parameter may switch off: (definition line, its parameters). One with a literal
                # default switches off when no caller changes it, any other when every caller passes a value
                # that does (`train(loader, model, use_cuda)` with the module's `use_cuda =
                # torch.cuda.is_available()`, recorded as False: bearpaw's cifar.py template)
                out.append((f, rel, fname, "switch", (_a, tuple(p for p in sig[2] if p not in ("self", "cls")))))
    return out


def _decide(cands, files, summaries, engine, config, cache=None, reads=None) -> list:
    from ..read import read_bytes
    from .link import Linker
    from .report import _EMPTY, _packed

    reads = reads if reads is not None else Reads()
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})  # the full records' module flags
    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}
    linker = Linker(_Recorded({rel: _packed(s) for rel, s in py.items()}, _EMPTY, reads.summaries, reads.heads), None)
    texts: dict = {}
    words: dict = {}  # rel -> the Python file's CodeWords (or None: counted as text), while its text is kept
    limit = getattr(config, "max_file_size", None)

    def text_of(sf, deep: bool = True) -> str:
        if deep:
            reads.deep.add(sf.rel)
        # A few files' text at a time: counting a word's mentions reads every file, and keeping them all doubled
        # the step's peak memory once switch candidates made it count words (diffusers/src: 55 -> 100 MiB).
        if sf.rel in texts:
            texts[sf.rel] = texts.pop(sf.rel)
        else:
            while len(texts) >= KEEP_TEXTS:
                gone = next(iter(texts))
                del texts[gone]
                words.pop(gone, None)  # it holds the text: kept no longer than the text is
            data, diag = read_bytes(sf.path, sf.rel, limit) if limit else read_bytes(sf.path, sf.rel)
            texts[sf.rel] = data.decode("utf-8", "replace") if diag is None and data is not None else ""
        return texts[sf.rel]

    counted: dict = {}

    def mentions(word: str) -> int:
        """Occurrences of the word; for ".attr", of the attribute (`x.attr`, also spelled `x . attr`) and of the
        name in quotes (`getattr(self, "attr")`): a local variable of that name is another thing. In Python
        sources only code counts (project/code_words.py): not comments, not prose in strings."""
        if word not in counted:
            bare = word.lstrip(".")
            reads.words.add(word)
            n = 0
            # every mention counted is a whole word of the text (an identifier between non-word characters, in code
            # or in quotes): a file whose words kept in the cache lack it (word_sets.kept_only) is not read
            gate = is_word(bare)
            for sf in files:
                if gate and (kept := kept_only(cache, sf)) is not None and not kept.may(bare):
                    continue
                text = text_of(sf, deep=False)  # what a count reads of a file is its share (Reads.counts)
                if bare in text:
                    if sf.kind == "python" and sf.rel not in words:
                        from .code_words import CodeWords

                        words[sf.rel] = CodeWords.of(text)
                    share = _share(sf, text, word, words.get(sf.rel))
                    if share:
                        reads.counts.setdefault(sf.rel, {})[word] = share
                    n += share
            counted[word] = n
        return counted[word]

    py_files = [sf for sf in files if sf.kind == "python"]
    by_rel = {sf.rel: sf for sf in py_files}
    fulls: dict = {}

    def full(rel: str):
        """The file's whole callers record, summarised again from its text (call_sites.record, `full`)."""
        if rel in fulls:
            fulls[rel] = fulls.pop(rel)  # most recently used last
        else:
            while len(fulls) >= KEEP_FULL:  # whole records of a few files at a time: each is summarised again
                del fulls[next(iter(fulls))]
            fulls[rel] = None
            tree = _tree(by_rel.get(rel), trees, text_of)
            if tree is not None:
                from .summary import summarize

                try:
                    fulls[rel] = summarize(tree, values=values, full_callers=True)["callers"]
                except RecursionError:
                    pass
        return fulls[rel]

    split: dict = {}

    def lines_of(sf) -> list:
        if sf.rel not in split:
            split.clear()  # candidates come file by file: one file's lines at a time
            split[sf.rel] = text_of(sf).splitlines()
        return split[sf.rel]

    def naming(word: str) -> list:
        """The Python files that may name the attribute: `.word` (also `. word`) or the word in quotes. A plain
        substring would count every `num_layers` and comment, and past MAX_ATTR_FILES the answer is "unknown"."""
        form = re.compile(rf"\.\s*{re.escape(word)}\b|['\"]{re.escape(word)}['\"]")

        def names(t: str) -> bool:
            for m in form.finditer(t):
                line = t[t.rfind("\n", 0, m.start()) + 1:m.start()].lstrip()
                if not line.startswith(("import ", "from ")):  # a module path (`from ltr.models.layers import`)
                    return True
            return False
        return [sf.rel for sf in py_files if word in (t := text_of(sf)) and names(t)]

    # A branch switch needs an `if` naming one of the parameters between the definition and the finding: most
    # candidates fail this look at the text, and are dropped before their callers are indexed.
    cands = [c for c in cands if c[3] != "switch" or by_rel.get(c[1]) is not None and may_switch(
        c[0].line, c[4][0], c[4][1], lines_of(by_rel[c[1]]))]
    # the names the decisions start from: the functions holding the findings, and for a `forward` its class
    wanted = {c[2].rsplit(".", 1)[-1] for c in cands if c[3] != "built"} | {
        c[2].split(".", 1)[0] for c in cands if c[3] == "built" or c[2].endswith((".forward", ".__init__"))}
    def own_attrs(rel: str, attr: str, holders: frozenset = frozenset()) -> dict:
        sf = by_rel.get(rel)
        tree = _tree(sf, trees, text_of) if sf is not None else None
        return _own_attribute_uses(tree, attr, holders) if tree is not None else {}

    def shares(word: str) -> dict:
        return {rel: got[word] for rel, got in reads.counts.items() if word in got}

    callers = Callers(linker, mentions, full, naming, wanted, own_attrs,
                      cache.facts(CALLERS_FACT) if cache is not None else None, shares)
    rules = _none_rules(engine)
    # categories whose findings get the callers switching them on as places (the device a helper moves to is
    # chosen at its calls)
    place_categories = frozenset(engine.catalogue.context_values.get("switch-caller-place-categories", ()))
    out = []
    trees: dict = {}
    built: dict = {}  # (file, class) -> whether every construction of it sits in an arm no caller takes
    for f, rel, fname, kind, p in sorted(cands, key=lambda c: (c[0].path, c[0].line, c[0].column)):
        if kind == "built":
            if (rel, p) not in built:
                built[(rel, p)] = _built_only_switched_off(rel, p, callers, by_rel, trees, text_of, lines_of)
            if built[(rel, p)]:
                out.append([f.path, f.line, f.column, f.rule, SWITCH_OFF])
            continue
        if not callers.callers(rel, fname):
            continue  # no resolved caller decides anything (and the file need not be parsed again)
        if kind == "switch":
            sf = by_rel.get(rel)
            if sf is None:
                continue
            lazy = _LazyTree(sf, trees, text_of)
            if switched_off(f, rel, fname, callers, lazy):
                out.append([f.path, f.line, f.column, f.rule, SWITCH_OFF])
            elif f.category in place_categories:
                on = switched_on_by(f, rel, fname, callers, lazy)
                if on:
                    out.append([f.path, f.line, f.column, f.rule, SWITCHED_ON + json.dumps(on)])
            continue
        if kind == "default":
            if callers.always_passed(rel, fname, p):
                out.append([f.path, f.line, f.column, f.rule, OVERRIDE])
            continue
        sig = callers.sig(rel, fname)
        if sig is None:
            continue
        args = _required_not_none(f, rules[f.rule], trees, text_of, files, sig[0])
        if args is None:
            continue
        params = set(sig[2])
        if all(_none_here(a, rel, fname, params, callers, by_rel, trees, text_of) for a in args):
            out.append([f.path, f.line, f.column, f.rule, PASS_NONE])
    return out


_RECORDED: list = []


def _recorded():
    if _RECORDED:
        return _RECORDED[0]
    from .summary import Compacted

    class Recorded(Compacted):
        """Compacted summaries noting which files' summaries were read (`Reads.deep`)."""

        def __init__(self, packed: dict, empty: dict, seen: set, heads: set):
            super().__init__(packed, empty)
            self.seen, self.heads = seen, heads

        def __getitem__(self, rel):
            self.seen.add(rel)
            return super().__getitem__(rel)

        def head(self, rel):
            self.heads.add(rel)
            return super().head(rel)

        def untracked(self, rel):
            """The summary, read for what `_reuse` checks by other means (the file's `_file_facts`)."""
            return super().__getitem__(rel)

    _RECORDED.append(Recorded)
    return Recorded


def _Recorded(packed: dict, empty: dict, seen: set, heads: set):
    return _recorded()(packed, empty, seen, heads)


def _required_not_none(f, rule, trees: dict, text_of, files, def_line: int):
    """Per matcher of the rule, the parameter name its not-None argument is at the finding's call (None when that
    argument is left out or written None): the rule cannot fire when each matcher has one such argument that is
    None. None (the whole answer) when a matcher has none of its not-None arguments written as a plain name."""
    from ..context.base import argument_of

    sf = next((s for s in files if s.rel == f.path), None)
    tree = _tree(sf, trees, text_of)
    if tree is None:
        return None
    calls, fdefs = _nodes(tree)
    # `F.sdpa(q, k, v, attn_mask=m).transpose(1, 2)`: the outer call starts at the same place; the finding's call
    # is the innermost one starting there
    call = min(calls.get((f.line, f.column - 1), ()), key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0),
               default=None)
    if call is None or any(k.arg is None for k in call.keywords):
        return None  # (a `**kwargs` spread may hold the mask)
    defs = [n for n in fdefs if n.lineno <= call.lineno <= (n.end_lineno or n.lineno)]
    fn = max(defs, key=lambda n: n.lineno, default=None)
    if fn is None or fn.lineno != def_line:
        return None  # in a nested function: its own parameters, not the recorded function's
    again = rebound(fn)
    names: list = []
    for m in rule.matchers:
        found = False
        for a in m.args:
            if a.op != "is-not-none":
                continue
            expr = argument_of(a, call)
            if expr is None and any(type(x) is ast.Starred for x in call.args):
                return None  # (a `*args` spread may hold it)
            if expr is None or type(expr) is ast.Constant and expr.value is None:
                names.append(None)
                found = True
                break
            if type(expr) is ast.Name and expr.id not in again:
                names.append(expr.id)
                found = True
                break
            if type(expr) is ast.Attribute and type(expr.value) is ast.Name and expr.value.id == "self":
                names.append(("self", expr.attr))  # an attribute the class may set from its constructor
                found = True
                break
        if not found:
            return None
    return names


def _built_in_a_switch(rec: dict, cls: str) -> bool:
    """The cheap look before any caller is indexed: the file itself constructs the class in a function with a
    parameter of literal default (the switch may be there); a class built only elsewhere is left alone."""
    sigs = rec["sigs"]
    return any(call[4] == cls and call[5] in sigs and any(d and d[0] != "?" for d in sigs[call[5]][3].values())
               for call in rec["calls"])


def _built_only_switched_off(rel: str, cls: str, callers, by_rel: dict, trees: dict, text_of, lines_of) -> bool:
    """Every construction of the class is known and sits, in its own function, in an arm of an `if` that no caller
    of that function takes (`if parallel: self.predictor = AsyncPredictor(cfg, num_gpus=num_gpu)` in a
    `VisualizationDemo.__init__` every construction of which leaves `parallel=False`): no instance is ever made, so
    nothing in the class runs."""
    from types import SimpleNamespace

    init = f"{cls}.__init__"
    found = callers.callers(rel, init)
    if not found:
        return False
    for crel, call in found:  # the text first: an `if` naming a parameter of the function around the construction
        sf, sig = by_rel.get(crel), callers.sig(crel, call[5]) if call[5] else None
        if sf is None or sig is None or not may_switch(
                call[0], sig[0], tuple(p for p in sig[2] if p not in ("self", "cls")), lines_of(sf)):
            return False  # built at a module's top level, or outside any switch: it runs
    for crel, call in found:
        if not switched_off(SimpleNamespace(line=call[0], occurrences=()), crel, call[5], callers,
                            _LazyTree(by_rel[crel], trees, text_of)):
            return False
    return callers.known(rel, init)  # (counting every mention of the class last: the dearest question)


class _LazyTree:
    """The file's tree, parsed only when a decision gets past its cheap textual look."""

    def __init__(self, sf, trees: dict, text_of):
        self.sf, self.trees, self.text_of = sf, trees, text_of

    def get(self):
        return _tree(self.sf, self.trees, self.text_of)


def _tree(sf, trees: dict, text_of):
    """The file's syntax tree, parsed once per step (None when it does not parse)."""
    if sf is None:
        return None
    if sf.rel not in trees:
        while len(trees) >= KEEP_TREES:  # a whole module's tree is ten times its text: keep the last few only
            del trees[next(iter(trees))]
        from ..readers.python import parse  # the readers' parse: the scanned code's warnings stay silent

        trees[sf.rel] = parse(text_of(sf), sf.rel)[0]
    return trees[sf.rel]


def _keeps_none(value, attr: str) -> bool:
    """`self.attn_mask.to(dtype=x.dtype) if self.attn_mask is not None else None`: None stays None."""
    if type(value) is not ast.IfExp or not (type(value.orelse) is ast.Constant and value.orelse.value is None):
        return False
    t = value.test
    return type(t) is ast.Compare and len(t.ops) == 1 and type(t.ops[0]) is ast.IsNot \
        and type(t.comparators[0]) is ast.Constant and t.comparators[0].value is None \
        and type(t.left) is ast.Attribute and t.left.attr == attr and type(t.left.value) is ast.Name \
        and t.left.value.id == "self"


def _constructor_param(tree, cls_name: str, attr: str):
    """The parameter of `cls_name.__init__` that `self.attr` holds: the class sets the attribute once in its
    constructor, `self.attn_mask = attn_mask` from a parameter of that name, and anywhere else only to a value that
    is None when it was (`self.attn_mask = self.attn_mask.to(x.dtype) if self.attn_mask is not None else None`);
    no subclass in the file sets it (its own way). None when that is not so."""
    cls = next((c for c in tree.body if type(c) is ast.ClassDef and c.name == cls_name), None)
    if cls is None:
        return None
    if any(type(c) is ast.ClassDef and c is not cls and any(
            (b.attr if type(b) is ast.Attribute else getattr(b, "id", None)) == cls_name for b in c.bases) and any(
            type(n) is ast.Attribute and n.attr == attr and type(n.ctx) is ast.Store for n in walk(c))
            for c in tree.body):
        return None
    init = next((m for m in cls.body if type(m) is ast.FunctionDef and m.name == "__init__"), None)
    if init is None:
        return None
    params = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    found = None
    for n in walk(cls):
        if type(n) in (ast.AugAssign, ast.AnnAssign) and type(n.target) is ast.Attribute and n.target.attr == attr:
            return None
        if type(n) is ast.Attribute and n.attr == attr and type(n.ctx) is not ast.Load \
                and not (type(n.value) is ast.Name and n.value.id == "self"):
            return None
        if type(n) is not ast.Assign or not any(type(t) is ast.Attribute and t.attr == attr for t in n.targets):
            continue
        if len(n.targets) != 1 or type(n.targets[0].value) is not ast.Name or n.targets[0].value.id != "self":
            return None
        v = n.value
        if type(v) is ast.Name and v.id in params and init.lineno <= n.lineno <= (init.end_lineno or 0) \
                and found in (None, v.id):
            found = v.id
        elif not _keeps_none(v, attr):
            return None
    return found


# Names of objects that hold settings, never a module: `vision_cfg.layers`, `args.layers` read a number
_SETTINGS_OBJECT = re.compile(r"(?:\w*_)?(?:cfg|config|conf|args|opt|opts|hparams|options)", re.I)
FOREIGN = "<foreign>"  # the key of `_own_attribute_uses` counting mentions that are provably another thing


def _own_attribute_uses(tree, attr: str, holders: frozenset = frozenset()) -> dict:
    """{class: mentions of `self.attr`} for the top-level classes that assign `self.attr` in their own methods
    (`self` being each method's first parameter); a class mentioning it otherwise (`other.attr`) is left out.
    Under FOREIGN, the mentions that are provably no call of an instance kept by `holders` (class names): a read
    of one of its attributes (`self.clip_model.transformer.width`: whatever it is, it is not called there), an
    attribute of a settings object (`vision_cfg.layers`), of an instance of another class (`_tokenizer.encoder`
    after `_tokenizer = _Tokenizer()`), `self.a.attr` in a class keeping under `a` an instance of a class that is
    no holder (CLIP's `self.transformer.layers`), or any `.attr` in a class defining a method of that name
    (`self.layers(features)`). Only mentions outside the holders count there."""
    out = {}
    foreign = 0
    made: dict = {}  # plain name -> the class names the file constructs into it (`_tokenizer = _Tokenizer()`)
    parent: dict = {}
    for node in walk(tree):
        t = type(node)
        if t is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            v = node.value
            made.setdefault(node.targets[0].id, set()).add(
                (dotted(v.func) or "?").rsplit(".", 1)[-1] if type(v) is ast.Call else "?")
        for child in ast.iter_child_nodes(node):
            if type(child) is ast.Attribute and child.attr == attr or type(child) is ast.Subscript \
                    and type(child.value) is ast.Attribute and child.value.attr == attr:
                parent[id(child)] = node

    def other_instance(name: str) -> bool:
        got = made.get(name)
        return bool(holders and got and "?" not in got and not got & holders
                    and not any(c[:1].islower() for c in got))

    def read_through(node) -> bool:
        """The mention is read for a value, never called: an attribute of it (not `forward`), an operand of
        arithmetic or a comparison, or the argument of `len` / `int` / `float` / `str` / `print`."""
        up = parent.get(id(node))
        t = type(up)
        if t is ast.Subscript and up.value is node:
            if type(up.slice) is ast.Constant and isinstance(up.slice.value, str):
                # `self.tokenizer.encoder['<|startoftext|>']` (OneFormer's tokenizer beside DETR's transformer, whose
                # `encoder` is a TransformerEncoder): a lookup by a string key, so a mapping, never that instance
                return True
            # `net.feature_extractor.layers[2].parameters()`: an attribute of one element
            nxt = parent.get(id(up))
            return type(nxt) is ast.Attribute and nxt.attr not in ("forward", "__call__")
        if t is ast.Attribute:
            return up.attr not in ("forward", "__call__")
        if t in (ast.BinOp, ast.UnaryOp, ast.Compare, ast.AugAssign):
            return True
        return t is ast.Call and node in up.args and type(up.func) is ast.Name \
            and up.func.id in ("len", "int", "float", "str", "print", "range")

    def judge(node, cls_name: str, kept: dict):
        """'own', 'foreign' or 'other' for a mention outside a class defining a method `attr`."""
        fn = node.value
        if type(fn) is ast.Name and fn.id == "self":
            return "own"
        if cls_name not in holders and read_through(node):
            return "foreign"
        if type(fn) is ast.Name and (_SETTINGS_OBJECT.fullmatch(fn.id) or other_instance(fn.id)):
            return "foreign"
        if type(fn) is ast.Attribute and type(fn.value) is ast.Name and fn.value.id == "self" and holders \
                and kept.get(fn.attr) and "?" not in kept[fn.attr] and not kept[fn.attr] & holders:
            return "foreign"
        return "other"

    in_classes: set = set()
    for cls in tree.body:
        if type(cls) is not ast.ClassDef:
            continue
        mentions = [node for node in walk(cls) if type(node) is ast.Attribute and node.attr == attr]
        in_classes.update(id(m) for m in mentions)
        if any(type(m) in (ast.FunctionDef, ast.AsyncFunctionDef) and m.name == attr for m in cls.body):
            # `def layers(self, features)` called as `self.layers(features)` (MaskFormer's head): a method
            foreign += len(mentions)
            continue
        kept: dict = {}  # attribute of self -> class names constructed into it
        for node in walk(cls):
            if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Attribute \
                    and type(node.targets[0].value) is ast.Name and node.targets[0].value.id == "self":
                v = node.value
                name = (dotted(v.func) or "?").rsplit(".", 1)[-1] if type(v) is ast.Call else "?"
                kept.setdefault(node.targets[0].attr, set()).add(name)
        n = 0
        sets = False
        other = False
        for node in mentions:
            got = judge(node, cls.name, kept)
            if got == "own":
                n += 1
                sets = sets or type(node.ctx) is ast.Store
            elif got == "foreign":
                foreign += 1
            else:
                other = True
        if n and sets and not other:
            out[cls.name] = n
    for node in walk(tree):
        if type(node) is ast.Attribute and node.attr == attr and id(node) not in in_classes \
                and judge(node, "", {}) == "foreign":
            foreign += 1
    if foreign:
        out[FOREIGN] = foreign
    return out


def _nodes(tree) -> tuple:
    """(line, column) -> the calls starting there, and the function definitions, of a tree (one walk, kept on it)."""
    got = getattr(tree, "trnready_callers_nodes", None)
    if got is None:
        calls: dict = {}
        defs = []
        for n in walk(tree):
            t = type(n)
            if t is ast.Call:
                calls.setdefault((n.lineno, n.col_offset), []).append(n)
            elif t in (ast.FunctionDef, ast.AsyncFunctionDef):
                defs.append(n)
        got = tree.trnready_callers_nodes = (calls, defs)
    return got


def _none_here(a, rel: str, fname: str, params: set, callers, by_rel: dict, trees, text_of) -> bool:
    """Whether a mask argument the call needs is None at every call of the function: a parameter every caller
    leaves None, or (a tuple naming a constructor argument) an attribute no construction of the class sets."""
    if a is None:
        return True
    if isinstance(a, tuple):
        cls = fname.split(".", 1)[0] if fname.count(".") == 1 else None
        if cls is None:
            return False
        tree = _tree(by_rel.get(rel), trees, text_of)
        p = _constructor_param(tree, cls, a[1]) if tree is not None else None
        return p is not None and callers.always_none(rel, f"{cls}.__init__", p)
    return a in params and callers.always_none(rel, fname, a)
