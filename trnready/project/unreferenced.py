"""Code nothing in the project refers to: a module-level function or class whose name no scanned file mentions.

A finding inside `def count_flops_attn(...)` or `class DiscreteNLLLoss(nn.Module)` that no other line of the
project names (no call, import, string, config key, shell script or notebook cell) is in code that never runs:
nothing can reach it. Such findings are guarded (`guarded_by` "never-referenced").

The check errs on the side of keeping a finding. A definition is left alone when:

- it is not at the top of its module (a method: only whole classes and module-level functions are judged);
- it is decorated (`@triton.jit`, `@pytest.fixture`, `@app.command` may call it; but not when its only
  decorators register it by its own name, `@MODELS.register_module()`, `@BACKBONE_REGISTRY.register()`,
  `@register_model`: a config builds it by writing that name, which the mention search finds), a dunder,
  `forward`, an entry point or hook name (`[context.values] entry-function-names`: `main`, `pytest_*`, ...), or a
  test (`test*`, `Test*`, or a file in test scope);
- its name is mentioned anywhere outside its own lines: a call, an import, a docstring or comment
  of another function, a string (`getattr(mod, "name")`, `_import_structure`), a config, a shell script; the
  text of every scanned file counts, whatever its kind, and so do the Markdown and reStructuredText files in the
  folders of the scanned files (a README showing how to call it). Mentions inside its own lines (recursion,
  `super(Name, self)`), another module's `def` of the same name, a call left commented out in another module
  (`# warmup_model(model, shape)`) and an entry of a module's `__all__` list do not (a star import hands the name
  on, and whoever calls it writes it); a mention inside another module's definition of the same name that imports
  this one (`class BaseTrainer(BaseTrainer):`) is held by that definition, used when it is. A definition is
  judged per module: a bare mention in a file that has its own module-level definition of the name, or imports
  it only from other project modules (copies of one file in the sibling examples of a monorepo), is no mention of
  this one; a package `__init__.py` handing the name on
  (its import, `__all__`) counts only through what imports it from there; an import counts through the file's
  other mentions of the name when it has some (`_refers`), and an import a plain module never uses hands the name
  on: it counts only when some other file names the name too;
- it is an entry point or hook name (`main`, `run`) of a module whose entry function does not raise first: a
  script whose `main()` raises before doing anything (`raise RuntimeError("don't use this file directly")`) runs
  nothing, so what only it reaches is dead, entry-named helpers included;
- it is a class deriving from an autograd `Function`: a custom operator, which the port rewrites whether or not
  the project calls it today;
- no other file names its module (`devutil` is imported by nothing: a tool imported by hand, or a script), or
  some file names a longer dotted name inside the module (`target: ldm.modules.encoders.modules.BERTEmbedder` in
  a config: configs pick the module's classes by path, so a config the scan does not see may pick another);
- its module is a `hubconf.py`, a `setup.py`, `conftest.py` or `__main__.py` (a package's `__init__.py` is judged
  for the functions and classes it defines itself, since session 41), or looks names up at run time
  (`[context.values] dynamic-lookup-words`: `globals()`, `eval(`, `fire.Fire()` exposing every function); or
  some file looks names up in a module or folder of its name
  (`getattr(models, name)`, `models.__dict__[name]`, a star import of it into a file that looks names up);
- it is public API of a library: a public name in a package declared by the root packaging (setup.py,
  setup.cfg or a pyproject.toml with [project], [tool.poetry] or [build-system] at the scan root), which users
  call from outside the repository;
- the scan covers only part of a project (a folder above the scan root holds `.git` or packaging): the rest of
  the project may use it.

Cheap by construction: the definitions come from the text of the files holding candidate findings (no second
parse), and the mentions of the few candidate names are counted in one regular-expression pass over the scanned
files' text. The answer is kept in the result cache under the digests of every scanned file.
"""
from __future__ import annotations

import ast
import os
import re
from bisect import bisect_right
from dataclasses import replace
from pathlib import Path

from .mentions import commented_code, defines_at_top, foreign_at, foreign_names, from_imports, header_start, \
    imports_name, name_imports, project_names
from .word_sets import KeptWords, Words, is_word, kept_words

REASON = "never-referenced"
_TOP = re.compile(r"(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)")
_DEF_NAME = re.compile(r"(?:\bdef|\bclass)[ \t]+\Z")  # the text just before a definition's own name
# A line starting in column 0 with something that is not a blank, a comment or a closing bracket: a statement
_COL0 = re.compile(r"\n(?=[^ \t\r\n\f#)\]}])")
_BASES = re.compile(r"class[ \t]+\w+[ \t]*\(([^)]*)\)")
_DOCS = (".md", ".rst")
_STAR = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\*", re.M)
_GETATTR = re.compile(r"getattr\(\s*([\w.]+)\s*,\s*(?![\s'\"])")
_DICT = re.compile(r"\.__dict__\[")
_MANIFESTS = ("setup.py", "setup.cfg", "pyproject.toml")
_SKIP_FILES = frozenset({"__init__.py", "hubconf.py", "setup.py", "conftest.py", "__main__.py"})
# a package's `__init__.py` is judged for what it defines itself (DiffSinger's `utils/__init__.py` holds the
# project's helpers, `remove_padding` among them, which no file names: fresh56); what it imports stays a re-export
_UNJUDGED_FILES = _SKIP_FILES - {"__init__.py"}


def top_definitions(text: str) -> list:
    """[(name, first line, last line, decorated, start offset, end offset)] of the module-level `def`/`class`
    statements, read from the text: a definition starts at its first decorator and ends before the next line
    starting in column 0 (a statement of the module; closing brackets of a signature written over several lines
    continue it), without the blank and comment lines before that. A string spanning lines with text in column 0
    ends a definition early, which only leaves findings unjudged. Lines end with `\\n` (a file with lone `\\r`
    line ends is not read: empty answer)."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return []
    out: list = []
    cur: list | None = None  # [name, first line, line, decorated, start offset]
    deco = None  # (line, offset) of a pending decorator
    line, last = 1, 0
    starts = [0] if text and text[0] not in " \t\r\n\f#)]}" else []
    starts += [m.end() for m in _COL0.finditer(text)]
    for p in starts:
        line += text.count("\n", last, p)
        last = p
        if cur is not None:
            out.append(_closed(cur, text, p, line))
            cur = None
        ch = text[p]
        if ch == "@":
            deco = deco or (line, p)
            continue
        m = _TOP.match(text, p) if ch in "dac" else None
        if m:
            cur = [m.group(1), deco[0] if deco else line, line, deco is not None, deco[1] if deco else p]
        deco = None
    if cur is not None:
        # the end of the text as if a statement followed it on the next line
        end = len(text) if text.endswith("\n") else len(text) + 1
        out.append(_closed(cur, text, end, line + text.count("\n", last) + (end > len(text))))
    return out


def _closed(cur: list, text: str, end: int, line: int) -> tuple:
    """The definition `cur` ended by the statement starting at offset `end`, on `line`: its last line is the last
    one before that holding code (not blank, not a comment); its end offset is where that line ends."""
    ln, stop = line - 1, end - 1
    while ln > cur[2]:
        j = text.rfind("\n", 0, stop)
        row = text[j + 1:stop].strip()
        if row and not row.startswith("#"):
            break
        ln, stop = ln - 1, j
    return (cur[0], cur[1], ln, cur[3], cur[4], stop)


def _raises_first(text: str, start: int, end: int) -> bool:
    """The module-level function text[start:end] raises as its first statement (after a docstring): calling it
    runs nothing else. Read for entry-named functions only (`main`), so few definitions are parsed."""
    if not text.startswith(("def", "async"), start):
        return False
    try:
        tree = ast.parse(text[start:end])
    except (SyntaxError, ValueError):
        return False
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = fn.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
            isinstance(body[0].value.value, str):
        body = body[1:]
    return isinstance(body[0], ast.Raise)


def _custom_op(text: str, start: int) -> bool:
    """The definition at `start` is a class deriving from an autograd `Function` (`class RankSort(torch.autograd.
    Function):`): a custom operator with its own forward and backward, which the blind recall labels count as a
    place to port whether or not the project calls it today."""
    m = _BASES.match(text, start)
    return m is not None and re.search(r"(?<![\w])Function(?![\w])", m.group(1)) is not None


# `@MODELS.register_module()`, `@BACKBONE_REGISTRY.register()`, `@register_model`: a registry that builds the
# definition from a config by its own name (no argument renames it). The registry is a capitalised constant or
# a `*registry` object: `@atexit.register` or a `singledispatch` function's `.register` call the definition unnamed
_REGISTER = re.compile(r"@[ \t]*(?:(?:[\w.]*\.)?(?:[A-Z][A-Z0-9_]*|\w*[Rr]egistry)\.(?:register_module|register)|"
                       r"register_model)[ \t]*(?:\([ \t]*\))?[ \t]*\n")


def _registered(text: str, start: int) -> bool:
    """Every decorator of the definition at `start` registers it by its own name in a registry
    (`_REGISTER`): a config builds it by writing that name (`type='MaskFormerHead'`), so a definition no file
    names is built by no config. A registration under another name (`register_module(name='seg_head')`), with
    other arguments (`force=True`), or any other decorator keeps the definition unjudged."""
    pos = start
    while text.startswith("@", pos):
        m = _REGISTER.match(text, pos)
        if m is None:
            return False
        pos = m.end()
    return pos > start


def _declared_packages(root: Path, generic=(), forks=()) -> frozenset:
    """The packages the root packaging declares (empty when the root has none): their public names are a
    library's API. A package of a generic name (`[context.values] generic-package-names`: `models`, `utils`,
    `lib`) is no library anyone imports from outside: installed, it would collide with every other project's
    `models`. It is an application's folder that setup.py happens to collect with `find_packages()`, unless the
    distribution carries the package's own name (`setup(name="lib", packages=["lib"])`). Nor is a package named
    after a framework of `forks` (`copied-frameworks`: `mmdet`) in a repository without the framework's test suite
    (no `tests/` or `test/` folder at the root): a cut-down copy of the framework shipped under its name to train
    one model (libfacedetection.train's YuNet on a trimmed mmdetection, fresh57), whose users are the repository's
    own configs and tools; whoever wants the library installs the real one."""
    from ..context.own_package import distribution_names, own_packages
    from .app_packaging import declares_package

    def is_packaging(p: Path) -> bool:
        try:
            if not p.is_file():
                return False
            if p.name != "pyproject.toml":
                return True
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        return declares_package(text, lambda n: (p.parent / n).is_dir() or (p.parent / "src" / n).is_dir())

    if not any(is_packaging(root / m) for m in _MANIFESTS):
        return frozenset()
    from .app_packaging import pins_torch

    if pins_torch(root):  # an application packaged for `pip install -e .`: no outside users of its names
        return frozenset()
    named = distribution_names(root) if generic else frozenset()
    cut_down = bool(forks) and not any((root / t).is_dir() for t in ("tests", "test"))
    # a package named like the distribution itself (`setup(name="lib", packages=["lib"])`) is that library's own
    return frozenset(p for p in own_packages(root) if (p.lower() not in generic or p.lower() in named)
                     and not (cut_down and p in forks))


def _partial_scan(root: Path) -> bool:
    """A folder above the scan root holds `.git` or packaging: the scan sees part of a project only."""
    for d in root.parents:
        try:
            if (d / ".git").exists() or any((d / m).is_file() for m in _MANIFESTS):
                return True
        except OSError:
            return True
    return False


def _in_library(rel: str, name: str, packages: frozenset) -> bool:
    if not packages or name.startswith("_"):
        return False
    parts = rel.split("/")
    if parts[0] == "src" and len(parts) > 2:
        parts = parts[1:]
    return len(parts) > 1 and parts[0] in packages


def _judged(name: str, entry: frozenset) -> bool:
    """A name this step may judge: not a dunder, `forward`, an entry point or hook, or a test."""
    low = name.lower()
    if name.startswith("__") or low == "forward" or low.startswith("test") or low.endswith("test") \
            or low.endswith("tests"):
        return False
    return not _entry(name, entry)


def _entry(name: str, entry: frozenset) -> bool:
    """A name of `[context.values] entry-function-names` (`main`, `run`, `pytest_*`)."""
    low = name.lower()
    return any(low == e or e.endswith("*") and low.startswith(e[:-1]) for e in entry)


def guard_unreferenced(findings: list, files, root, values: dict, max_bytes=None, cache=None, digests=()) -> list:
    """Mark guarded (`never-referenced`) the findings inside a module-level function or class no scanned file
    names outside its own lines (see the module's docstring). `values`: the catalogue's [context.values];
    `max_bytes`: the scan's file size limit (a larger file is read as empty, as the scan skipped it)."""
    from ..cache import StepMemo
    from ..scope import classify
    from .callers import _key

    todo = [f for f in findings if not f.guarded and not f.suppressed and f.cell is None]
    if not todo:
        return findings
    root = Path(root)
    if _partial_scan(root):
        return findings
    packages = _declared_packages(root, frozenset(values.get("generic-package-names", ())),
                                  frozenset(values.get("copied-frameworks", ())))
    # A repository imported under its own folder's name (mae_st's `from mae_st.engine_pretrain import
    # train_one_epoch`, run from the folder above it or from a monorepo): that head is the project's, not a library.
    itself = frozenset({root.resolve().name}) if root.resolve().name.isidentifier() else frozenset()
    memo = StepMemo(cache, f"{REASON}\0{','.join(sorted(packages))}\0{','.join(itself)}")
    key = _key(memo, files, digests)
    got = memo.get(key)
    if not (isinstance(got, list) and all(isinstance(g, list) and len(g) == 4 for g in got)):
        got = _decide(todo, files, packages, values, _reader(max_bytes), classify, cache, itself)
        memo.put(key, got)
    if not got:
        return findings
    dead = {tuple(g) for g in got}
    return [replace(f, guarded=True, guarded_by=REASON)
            if not f.guarded and (f.path, f.line, f.column, f.rule) in dead else f for f in findings]


def keeping_reader(read_text, keep):
    """`text_of(sf)`: a scanned file's text ("" when unreadable), kept in memory only for the files `keep(rel)`
    says are read again."""
    texts: dict = {}

    def text_of(sf) -> str:
        text = texts.get(sf.rel)
        if text is None:
            try:
                text = read_text(sf) or ""
            except (OSError, ValueError):
                text = ""
            if keep(sf.rel):
                texts[sf.rel] = text
        return text
    return text_of


def _reader(max_bytes):
    from ..read import read_bytes

    def read_text(sf) -> str:
        data, diag = read_bytes(sf.path, sf.rel, max_bytes) if max_bytes else read_bytes(sf.path, sf.rel)
        return data.decode("utf-8", "replace") if diag is None and data is not None else ""
    return read_text


# How far a name is followed through the definitions that alone mention it (`compute_edges` named only in
# `avg_edge_length`, which nothing names): levels of holders, and holder definitions per level; past either bound a
# holder counts as used, which keeps the finding. Holders are counted per module (session 18), so a monorepo whose
# examples carry copies of one model file has several per name: DeepSpeedExamples' first level holds 202.
MAX_HOLDER_DEPTH = 3
MAX_HOLDERS = 256


def looks_names_up(text: str, words) -> bool:
    """The text holds a word of `dynamic-lookup-words`, not after a name character or a dot (`model.eval()` is no
    lookup)."""
    for w in words:
        i = text.find(w)
        while i >= 0:
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_."):
                return True
            i = text.find(w, i + 1)
    return False


def _decide(todo, files, packages, values, read_text, classify, cache=None, itself=frozenset()) -> list:
    entry = frozenset(str(e).lower() for e in values.get("entry-function-names", ()))
    words = [str(w) for w in values.get("dynamic-lookup-words", ())]
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    # the files holding candidates are read twice and kept; any other file is read once and not kept
    text_of = keeping_reader(read_text, lambda rel: rel in by_file)

    def looks_up(text: str) -> bool:
        return looks_names_up(text, words)

    # rel -> (definitions, their first lines, their start offsets), or None when the module's definitions are never
    # judged. What a definition's place needs of the text is read here, so no text is kept for it: a holder in a
    # file without findings would otherwise keep that file's whole text for the step.
    defs_of: dict = {}
    dead: set = set()  # keys of entry functions that raise first: never used, whatever mentions them
    shadowed: set = set()  # (rel, first line) of definitions the module binds again below before using them

    def judged_defs(rel: str):
        if rel not in defs_of:
            ok = rel in py and rel.rsplit("/", 1)[-1] not in _UNJUDGED_FILES and classify(rel) != "test"
            text = text_of(py[rel]) if ok else ""
            if not text or looks_up(text):
                defs_of[rel] = None
                return None
            defs = []  # (name, first line, last line, judged, header start, end offset, start offset)
            tops = top_definitions(text)
            # a script whose entry function raises before doing anything refuses to run (`raise RuntimeError("Please
            # don't use this file directly!")`): other files import its helpers, and what only its entry function
            # reaches never runs, entry-named helpers (`run`) included
            refusing = {name for name, _f, _l, deco, a, b in tops
                        if not deco and _entry(name, entry) and _raises_first(text, a, b)}
            dead.update((name, rel) for name in refusing)
            shadowed.update((rel, first) for first in _shadowed(text, tops))
            for name, first, last, deco, a, b in tops:
                judged = not (deco and not _registered(text, a) or
                              not (_judged(name, entry) or refusing and _entry(name, entry)) or
                              _in_library(rel, name, packages) or _custom_op(text, a))
                defs.append((name, first, last, judged, header_start(text, a) if judged else a, b, a))
            defs_of[rel] = (defs, [d[1] for d in defs], [d[6] for d in defs])
        return defs_of[rel]

    def place_of(rel: str, line: int | None = None, offset: int | None = None):
        """(name, place) of the judged module-level definition holding the line or offset, or None."""
        got = judged_defs(rel)
        if not got or not got[0]:
            return None
        defs, firsts, starts = got
        if line is not None:
            i = bisect_right(firsts, line) - 1
            d = defs[i] if i >= 0 and line <= defs[i][2] else None
        else:
            i = bisect_right(starts, offset) - 1
            d = defs[i] if i >= 0 and offset < defs[i][5] else None
        if d is None or not d[3]:
            return None
        return d[0], (rel, d[1], d[2], d[4], d[5])

    # Candidates: the module-level definition around each finding, in files that may hold dead code.
    by_file: dict = {}
    for f in todo:
        if f.path in py:
            by_file.setdefault(f.path, []).append(f)
    # A definition is judged by its name and module (a key): copies of one file in sibling projects of a monorepo
    # define the same names, and each copy is used only by what refers to it.
    places: dict = {}  # (name, rel) -> {(rel, first line, last line, start offset, end offset)}
    held: list = []  # (finding, key, place)
    for rel, fs in by_file.items():
        for f in fs:
            got = place_of(rel, line=f.line)
            if got is not None:
                key = (got[0], rel)
                held.append((f, key, got[1]))
                places.setdefault(key, set()).add(got[1])
    if not held:
        return []
    own = project_names(files) | itself
    views: dict = {}  # rel -> what the first `_mentioned` kept of the file (`_FileView`)
    resolve = _resolver(py)
    setup = frozenset(values.get("module-setup-calls", ()))
    programs: dict = {}

    def program(rel: str) -> bool:
        if rel not in programs:
            programs[rel] = _runs_at_import(text_of(py[rel]), setup)
        return programs[rel]

    used, names, starred, holders = _mentioned(places, files, text_of, py, looks_up, place_of, own, views, resolve,
                                               cache, program)
    # Follow the definitions that alone mention a name, level by level: a name is used when some holder is
    seen = set(places)
    level = holders
    for _ in range(MAX_HOLDER_DEPTH):
        todo_places: dict = {}
        for hs in level.values():
            for hkey, hplace in hs:
                if hkey not in seen:
                    todo_places.setdefault(hkey, set()).add(hplace)
        if not todo_places or len(todo_places) > MAX_HOLDERS:
            break
        seen.update(todo_places)
        u, n2, s2, level = _mentioned(todo_places, files, text_of, py, looks_up, place_of, own, views, resolve,
                                      cache, program)
        used |= u
        names |= n2
        starred |= s2
        holders.update(level)
    # holders past the bounds were never looked at: they count as used
    for hs in holders.values():
        for hkey, _ in hs:
            if hkey not in seen:
                used.add(hkey)
    used -= dead

    def looked_up(place) -> bool:
        parts = place[0][:-3].split("/")
        paths = ("/" + "/".join(parts), "/" + "/".join(parts[:-1]))
        return bool(names.intersection(parts[-2:])) or any(p.endswith(m) for p in paths for m in starred)

    for n, hs in holders.items():
        if any(looked_up(p) for _, p in hs):
            used.add(n)
    # least fixpoint of "used": a name held only by definitions that are not used is not used either
    changed = True
    while changed:
        changed = False
        for n, hs in holders.items():
            if n not in used and any(h in used for h, _ in hs):
                used.add(n)
                changed = True
    # A refusing script is reached only through what other files import from it: a common entry word (`run`) is
    # mentioned in prose and shell scripts everywhere, so its helpers are followed from those imports instead.
    reach = {rel: _refusing_reach(rel, text_of(py[rel]), py, text_of) for rel in {r for _, r in dead}}
    out = []
    for f, key, place in held:
        live = reach.get(key[1])
        if key not in used and not looked_up(place) or live is not None and key[0] not in live or \
                (place[0], place[1]) in shadowed:
            out.append([f.path, f.line, f.column, f.rule])
    return out


def _shadowed(text: str, tops: list) -> list:
    """First lines of the module-level definitions that a later undecorated `def` / `class` of the same name in the
    module replaces before anything uses them: DiffSinger's `source.py` defines `SineGen` twice, and every user
    gets the second (PulseGen, between the two, builds a `SineGen` in a method, which runs after the module has
    bound the second). A mention between the two that runs while the module loads (a module-level call, an alias,
    a class body, a default or decorator) keeps the first; decorated definitions (`@overload`, `@property`) are
    never judged so."""
    names = [t[0] for t in tops]
    if len(set(names)) == len(names):
        return []
    late = None  # line ranges of function bodies: a name there is looked up when the function runs
    out = []
    for i, (name, first, _last, deco, _a, b) in enumerate(tops):
        later = next((t for t in tops[i + 1:] if t[0] == name), None)
        if deco or later is None or later[3]:
            continue
        if late is None:
            late = _function_bodies(text)
            if late is None:
                return []
        lines = [text.count("\n", 0, j) + 1 for j in _mentions(text, name, b, later[4], own=True)]
        if all(any(lo <= ln <= hi for lo, hi in late) for ln in lines):
            out.append(first)
    return out


def _function_bodies(text: str):
    """(first, last) line of every function and lambda body of the module, or None when it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    out = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            out.append((n.body[0].lineno, n.end_lineno or n.body[-1].lineno))
        elif isinstance(n, ast.Lambda):
            out.append((n.body.lineno, n.body.end_lineno or n.body.lineno))
    return out


_FROM = r"^[ \t]*from[ \t]+(?:[\w.]*\.)?{stem}[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)"
_IMPORT = r"^[ \t]*import[ \t]+((?:[\w.]*\.)?{stem})(?:[ \t]+as[ \t]+(\w+))?[ \t]*(?:#.*)?$"


def _refusing_reach(rel: str, text: str, py: dict, text_of) -> set | None:
    """The module-level names of a script whose entry function raises first that can run: those other Python files
    import from it (`from do_not_use_it_directly import get_params`, `import m as alias` then `alias.get_model`),
    what its module-level code names (outside the refusing entry functions), and what those reach in turn. None
    when that cannot be told: a star import or a computed import of the module, or a text that does not parse."""
    stem = rel.rsplit("/", 1)[-1][:-3]
    if not stem.isidentifier():
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    from_re = re.compile(_FROM.format(stem=re.escape(stem)), re.M)
    import_re = re.compile(_IMPORT.format(stem=re.escape(stem)), re.M)
    roots: set = set()
    for other, sf in py.items():
        if other == rel:
            continue
        t = text_of(sf)
        if stem not in t:
            continue
        if re.search(rf"import_module\([^)]*{re.escape(stem)}|__import__\([^)]*{re.escape(stem)}", t):
            return None
        for m in from_re.finditer(t):
            for part in m.group(1).strip("() \t\n").split(","):
                name = part.split(" as ")[0].strip()
                if name == "*":
                    return None
                roots.add(name)
        for m in import_re.finditer(t):
            alias = m.group(2) or m.group(1)
            roots.update(re.findall(rf"(?<![\w.]){re.escape(alias)}\.(\w+)", t))
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    refusing = {n for n, d in defs.items() if not isinstance(d, ast.ClassDef) and d.body and
                isinstance(_first_statement(d), ast.Raise)}

    def named(node) -> set:
        out = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                out.add(n.id)
            elif isinstance(n, ast.Attribute):
                out.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
                out.add(n.value)
        return out

    for st in tree.body:
        if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            roots |= named(st) - refusing
        else:
            for d in st.decorator_list:
                roots |= named(d)
    live: set = set()
    todo = [n for n in roots if n in defs and n not in refusing]
    while todo:
        n = todo.pop()
        if n in live:
            continue
        live.add(n)
        todo.extend(m for m in named(defs[n]) if m in defs and m not in live and m not in refusing)
    return live


def _first_statement(fn):
    body = fn.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
            isinstance(body[0].value.value, str):
        return body[1]
    return body[0]


def _mentioned(places: dict, files, text_of, py: dict, looks_up, place_of, own, views: dict, resolve,
               cache=None, program=lambda rel: False) -> tuple:
    """The definitions (keys: (name, module rel)) some scanned file refers to outside their own lines, where files
    look names up (`_lookups`; complete whenever some definition is left unmentioned), and the holders of the
    definitions mentioned only inside other judged module-level definitions ({key: {(holder key, holder place)}}:
    used when a holder is). Each definition is looked for in its own module first, then in the other files, one
    pass that ends once every definition is found (a word of the text, `Words`, then its mentions, `_refers`): a
    name used nearby costs little, and only when some definition is mentioned nowhere, or only inside other
    definitions, is every text read. `views` (shared by the calls of one `_decide`): what the first look at each
    file kept for the next calls (`_FileView`). `resolve`: the project files an import's module may be
    (`_resolver`). `program(rel)`: the module runs code at import (`_runs_at_import`)."""
    used: set = set()
    left: dict = {}  # key -> its module
    holders: dict = {}

    def classify_at(key, rel: str, text: str, i: int, foreign) -> bool:
        """The mention at offset i makes the definition used (True), or is held by another definition (recorded)."""
        name = key[0]
        if foreign is not None and foreign_at(text, i, foreign, name):
            return False
        got = place_of(rel, offset=i)
        # a mention inside the definition's own lines is no use of it (recursion, `super(Name, self)`); inside
        # another module's definition of the same name (`class BaseTrainer(BaseTrainer):` subclassing the imported
        # one, neuralangelo's trainers) it is held by that definition like by any other
        if got is None or got[0] == name and (got[1][0] == key[1] or _DEF_NAME.search(text, max(0, i - 16), i)
                                              or not imports_name(text, name)):
            # (another module's `def name` / `class name` names its own definition, and there a mention is held
            # only in a file that imports the name: `from base import BaseTrainer` / `class BaseTrainer(BaseTrainer)`)
            return got is None
        holders.setdefault(key, set()).add(((got[0], got[1][0]), got[1]))
        return False

    for key, ps in places.items():
        name, rel = key
        _rel, _first, _last, a, b = min(ps)
        text = text_of(py[rel])
        if any(classify_at(key, rel, text, i, None) for i in
               [*_mentions(text, name, 0, a, own=True), *_mentions(text, name, b, len(text), own=True)]):
            used.add(key)
        else:
            left[key] = rel
    by_name: dict = {}  # name -> the keys left of that name
    for key in left:
        by_name.setdefault(key[0], set()).add(key)
    names: set = set()
    starred: set = set()
    modules = {rel: _module_names(rel) for rel in set(left.values())}
    pure = {rel: is_word(stem) for rel, (stem, _) in modules.items()}
    # the words of each dotted path, all of which a path written at the start of a dotted name holds (a part that
    # is not a pure word, a folder `my-app`, is left to the text search)
    parts_of = {rel: [[w for w in p.split(".") if is_word(w)] for p in paths] for rel, (_, paths) in modules.items()}
    imported: set = set()  # modules some other file names by their file name (`import devutil` or not at all)
    naming: dict = {}  # key -> the files (other than its module) whose text may mean that definition
    homes_of: dict = {}  # name -> the modules defining it with a candidate finding
    for k in left:
        homes_of.setdefault(k[0], set()).add(k[1])
    handed: dict = {}  # key -> the files that only import it, never using it: re-exports

    def settle(key) -> None:
        used.add(key)
        del left[key]
        holders.pop(key, None)
        by_name[key[0]].discard(key)

    for sf in files:
        if not left:
            break
        view = _FileView.of(sf, text_of, views, looks_up, cache)
        if view is None:
            continue
        foreign = None
        handing = None  # a plain module that looks nothing up: an import it never uses hands the name on
        statements = None  # the file's `from ... import` statements (`from_imports`), read once for all its names
        module_paths: list = []  # the module paths of its import statements (`_module_path_spans`), with them
        for name in view.having([n for n, keys in by_name.items() if keys]):
            keys = [k for k in by_name[name] if k[1] != sf.rel]
            if not keys:
                continue
            text = view.text()
            if foreign is None:
                foreign = foreign_names(text, own) if sf.kind == "python" else frozenset()
            offsets = list(_mentions(text, name, 0, len(text)))
            if not offsets:
                continue
            if statements is None and sf.kind == "python":
                statements = from_imports(text)
                module_paths = _module_path_spans(text) if "import" in text else []
            if handing is None:
                handing = sf.kind == "python" and not sf.rel.endswith("__init__.py") and not looks_up(text)
            refers, hands_on, targets = _refers(sf, text, name, offsets, resolve, view.reexports, statements,
                                                module_paths, handing)
            # a file importing the name only from modules that define it themselves names those definitions, not
            # the others of that name (`from attack2 import PGD` in main2.py is no mention of attack.py's PGD:
            # diffaug_SimCLR's copies of one script, fresh85); any other mention may mean any of them
            homes = homes_of[name]
            meant = set().union(*targets) if targets and all(t and t <= homes for t in targets) else None
            for key in sorted(keys):
                if hands_on is not None and hands_on(key[1]):
                    handed.setdefault(key, set()).add(sf.rel)
                if meant is None or key[1] in meant:
                    naming.setdefault(key, set()).add(sf.rel)
                for i in refers(key[1]):
                    if classify_at(key, sf.rel, text, i, foreign):
                        settle(key)
                        break
        for rel, (stem, paths) in modules.items():
            if rel == sf.rel:
                continue
            if pure[rel]:
                if not view.has(stem):
                    continue  # the stem ends every dotted path of the module too: no path either
                imported.add(rel)
            elif rel not in imported and stem in view.text() and _word_at(view.text(), stem, 0, len(view.text())):
                imported.add(rel)
            if any(all(view.has(w) for w in ws) for ws in parts_of[rel]) and \
                    _names_in_module(view.text(), paths, sf.kind == "python"):
                # `target: ldm.modules.encoders.modules.BERTEmbedder`: a config picks classes of this module by
                # their dotted path, so any of them may be picked by a config the scan does not see
                for key in [k for k, r in left.items() if r == rel]:
                    settle(key)
        names.update(view.names)
        starred.update(view.starred)
    # A re-export is used when some other file names the name (perhaps importing it from the re-exporting module);
    # a name that only unused imports name is dead (CCNet's `parse_devices`, imported by engine.py, called nowhere)
    for key, via in handed.items():
        if key in left and naming.get(key, set()) - via - {key[1]}:
            settle(key)
    # A module no other file names is a tool or a script nothing imports: its functions are called by hand. Not
    # those of a program that runs at import (`print(...)`, `demo.launch()` at its top level): nobody imports it
    # to call a function, so a function it never mentions itself never runs.
    for key in [k for k, rel in left.items() if rel not in imported and not program(rel)]:
        settle(key)
    if left:
        found = _documented({k[0]: rel for k, rel in left.items()}, files)
        for key in [k for k in left if k[0] in found]:
            settle(key)
    for key in used:
        holders.pop(key, None)
    return used, names, starred, holders


def _runs_at_import(text: str, setup: frozenset) -> bool:
    """The module's top level runs a program when imported: a statement of its own (not inside an `if`, a `try` or
    the `__main__` block) that calls something beyond the set-up calls of `[context.values] module-setup-calls`
    (`print("loading")`, `demo.launch()`), or a loop or `with` at the top level. Importing it runs the program, so
    it is run, not imported by hand. A call in an import guard (`except ImportError: print("pip install x")`) is
    no program: agent and plugin files loaded by path carry such guards."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for st in tree.body:
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            return True
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            f = st.value.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name not in setup:
                return True
    return False


def _refers(sf, text: str, name: str, offsets: list, resolve, reexports: bool = False, statements=None,
            module_paths=None, handing: bool = False):
    """(`refers`, `hands_on`, `targets`). `refers(home)`: the offsets among `offsets` (the mentions of `name` in the
    file `sf`) that may refer to the definition of `name` in the module `home`. In Python a bare name refers to what
    the file binds to it:

    - a file with its own module-level `def name` / `class name` (a copy of the module in a sibling project of a
      monorepo, `super(Name, self)` in it) refers to its own definition, unless some import statement of it names
      the name too;
    - a file whose `from module import name` statements all import it from project files other than `home` (and
      other than a package holding `home`, which may re-export it) refers to those;
    - an import statement binding the name is what the file's other mentions use: when the file mentions the name
      elsewhere too, those mentions decide (an import used only inside a definition nothing calls uses nothing).

    A mention after a dot (`pkg.name`) or a quote (a config's `type="Name"`, `__all__`) still counts, whatever the
    file binds; so does every mention when an import's module is no project file (unresolved: it may be this one).
    `statements`: the file's `from_imports`, and `module_paths` its `_module_path_spans`, when the caller has them.

    `reexports`: the file is a package's `__init__.py` that looks no name up at run time. Its import statements and
    the strings naming the name (`__all__`, a lazy `_import_structure`) only hand it on: they count through the
    files that import it from the package (`from megatron import initialize_megatron` names it there), not by
    themselves. Its other mentions (code of the `__init__` calling it) still count.

    `handing`: the file is a plain module that looks no name up. An import of the name that the file never uses
    (CCNet's `engine.py` imports `parse_devices` and never calls it) counts for nothing here: `hands_on(home)` says
    the name reaches `home` only through it, and the caller follows it as a re-export, used only when some other
    file names the name (`_mentioned`); None when the file has no such import. `targets`: for each import statement
    of the name, the project files its module resolves to (None when the file has none).
    """
    if sf.kind != "python":
        return (lambda home: offsets), None, None
    paths = module_paths if module_paths is not None else _module_path_spans(text) if "import" in text else []
    if paths:
        # `from model.data_parallel import DataParallel` names the module data_parallel.py, never a function of it
        offsets = [i for i in offsets if not any(a <= i < b for a, b in paths)]
    every = lambda home: offsets  # noqa: E731
    if reexports:
        spans = [(a, b) for a, b, _ in name_imports(text, name, statements)]
        code = [i for i in offsets if not any(a <= i < b for a, b in spans) and not (i and text[i - 1] in "'\"")]
        return (lambda home: code), None, None
    imports = name_imports(text, name, statements)
    spans = [(a, b) for a, b, _ in imports]
    inside = lambda i: any(a <= i < b for a, b in spans)  # noqa: E731
    loose = [i for i in offsets if i and text[i - 1] in ".'\""]
    if not imports:
        if defines_at_top(text, name) and not imports_name(text, name):
            return (lambda home: loose), None, None
        return every, None, None
    targets = [resolve(sf.rel, module) for _, _, module in imports]
    rest = [i for i in offsets if not inside(i)]
    # an import under another name (`from lm.model import Attention as BaseAttention`) is used through the alias
    handing = handing and not rest and re.search(rf"(?<![\w.]){re.escape(name)}\s+as\s", text) is None
    used_here = rest or ([] if handing else offsets)

    def refers(home: str) -> list:
        if all(_elsewhere(t, home) for t in targets):
            return [i for i in loose if not inside(i)]
        return used_here
    # the name reaches `home` only through this file's unused import: a re-export, followed by the caller
    hands_on = (lambda home: not all(_elsewhere(t, home) for t in targets)) if handing else None
    return refers, hands_on, targets


_FROM_PATH = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import\b", re.M)
_IMPORT_LINE = re.compile(r"^[ \t]*import[ \t]+([^\n#;]+)", re.M)
_DOTTED = re.compile(r"[\w.]+")


def _module_path_spans(text: str) -> list:
    """(start, end) of the module paths of the text's import statements (`model.data_parallel` in `from
    model.data_parallel import X`, `a.b` in `import a.b as c`): a word there names a module or package, never a
    function or class of one."""
    out = [m.span(1) for m in _FROM_PATH.finditer(text)]
    for m in _IMPORT_LINE.finditer(text):
        start = m.start(1)
        for part in m.group(1).split(","):
            lead = len(part) - len(part.lstrip())
            d = _DOTTED.match(part, lead)
            if d:
                out.append((start + d.start(), start + d.end()))
            start += len(part) + 1
    return out


def _elsewhere(targets: frozenset, home: str) -> bool:
    """An import's module resolves to project files (`targets`), none of which is `home` or a package holding it."""
    if not targets:
        return False
    for r in targets:
        if r == home or r.endswith("__init__.py") and home.startswith(r[:-len("__init__.py")]):
            return False
    return True


def _resolver(py: dict):
    """`resolve(rel, module)`: the scanned Python files the module of an import statement in `rel` may be
    (`.modeling` beside it; `pkg.modeling` as any file whose path ends in pkg/modeling.py or pkg/modeling/
    __init__.py, since a `sys.path` entry may make any folder a root); empty when none is. An absolute module is
    looked for by a pass over the paths, once per module asked (an index of every path suffix would hold a set per
    suffix for the whole step: a megabyte on 1,000 files)."""
    rels = tuple(py)
    absolute: dict = {}

    def resolve(here_rel: str, module: str) -> frozenset:
        dots = len(module) - len(module.lstrip("."))
        parts = [p for p in module[dots:].split(".") if p]
        if dots:
            here = here_rel.split("/")[:-1]
            if dots - 1 > len(here):
                return frozenset()
            base = here[:len(here) - (dots - 1)] + parts
            stem = "/".join(base)
            got = [(stem + "/" if stem else "") + "__init__.py"] + ([stem + ".py"] if parts else [])
            return frozenset(r for r in got if r in py)
        known = absolute.get(module)
        if known is None:
            path = "/" + "/".join(parts)
            ends = (path + ".py", path + "/__init__.py")
            known = absolute[module] = frozenset(r for r in rels if ("/" + r).endswith(ends))
        return known
    return resolve


# What `_FileView` keeps of a file besides its words, under the file's content digest (cache.FileFacts): the names and
# the starred paths its computed lookups add, whether it re-exports (a package's `__init__.py` that looks nothing up),
# whether its text is empty. It depends on the catalogue's `dynamic-lookup-words`, which the cache's salt covers.
LOOKUPS_FACT = "never-referenced-lookups"


def _lookups_valid(fact) -> bool:
    return isinstance(fact, list) and len(fact) == 4 and all(
        isinstance(x, list) and all(isinstance(n, str) for n in x) for x in fact[:2]) and \
        isinstance(fact[2], bool) and isinstance(fact[3], bool)


class _FileView:
    """One scanned file as `_mentioned` asks it: `has(word)` (a whole word of the text), `text()`, and what its
    computed lookups add (`_lookups`: `names`, `starred`). The first call of `_mentioned` splits the text into its
    words; the later calls (the holders of a name, level by level: every file again, for a few names) keep only a
    small filter of those words per file (`WordBloom`) and the lookups, and read the text again only when a sought
    word may be in it, which the whole-word search then settles (the same answer as the words)."""

    __slots__ = ("sf", "text_of", "_text", "_words", "bloom", "names", "starred", "reexports")

    def __init__(self, sf, text_of, text, words, bloom, names, starred, reexports=False):
        self.sf, self.text_of, self._text, self._words, self.bloom = sf, text_of, text, words, bloom
        self.names, self.starred, self.reexports = names, starred, reexports

    @classmethod
    def of(cls, sf, text_of, seen: dict, looks_up, cache=None):
        """The view of a file, or None when it has no text. `cache`: the scan's ResultCache, which keeps what the
        view holds of each file's content for the next scan (its words, word_sets.kept_words; its lookups, below):
        after an edit, only the edited files are read whole here."""
        kept = seen.get(sf.rel)
        if kept is None:
            text, words, kept_w = kept_words(cache, sf, text_of)
            store = cache.facts(LOOKUPS_FACT) if cache is not None else None
            fact = store.get(sf.rel, _lookups_valid) if store is not None and kept_w is not None else None
            if fact is not None:
                seen[sf.rel] = () if fact[3] else (kept_w, tuple(fact[0]), tuple(fact[1]), fact[2])
                return None if fact[3] else cls(sf, text_of, None, None, *seen[sf.rel])
            if text is None:
                text = text_of(sf) or ""
            if not text:
                seen[sf.rel] = ()
                if store is not None:
                    store.put(sf.rel, [[], [], False, True])
                return None
            if words is None:
                words = Words(text)
            names: set = set()
            starred: set = set()
            reexports = False
            if sf.kind == "python":
                _lookups(sf.rel, text, looks_up, names, starred)
                reexports = sf.rel.rsplit("/", 1)[-1] == "__init__.py" and not looks_up(text)
            if store is not None:
                store.put(sf.rel, [sorted(names), sorted(starred), reexports, False])
            seen[sf.rel] = (kept_w or words.bloom(), tuple(names), tuple(starred), reexports)
            return cls(sf, text_of, text, words, None, names, starred, reexports)
        if not kept:
            return None
        return cls(sf, text_of, None, None, *kept)

    def text(self) -> str:
        if self._text is None:
            self._text = self.text_of(self.sf) or ""
        return self._text

    def having(self, words: list) -> list:
        """The words of the list that `has` (in order)."""
        if self._words is not None:
            return [w for w in words if w in self._words]
        if isinstance(self.bloom, KeptWords):
            return [w for w in self.bloom.may_any(words) if self.has(w)]
        return [w for w in words if self.has(w)]

    def has(self, word: str) -> bool:
        if self._words is not None:
            return word in self._words
        if not self.bloom.may(word):
            return False
        text = self.text()
        return _word_at(text, word, 0, len(text))


def _documented(left: dict, files, dirs=None) -> set:
    """The names a Markdown or reStructuredText file beside the scanned files mentions (a README showing `from utils
    import load_model_on_gpus`): documented for users to call. Read only when some name is left, from the folders
    that hold scanned files (or the folders given)."""
    found: set = set()
    dirs = sorted({str(Path(sf.path).parent) for sf in files}) if dirs is None else dirs
    for text in doc_texts(dirs):
        for name in [n for n in left if n in text and n not in found]:
            if _word_at(text, name, 0, len(text)):
                found.add(name)
        if len(found) == len(left):
            return found
    return found


def doc_texts(dirs):
    """The text of each Markdown or reStructuredText file directly in the given folders (unreadable ones skipped)."""
    for d in dirs:
        try:
            entries = [e.path for e in os.scandir(d) if e.name.lower().endswith(_DOCS) and e.is_file()]
        except OSError:
            continue
        for path in entries:
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    yield fh.read(4_000_000)
            except OSError:
                continue


def doc_dirs(files, root: Path) -> list:
    """The folders of the scanned files and every folder above them up to the scan root: where a README may show a
    name."""
    # a file's path is spelled as the user named the scan (`scan .` gives `sub/x.py`): compare absolute paths,
    # or the folders below the root go unseen and the result depends on how the path was typed
    root = Path(root).absolute()
    dirs = {str(root)}
    for sf in files:
        p = Path(sf.path).absolute().parent
        while str(p) not in dirs and root in p.parents:
            dirs.add(str(p))
            p = p.parent
    return sorted(dirs)


def _module_names(rel: str) -> tuple:
    """The file name of a module and its dotted paths followed by a dot (`ldm.modules.encoders.modules.`, also
    without a leading `src.`). A package's `__init__.py` is named by its folder (`utils` for `utils/__init__.py`)."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    paths = [".".join(parts) + "."]
    if parts[0] == "src" and len(parts) > 2:
        paths.append(".".join(parts[1:]) + ".")
    return parts[-1], paths


def _names_in_module(text: str, paths: list, quoted: bool = False) -> bool:
    """Some dotted path in `paths` occurs in the text as the start of a longer dotted name. `quoted` (Python
    sources): only at the start of a string (`{"target": "ldm.modules.x.Y"}`, a config written in code); in code,
    `dist.initialize()` after `import dist` is an attribute of the imported module, a mention of `initialize` the
    name search finds, and picks no other name of the module (VAR's unused `dist.allgather`)."""
    for p in paths:
        i = text.find(p)
        while i >= 0:
            j = i + len(p)
            if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")) and j < len(text) and (
                    text[j].isalpha() or text[j] == "_") and (not quoted or i and text[i - 1] in "'\""):
                return True
            i = text.find(p, i + 1)
    return False


def _word_at(text: str, name: str, start: int, end: int) -> bool:
    """The name occurs in text[start:end] as a whole word."""
    i = text.find(name, start, end)
    while i >= 0:
        j = i + len(name)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and \
                (j >= len(text) or not (text[j].isalnum() or text[j] == "_")):
            return True
        i = text.find(name, j, end)
    return False


def _mention_at(text: str, name: str, start: int, end: int, own: bool = False) -> bool:
    """The name occurs in text[start:end] as a whole word that refers to it (`_mentions`)."""
    return next(_mentions(text, name, start, end, own), None) is not None


def _mentions(text: str, name: str, start: int, end: int, own: bool = False):
    """The offsets in text[start:end] where the name occurs as a whole word that refers to it: not the name of
    another definition (`def warmup_model(` in a sibling script that defines its own) and not code left commented
    out in another module (`# warmup_model(model, shape)`, `# prior.apply(warmup_model)`: a comment line that
    parses as code; in the name's own module such a line still counts). Prose in a comment (`# warmup_model is the
    slow path`) and a mention inside a string still count. `own`: the text is the name's own module, whose usage
    examples (`>>> pipe = Pipeline.from_pretrained(...)` in an EXAMPLE_DOC_STRING that its methods' docstrings
    take) document the definition as its docstring would: no mention either."""
    exported = None
    i = text.find(name, start, end)
    while i >= 0:
        j = i + len(name)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and \
                (j >= len(text) or not (text[j].isalnum() or text[j] == "_")):
            line_start = text.rfind("\n", 0, i) + 1
            before = text[line_start:i]
            lead = before.lstrip()
            # in its own module a commented-out call is a switch a maintainer flips back (a recall label); elsewhere
            # it is another script's leftover
            commented = not own and lead.startswith("#") and (text.startswith("(", j) or commented_code(
                text[line_start:text.find("\n", j) if "\n" in text[j:] else len(text)]))
            example = own and lead.startswith((">>>", "..."))
            if exported is None:
                exported = _all_spans(text) if "__all__" in text else []
            listed = any(a <= i < b for a, b in exported)
            if not commented and not example and not listed and not _DEF_BEFORE.search(before):
                yield i
        i = text.find(name, j, end)


_ALL = re.compile(r"^__all__[ \t]*(?:\+?=|:[^=\n]*=)[ \t]*[\[(]", re.M)


def _all_spans(text: str) -> list:
    """[(start, end)] of a module's `__all__ = [...]` lists (`+=` too): they name what a star import hands on, and
    whoever calls a name so handed on writes it, which the search finds; the list itself calls nothing, in the
    name's own module or in a copy of it that lists the same names."""
    out = []
    for m in _ALL.finditer(text):
        close = ")" if text[m.end() - 1] == "(" else "]"
        j = text.find(close, m.end())
        if j > 0:
            out.append((m.end(), j))
    return out


_DEF_BEFORE = re.compile(r"^[ \t]*(?:async[ \t]+def|def|class)[ \t]+$")


_LITERAL_PICK = re.compile(r"""\.(?:__dict__\[\s*(?:'\w+'|"\w+")\s*\]|(?!__dict__)[A-Za-z_]\w*)""")


def _picks_module(text: str, start: int) -> bool:
    """`core.__dict__[version].__dict__['Trainer']` (`start`: after the first `[`): the computed lookup picks a
    module of the package, and the name taken from it is written out (a string or an attribute), so the lookup
    reaches that name only, which is a mention of its own."""
    depth, j = 1, start
    while j < len(text) and j < start + 300 and depth:
        depth += {"[": 1, "]": -1}.get(text[j], 0)
        j += 1
    return depth == 0 and _LITERAL_PICK.match(text, j) is not None


def _lookups(rel: str, text: str, looks_up, names: set, starred: set) -> None:
    """Where a Python file looks names up by a computed value: `getattr(models, name)` and `models.__dict__[name]`
    (the last names of the modules looked up in, into `names`), and star imports (`from .losses import *`) into a
    file that looks names up at run time (the module paths, `/a/b/losses`, matched as path suffixes, into
    `starred`). A function of such a module may be reached without its name being written anywhere."""
    if "getattr(" in text:
        names.update(g.rsplit(".", 1)[-1] for g in _GETATTR.findall(text))
    if "__dict__[" in text:
        for m in _DICT.finditer(text):
            if _picks_module(text, m.end()):
                continue
            k = m.start()
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
                k -= 1
            names.add(text[k:m.start()])
    if "import *" in text and looks_up(text):
        here = rel.split("/")[:-1]
        for dots, mod in _STAR.findall(text):
            # `from .utils import *` in a/b/x.py is a/b/utils; `from diffusion.utils import *` is any module path
            # ending in diffusion/utils
            base = here[:len(here) - len(dots) + 1] if dots else []
            starred.add("/" + "/".join(base + [p for p in mod.split(".") if p]))
