"""Library modules nothing imports: every finding in them is guarded after the scan.

`never-referenced` (unreferenced.py) judges one function or class at a time and leaves alone a module that no
other file names, taking it for a tool or a script someone runs by hand. That reading is wrong for a module of a
package that only defines things: `ldm_patched/contrib/external_mask.py` (a copied node library whose siblings the
application imports, but not this one) has nothing to run and nobody imports it, so none of its code runs. Its
findings are guarded (`guarded_by` "never-imported").

A module is judged only when all of these hold, so the step errs on the side of keeping a finding:

- it sits in a folder below the scan root that is used as a package (the folder holds an `__init__.py`, or some
  other file names the folder's dotted path, `ldm_patched.contrib.`), not at the root of the scan;
- its top-level folder is named by a file outside it (an application's internal library; a package nothing
  outside names is a library for other projects, whose users import any module);
- it is not a test (scope), an `__init__.py`, `setup.py`, `conftest.py`, `__main__.py` or `hubconf.py`, and not in
  a package the root packaging declares (a library's modules are its users' API);
- it is not a script: its top level only imports, defines, assigns, and calls the set-up functions of
  `[context.values] module-setup-calls` (`warnings.filterwarnings`, `logging.basicConfig`, a registry's
  `register`); a `__main__` check, `sys.argv`, `argparse`, or any other call or loop at the top level makes it one,
  except a top-level `__main__` self-check in a module that some package module imports (it is then dead when its
  importers are);
- no file loads it by a computed name (`import_module(f"zoedepth.trainers.{name}_trainer")`) unless that file is a
  package module this step judges dead too (a loader runs only if its own module does);
- no file of the scan (Python, shell, config, notebook, Dockerfile) and no Markdown or reStructuredText file in a
  scanned folder names the module's file name as a word (`import external_mask`, `from .external_mask import`,
  `python -m pkg.external_mask`, a config's dotted path), except files that are themselves judged unimported
  by this step (a module only a dead module imports is dead too; three rounds at most); a package's
  `__init__.py` is such an importer when no import statement names its folder and no file outside the package
  uses a name it re-exports;
- the scan covers the whole project (no folder above the root holds `.git` or packaging).

In a monorepo of sub-projects (each putting its own folder on `sys.path`) a folder is also a package used from
outside when a file of its sub-project imports a module of it by a tail of its path (`lib.core.x` for
`CDARTS/lib/core/`, `_imported_by_tail`); an import spelling another folder's namesake (`lib.core.x` seen from
`benchmark201/core/x.py`) does not name the module (`_imports_another`); and a nested package no file outside it
imports is dead as a whole (`_orphaned`).

A module at the root of the scan is judged too when the root has no packaging (setup.py, setup.cfg,
pyproject.toml: nothing installs it as a distribution's module) and some root module imports another, with simpler
conditions: it only defines things (as
above), its name is no conventional entry point (`entry-module-names`: main, app, train, ...), and no other file
names its file name as a word, nor does a Markdown file (`_dead_root_modules`; mellotron's
`fp16_optimizer.py`, a copy of Apex's FP16_Optimizer, fresh51; session 38).

Cheap: nothing runs unless a finding sits in such a module; the names are searched as substrings first and
confirmed as words, and the search stops as soon as every candidate is named somewhere. Kept in the result cache
under the digests of every scanned file.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from .broken_imports import _packaging_text
from .summary import top_calls
from .syntax import parsed_once
from .unreferenced import _SKIP_FILES, _declared_packages, _partial_scan, _reader, _word_at, keeping_reader
from .unreferenced import _documented as _documented_names
from .word_sets import Words, is_word, kept_words
from .mentions import foreign_at, foreign_names, project_names

REASON = "never-imported"
_ROUNDS = 3
_RELATIVE = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import", re.M)


def guard_unimported(findings: list, files, root, values: dict, max_bytes=None, cache=None, digests=(),
                     summaries=None) -> list:
    """Mark guarded (`never-imported`) the findings in a package module nothing imports (see the docstring).
    `summaries` (aligned with `files`): the per-file summaries, whose `defs` say what a module's top level calls
    without parsing it again (a module without one is parsed here)."""
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
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    packaging = _packaging_text(root)
    candidates = sorted({f.path for f in todo if f.path in py and _eligible(f.path, packages, classify)
                         and not _packaged(f.path, packaging)})
    # a module at the root of a repository without packaging (nothing installs it as a distribution's API)
    at_root = sorted({f.path for f in todo if f.path in py and "/" not in f.path and f.path not in _SKIP_FILES
                      and classify(f.path) != "test"}) if not packaging.strip() else []
    if not candidates and not at_root:
        return findings
    memo = StepMemo(cache, f"{REASON}\0{','.join(sorted(packages))}")
    key = _key(memo, files, digests)
    got = memo.get(key)
    if not (isinstance(got, list) and all(isinstance(g, str) for g in got)):
        tops = _top_calls_by_rel(files, summaries) if summaries is not None else None
        got = sorted(_dead_modules(candidates, files, py, packages, values, _reader(max_bytes), classify, tops,
                                   cache, root, not packaging.strip()) if candidates else set())
        if at_root:
            got = sorted(set(got) | _dead_root_modules(at_root, files, py, values, _reader(max_bytes), tops, cache))
        memo.put(key, got)
    if not got:
        return findings
    dead = set(got)
    return [replace(f, guarded=True, guarded_by=REASON)
            if not f.guarded and not f.suppressed and f.cell is None and f.path in dead else f for f in findings]


def _dead_root_modules(rels: list, files, py, values, read_text, tops, cache) -> set:
    """The modules at the root of the scan (with no root packaging) that only define things and that no other file
    names as a word: mellotron's `fp16_optimizer.py`, a copy of Apex's FP16_Optimizer that nothing imports (fresh51).
    A module with a `__main__` check, a top-level call or loop (a script run by hand), or one a Markdown file names,
    stays; so does every root module of a project that unpickles whole model objects (`torch.load(path)['model']`:
    the checkpoint names the module of its class, FastSpeech's `glow.py` for NVIDIA's WaveGlow)."""
    setup = frozenset(str(c) for c in values.get("module-setup-calls", ()))
    entries = frozenset(str(n) for n in values.get("entry-module-names", ()))
    rels = [r for r in rels if _stem(r) not in entries]
    if not rels:
        return set()
    judged = set(rels)
    text_of = keeping_reader(read_text, judged.__contains__)
    open_ = [r for r in rels if _library_module(text_of(py[r]), setup, tops(r) if tops is not None else _UNKNOWN)]
    if not open_ or not _root_modules_import_each_other(py, text_of):
        return set()
    if any(_PICKLED_MODEL.search(text_of(sf) or "") for sf in py.values()):
        # `torch.load(path)['model']`: a whole model object unpickled by its class's module name (NVIDIA's WaveGlow
        # checkpoint needs `glow.py` at the root, FastSpeech's vocoder), which no import names
        return set()
    named = _named_by(open_, files, text_of, lambda r: False, cache)
    dead = {r for r in open_ if not named.get(r)}
    return dead - _documented(dead, files) if dead else dead


# A checkpoint holding a whole model object, read out of what torch.load returned (`torch.load(path)['model']`)
_PICKLED_MODEL = re.compile(r"""torch\.load\([^\n]*\)\s*\[\s*['"]model['"]\s*\]""")


def _root_modules_import_each_other(py: dict, text_of) -> bool:
    """Some Python file at the root imports another root module (mellotron's train.py: `from model import
    Tacotron2`): the root is the application's import namespace, where a module nothing names is unused. A root
    whose files import none of each other (a lone script, modules meant for a notebook elsewhere) is not judged."""
    roots = [r for r in py if "/" not in r]
    stems = {_stem(r) for r in roots}
    if len(stems) < 2:
        return False
    for r in roots:
        me = _stem(r)
        if any(head.split(".", 1)[0] in stems - {me} for head in _import_heads(text_of(py[r]))):
            return True
    return False


def _packaged(rel: str, packaging: str) -> bool:
    """The root packaging names a folder holding the module (`package_dir={'lib': 'hub/lib_main/lib'}`): its
    modules are a distribution's API."""
    parts = rel.split("/")[:-1]
    return any("/".join(parts[:i]) in packaging for i in range(len(parts), 1, -1))


def _eligible(rel: str, packages: frozenset, classify, inits: bool = False) -> bool:
    """A module this step may judge. `inits`: a package's `__init__.py` below the top folder too, judged only as a
    file naming another module (see _named_by): a package nothing imports runs no `from .loss import Loss` either."""
    parts = rel.split("/")
    init = inits and parts[-1] == "__init__.py" and len(parts) > 2 + (parts[0] == "src")
    if len(parts) < 2 or (parts[-1] in _SKIP_FILES and not init) or classify(rel) == "test":
        return False
    lib = parts[1:] if parts[0] == "src" and len(parts) > 2 else parts
    return not (packages and len(lib) > 1 and lib[0] in packages)


def _top_calls_by_rel(files, summaries):
    """rel -> the `defs` of its summary (None: a script), or _UNKNOWN without a summary (the text is parsed)."""
    from .summary import Fresh, StaleSummary, unpack_head

    index = {sf.rel: s for sf, s in zip(files, summaries) if s is not None and sf.kind == "python"}

    def defs(rel):
        s = index.get(rel)
        if isinstance(s, dict):
            return s.get("defs", _UNKNOWN)
        if isinstance(s, (bytes, bytearray)):
            try:
                return unpack_head(rel, s, check=type(s) is not Fresh).get("defs", _UNKNOWN)
            except StaleSummary:
                return _UNKNOWN
        return _UNKNOWN
    return defs


_UNKNOWN = object()


def _dead_modules(candidates, files, py, packages, values, read_text, classify, tops=None, cache=None,
                  root=None, application: bool = False) -> set:
    """`application`: the scan root has no packaging, so nothing installs its folders as a distribution's API
    (a loose module, `_loose_module`, may then be judged)."""
    setup = frozenset(str(c) for c in values.get("module-setup-calls", ()))
    judged: set = set()  # modules whose text is kept: candidates and the modules that name them
    text_of = keeping_reader(read_text, judged.__contains__)
    verdict: dict = {}  # rel -> True (may be dead) / False (alive)
    checked: dict = {}  # rel -> True: a library module with a `__main__` self-check, dead only if its importers are
    mentioners: dict = {}  # rel -> {rels of eligible modules naming it}
    facts_of: dict = {}  # rel -> import facts of its tree, for the namesake test (kept across the rounds)
    trees: dict = {}  # rel -> its syntax tree, shared by the namesake and the sub-package tests
    todo = list(candidates)

    def is_module(r: str) -> bool:
        return _eligible(r, packages, classify, inits=True)

    scanned = {sf.rel for sf in files}

    def loose(r: str) -> bool:
        # (a folder some file imports from by its dotted path, `from lookup import blocks`, is a namespace package:
        # the package rule above judges it)
        if not (application and _loose_module(r, scanned)):
            return False
        text = text_of(py[r])
        return bool(text) and _runs_nothing(parsed_once(trees, r, text)) \
            and _application_namespace(r.rsplit("/", 2)[0] if r.count("/") >= 2 else "", py, text_of) \
            and not _used_as_package(r, files, text_of) and not _folder_imported(r, files, text_of)
    for _ in range(_ROUNDS):
        fresh = list(dict.fromkeys(r for r in todo if r not in verdict))
        if not fresh:
            break
        judged.update(fresh)
        for rel in fresh:
            verdict[rel] = _library_module(text_of(py[rel]), setup, tops(rel) if tops is not None else _UNKNOWN)
            if not verdict[rel] and _self_checked_library(text_of(py[rel]), setup):
                verdict[rel] = checked[rel] = True
        # the mention search first: it settles most modules as used, so the checks below, which each read every
        # file's text, run only for the few modules nothing but package modules name
        open_ = [r for r in fresh if verdict[r]]
        named = _named_by(open_, files, text_of, is_module, cache, facts_of, trees)
        nxt: list = []
        for rel in open_:
            who = named.get(rel, set())
            if None in who or (rel in checked and not who):
                # named by a file that is not a package module (a script, a config, a test); or a module with a
                # `__main__` self-check that no package module imports: a script run by hand
                verdict[rel] = False
                continue
            if not (_used_as_package(rel, files, text_of) and _imported_from_outside(rel, files, text_of)
                    or _imported_by_tail(rel, files, text_of) or not who and loose(rel)):
                verdict[rel] = False
                continue
            # a loader by computed name in a module this step may judge counts as that module's mention: it loads
            # something only if its own module runs (ZoeDepth's `trainers/builder.py`, which nothing imports)
            loaders = _loaded_by_name(rel, files, text_of, is_module)
            if None in loaders:
                verdict[rel] = False
                continue
            mentioners[rel] = who | loaders
            nxt.extend(w for w in mentioners[rel] if w not in verdict)
        todo = nxt
    # a sub-package no file outside imports is dead whatever names its modules' words (its own modules do)
    orphans = _orphaned_subpackages(candidates, files, py, text_of, setup, Path(root), trees) \
        if root is not None else set()
    # a module is dead when it may be and every module naming it is dead (a fixpoint over the rounds run)
    dead = {r for r, v in verdict.items() if v and r in mentioners} | orphans
    changed = True
    while changed:
        changed = False
        for r in list(dead - orphans):
            if any(w not in dead for w in mentioners[r]):
                dead.discard(r)
                changed = True
    if root is not None:
        # a nested package nothing outside imports: dead as a whole, whatever its modules' names (they import each
        # other, more rounds than the ones above)
        dead |= _orphaned(candidates, files, py, text_of, setup, Path(root))
    dead = {r for r in dead if r in candidates}
    if dead - orphans:
        # (an orphaned sub-package's file names are words a README may use for anything, `xdecoder`: only an
        # import revives it)
        dead -= _documented(dead - orphans, files)
    return dead


def _loose_module(rel: str, scanned: set) -> bool:
    """A module in a plain folder below the scan root: no `__init__.py` there, and (the caller checks) no file of any
    kind names its file name, so no import, `python -m`, config or README can reach it. ps_pytorch keeps an archived
    copy of PyTorch 0.3's DistributedDataParallel in `src/data_parallel_dist/data_parallel_dist.py` beside the
    scripts it runs from `src/` (nine fresh80 verdicts). Only a module that defines things and runs nothing at
    import is judged (`_runs_nothing`), so running it by hand would do nothing either, and only below the folder an
    application imports its modules from (`_application_namespace`)."""
    folder = rel.rsplit("/", 1)[0]
    return "/" in rel and f"{folder}/__init__.py" not in scanned


def _folder_imported(rel: str, files, text_of) -> bool:
    """Some Python file imports from the module's folder as a package (`from lookup import blocks`, `import
    lookup.blocks`, also from `src/` down): a namespace package, judged by the package rule, not as a loose folder."""
    parts = rel.split("/")[:-1]
    names = [".".join(parts)] + ([".".join(parts[1:])] if parts[0] == "src" and len(parts) > 1 else [])
    rx = re.compile(r"^[ \t]*(?:from[ \t]+(?:%s)(?:[ \t]+import\b|\.)|import[ \t]+(?:%s)\.)" % (
        "|".join(re.escape(n) for n in names), "|".join(re.escape(n) for n in names)), re.M)
    return any(sf.kind == "python" and sf.rel != rel and rx.search(text_of(sf) or "") for sf in files)


def _runs_nothing(tree) -> bool:
    """The module's top level (its `__main__` block included) calls nothing: imports, definitions, and assignments
    of values that call nothing (`x = torch.randn(1, 3).cuda()` at the top of pytorch_workspace's
    `tensorrt/torch_trt.py` is a script's work, run by hand; fresh76). A version test around imports is allowed.
    `tree`: the module's syntax tree (parsed once for the step), None when it does not parse."""
    if tree is None:
        return False
    stack = list(tree.body)
    while stack:
        st = stack.pop()
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                           ast.Pass)) or isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if isinstance(st, (ast.Assign, ast.AnnAssign)):
            if st.value is not None and any(isinstance(n, ast.Call) for n in ast.walk(st.value)):
                return False
            continue
        if isinstance(st, (ast.If, ast.Try)) and not any(isinstance(n, ast.Call) for n in ast.walk(
                st.test if isinstance(st, ast.If) else ast.Pass())):
            stack.extend(st.body)
            stack.extend(getattr(st, "orelse", []))
            for h in getattr(st, "handlers", []):
                stack.extend(h.body)
            continue
        return False
    return True


def _application_namespace(parent: str, py: dict, text_of) -> bool:
    """The folder above the module's own (`parent`, "" for the scan root) is where an application imports its
    modules from: one of its Python files imports another module or package of that folder (ps_pytorch's
    `src/distributed_nn.py` imports `model_ops`, `src/data_loader_ops/`). A folder of independent sub-projects
    (NLP_pytorch_project's `Text_Similarity/ESimCSE/`, `Text_Similarity/ConSBERT/`, each a model file whose trainer
    the repository does not hold; fresh76 verdicts call them the project's code) imports nothing of its own."""
    prefix = parent + "/" if parent else ""
    here = [r for r in py if r.startswith(prefix) and "/" not in r[len(prefix):]]
    names = {_stem(r) for r in here}
    names |= {r[len(prefix):].split("/", 1)[0] for r in py if r.startswith(prefix) and "/" in r[len(prefix):]}
    for r in here:
        me = _stem(r)
        if any(head.split(".", 1)[0] in names - {me} for head in _import_heads(text_of(py[r]) or "")):
            return True
    return False


def _stem(rel: str) -> str:
    """The word an import of the module writes: its file name, or for a package's `__init__.py` its folder's."""
    parts = rel.split("/")
    return parts[-2] if parts[-1] == "__init__.py" and len(parts) > 1 else parts[-1][:-3]


def _named_by(rels: list, files, text_of, eligible, cache=None, facts_of=None, trees=None) -> dict:
    """rel -> the files naming the module's file name as a word: the rel of a module this step may judge, or None
    for any other file (a script at the root, a test, a config, a notebook), which settles the module as used.
    `cache`: the scan's ResultCache, whose kept words of a file (word_sets.kept_words) spare reading a file that
    holds none of the words sought."""
    out: dict = {r: set() for r in rels}
    own = project_names(files)
    pyset = {f.rel for f in files if f.kind == "python"}
    # importer rel -> what the namesake test reads of its syntax tree (parsed once per step, when a mention needs it)
    spans_of: dict = {} if facts_of is None else facts_of
    trees = {} if trees is None else trees  # rel -> syntax tree, parsed once per step
    stems = {r: _stem(r) for r in rels}
    pure = {r: is_word(s) for r, s in stems.items()}
    # what a package's __init__ re-exports from its modules: a file outside the package using one of those names
    # uses the package (gpt-neox calls `GradientNoiseScale(...)` without importing it: still its code)
    by_rel = {f.rel: f for f in files}
    exported = {r: _exported_names(text_of(by_rel[r])) for r in rels if r.endswith("/__init__.py") and r in by_rel}
    # every test below needs a whole word of the text (the exported names are identifiers): one split of the text
    # answers them all instead of a substring search per module
    sought: dict = {r: [stems[r]] if pure[r] else None for r in rels}
    for r in exported:
        if sought[r] is not None:
            sought[r] = sought[r] + sorted(exported[r]) if all(is_word(n) for n in exported[r]) else None
    was: list = []
    gate: list | None = None
    for sf in files:
        left = [r for r in rels if None not in out[r]]
        if not left:
            break
        if left != was:  # the words sought from the modules left (None: some test is not of a whole word)
            was = left
            gate = None if any(sought[r] is None for r in left) else sorted({n for r in left for n in sought[r]})
        text, words, kept = kept_words(cache, sf, text_of)
        if kept is not None:
            if gate is not None and not kept.may_any(gate):
                continue  # no word sought is a word of the file: it names none of the modules left
            text = text_of(sf)
            words = Words(text)
        if not text:
            continue
        for r in left:
            if r == sf.rel:
                continue
            s = stems[r]
            named = (s in words) if pure[r] else (s in text and _word_at(text, s, 0, len(text)))
            if r in exported and sf.kind == "python":
                # a package's folder name (`modules`, `layers`) is a common word (`self.modules()`): in Python it
                # names the package only in an import statement
                if not sf.rel.startswith(r[:-len("__init__.py")]) and any(
                        (n in words) if is_word(n) else (n in text and _word_at(text, n, 0, len(text)))
                        for n in exported[r]):
                    out[r].add(None)
                elif named and _imported_word(text, s):
                    out[r].add(sf.rel if eligible(sf.rel) else None)
            elif named and not (sf.kind == "python" and (_imports_another(text, s, r) or _only_in_comments(text, s)
                                                          or _only_foreign(text, s, own)
                                                          or _loads_namesake(text, s, r, sf.rel, pyset, spans_of,
                                                                             trees))):
                out[r].add(sf.rel if sf.kind == "python" and eligible(sf.rel) else None)
    return out


def _loads_namesake(text: str, word: str, rel: str, importer: str, pyset: set, spans_of: dict, trees: dict) -> bool:
    """Every mention of the word in the Python text sits in an import statement loading another scanned file
    (`from .modules import X` in a live package, beside a stale copy's `modules.py`: project/import_targets.py)."""
    from .import_targets import Facts, names_elsewhere

    at = []
    for i in _code_mentions(text, word):
        start = text.rfind("\n", 0, i) + 1
        at.append((text.count("\n", 0, i) + 1, len(text[start:i].encode("utf-8"))))
    if importer not in spans_of:
        tree = parsed_once(trees, importer, text)
        spans_of[importer] = Facts(tree) if tree is not None else None
    got = spans_of[importer]
    if got is None:
        return False
    return names_elsewhere(at, got, importer, rel, pyset)


_RELATIVE_NAMES = re.compile(r"^[ \t]*from[ \t]+\.[\w.]*[ \t]+import[ \t]+(?:\(([^)]*)\)|([^(\n][^\n]*))", re.M)


def _code_mentions(text: str, word: str):
    """The offsets of the word as a whole word that no `#` comes before on its line."""
    i = text.find(word)
    while i >= 0:
        j = i + len(word)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and \
                (j >= len(text) or not (text[j].isalnum() or text[j] == "_")) and \
                "#" not in text[text.rfind("\n", 0, i) + 1:i]:
            yield i
        i = text.find(word, j)


def _only_in_comments(text: str, word: str) -> bool:
    """Every mention of the word in the Python text sits after a `#` on its line: an import left commented out
    (mixup-cifar10's `# from .densenet_efficient_multi_gpu import DenseNet190` in `models/__init__.py`) imports
    nothing. (A `#` inside a string before the word counts as a comment too: the word is then kept as a mention
    only if it also appears elsewhere; erring that way guards less.)"""
    return next(_code_mentions(text, word), None) is None


def _only_foreign(text: str, word: str, own: frozenset) -> bool:
    """Every mention of the word outside comments is a part of a library's dotted name (`nn.parallel.DataParallel`
    after `import torch.nn as nn`, `torch.nn.parallel`): it names the library's module, not the project's
    `parallel.py` (awesome-semantic-segmentation's copy of PyTorch-Encoding's parallel.py, which nothing
    imports; fresh48)."""
    foreign = foreign_names(text, own)
    if not foreign:
        return False
    seen = False
    for i in _code_mentions(text, word):
        # a name that ends the chain (`nn.parallel`) or goes on to another part (`nn.parallel.X`) alike
        if not (i and text[i - 1] == "." and foreign_at(text, i, foreign, word)):
            return False
        seen = True
    return seen


def _exported_names(text: str) -> set:
    """The names `from .module import A, B as C` binds in a package's __init__ (C for an alias)."""
    out = set()
    for grouped, line in _RELATIVE_NAMES.findall(text or ""):
        names = " ".join(x.split("#")[0] for x in (grouped or line).splitlines()).rstrip("\\")
        for part in names.split(","):
            words = part.split()
            if words and words[-1].isidentifier() and words[-1] != "import":
                out.add(words[-1])
    return out


def _imported_word(text: str, word: str) -> bool:
    """`word` is a part of a module path in an import statement (`from .modules import X`, `import a.modules.b`,
    also in a parenthesised or continued import; a word after `import` in `from x import word` too)."""
    w = re.escape(word)
    line = re.compile(rf"^[ \t]*(?:from|import)[ \t][^\n]*?(?<![\w]){w}(?![\w])", re.M)
    group = re.compile(rf"^[ \t]*from[ \t][^\n(]*import[ \t]*\([^)]*?(?<![\w]){w}(?![\w])", re.M)
    return line.search(text) is not None or group.search(text) is not None or (
        "import_module(" in text or "__import__(" in text) and _word_at(text, word, 0, len(text))


def _used_as_package(rel: str, files, text_of) -> bool:
    """The module's folder holds an `__init__.py` among the scanned files, or some other file imports from it by
    its dotted path (a namespace package: `from ldm_patched.contrib.external import ...`, or relatively:
    `from .architecture.face.codeformer import ...`)."""
    folder = rel.rsplit("/", 1)[0]
    rels = {sf.rel for sf in files}
    if f"{folder}/__init__.py" in rels:
        return True
    parts = folder.split("/")
    dotted = [".".join(parts) + "."]
    if parts[0] == "src" and len(parts) > 1:
        dotted.append(".".join(parts[1:]) + ".")
    for sf in files:
        if sf.rel == rel or sf.kind != "python":
            continue
        text = text_of(sf)
        if any(d in text and _head_word(text, d[:-1]) for d in dotted):
            return True
        if "from ." in text:
            here = sf.rel.split("/")[:-1]
            for dots, mod in _RELATIVE.findall(text):
                base = here[:len(here) - len(dots) + 1] if len(dots) <= len(here) + 1 else []
                target = base + [p for p in mod.split(".") if p]
                if target[:len(parts)] == parts and len(target) > len(parts) - (0 if mod else 1):
                    return True
    return False


def _imported_from_outside(rel: str, files, text_of) -> bool:
    """The module's top-level folder is named by a file outside it (`from ldm_patched.contrib.external import ...`
    in `modules/core.py`): an internal library of an application that runs from elsewhere. A package nothing
    outside it names is a library for other projects (or a tree the scan sees alone), whose modules users import."""
    from ..scope import classify

    parts = rel.split("/")
    top = parts[1] if parts[0] == "src" and len(parts) > 2 else parts[0]
    prefix = rel[:rel.index(top) + len(top) + 1]
    for sf in files:
        # a test importing the package says it is a library under test, not an application's internal code
        if sf.rel.startswith(prefix) or classify(sf.rel) == "test":
            continue
        text = text_of(sf)
        if top in text and _head_word(text, top):
            return True
    return False


def _head_word(text: str, name: str) -> bool:
    """`name` occurs as a word that does not follow a dot (`from mmseg.apis import`, not
    `annotator.uniformer.mmseg`)."""
    i = text.find(name)
    while i >= 0:
        j = i + len(name)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")) and \
                (j >= len(text) or not (text[j].isalnum() or text[j] == "_")):
            return True
        i = text.find(name, j)
    return False


_LOADERS = ("import_module(", "__import__(", "spec_from_file_location(", "SourceFileLoader(", "run_path(",
            "run_module(", "load_source(")
_WALKERS = ("iter_modules(", "walk_packages(")
_LOADED_ALREADY = re.compile(r"\s*[\w.]+\.__(?:module|name|package)__\s*[,)]")


def _loaded_by_name(rel: str, files, text_of, is_module=lambda r: False) -> set:
    """The files that may load the module without its name being written anywhere: a Python file loading modules by
    a computed name whose call names the module's folder (`importlib.import_module(f"plugins.{name}")`, also with
    the argument on the next line), given as its rel when `is_module(rel)` (a package module this step may judge:
    it loads only when it runs itself), else as None; None too for a file walking the packages at or above the
    module's folder (`pkgutil.walk_packages(package.__path__)` in a package's `__init__.py`)."""
    parts = rel.split("/")[:-1]
    folders = [p for p in parts if p != "src"]  # `lib.` + name in a computed import may reach lib/train/loop.py
    out: set = set()
    for sf in files:
        if sf.kind != "python" or sf.rel == rel:
            continue
        text = text_of(sf)
        if any(w in text for w in _WALKERS):
            here = sf.rel.split("/")[:-1]
            if parts[:len(here)] == here:
                return {None}
        if not any(f in text for f in folders) or not any(w in text for w in _LOADERS):
            continue
        for w in _LOADERS:  # the call and what follows it (an argument written on the next line)
            i = text.find(w)
            while i >= 0:
                window = text[i:i + 240]
                if _LOADED_ALREADY.match(text, i + len(w)):  # `import_module(model.__module__)`: loads nothing new
                    i = text.find(w, i + 1)
                    continue
                if any(f in window and _names_folder(window, f, folders[:k]) for k, f in enumerate(folders)):
                    if not is_module(sf.rel):
                        return {None}
                    out.add(sf.rel)
                    break
                i = text.find(w, i + 1)
            if sf.rel in out:
                break
    return out


def _library_module(text: str, setup: frozenset, calls=_UNKNOWN) -> bool:
    """The module's top level only imports, defines, assigns and calls set-up functions: nothing to run.
    `calls`: its summary's `defs` when known (the names of its top-level calls, None for a script)."""
    if not text or "__main__" in text or "sys.argv" in text or "argparse" in text:
        return False
    if calls is not _UNKNOWN:
        return calls is not None and all(c in setup for c in calls)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return _library_module(text, setup, top_calls(tree.body))


def _names_folder(window: str, folder: str, above: list) -> bool:
    """`folder` occurs in `window` as a word, and when a dotted name spells a parent before it (`zoo.trainers.`),
    that parent is the folder's own (`above`: the folders above it): `import_module(f"zoo.trainers.{name}")` loads
    nothing from `depth/trainers/`."""
    i = window.find(folder)
    while i >= 0:
        j = i + len(folder)
        if (i == 0 or not (window[i - 1].isalnum() or window[i - 1] == "_")) and \
                (j >= len(window) or not (window[j].isalnum() or window[j] == "_")):
            if i == 0 or window[i - 1] != "." or not above:
                return True
            k = i - 1
            while k > 0 and (window[k - 1].isalnum() or window[k - 1] == "_"):
                k -= 1
            if window[k:i - 1] == above[-1] or not window[k:i - 1]:
                return True
        i = window.find(folder, j)
    return False


def _self_checked_library(text: str, setup: frozenset) -> bool:
    """A library module whose only script part is a top-level `if __name__ == "__main__":` self-check (ZoeDepth's
    `trainers/loss.py` tries its losses on random tensors there). Such a module counts as a library module when
    some package module imports it: the block runs only by hand (its findings already have the `example` scope),
    and the rest runs only through its importers."""
    if not text or "__main__" not in text:
        return False
    got = _outside_main(text)
    if got is None:
        return False
    tree, body, rest = got
    if len(body) == len(tree.body):
        return False
    if any("sys.argv" in r or "argparse" in r or "__main__" in r for r in rest):
        return False
    calls = top_calls(body)
    return calls is not None and all(c in setup for c in calls)


def _documented(rels: set, files) -> set:
    """The modules whose file name a Markdown or reStructuredText file names, in a scanned folder or in a folder
    above the module (fairseq's `examples/attention_head_selection/README.md` passes `--task
    speech_to_text_head_selection` with `--user-dir .../src`)."""
    by_stem: dict = {}
    for r in rels:
        by_stem.setdefault(_stem(r), set()).add(r)
    by_rel = {sf.rel: sf for sf in files}
    dirs = {str(Path(sf.path).parent) for sf in files}
    for r in rels:
        here = Path(by_rel[r].path).parent
        for _ in range(r.count("/")):
            here = here.parent
            dirs.add(str(here))
    return {r for stem in _documented_names(by_stem, files, sorted(dirs)) for r in by_stem[stem]}


def _imports_another(text: str, stem: str, rel: str) -> bool:
    """Every word `stem` of the Python text sits in the dotted module path of an absolute import statement that
    spells another module (`from lib.core.augment_function import train` names `lib/core/augment_function.py`, not
    its sibling project's `benchmark201/core/augment_function.py`): a copy in a monorepo is not imported by an
    import of its namesake. A path spelling the module's own folders (`core.augment_function` for either) counts."""
    own = "/" + rel[:-3]
    heads = _import_heads(text)
    allowed = 0
    for head in heads:
        path = head.split(".")
        for k, part in enumerate(path):
            if part == stem:
                if own.endswith("/" + "/".join(path[:k + 1])):
                    return False
                allowed += 1
    if not allowed:
        return False
    return len(re.findall(rf"(?<![\w]){re.escape(stem)}(?![\w])", text)) <= allowed


def _import_heads(text: str) -> list:
    """The module paths of the file's import statements (`from lib.core.x import y` -> `lib.core.x`, `import a.b as
    c, d` -> `a.b`, `d`); relative imports are left out."""
    return list(_heads_of(text or ""))


@lru_cache(maxsize=8)
def _heads_of(text: str) -> tuple:
    # `_named_by` asks once per module left for the same file's text: the line scan (a `^` search tried at every
    # character) cost more than the rest of the step, so it is done once per text
    out = []
    for m in _IMPORT_LINE.finditer(text):
        if m.group(1):
            out.append(m.group(1))
        else:
            out.extend(p.split()[0] for p in m.group(2).split("#")[0].split(",") if p.split())
    return tuple(out)


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w., \t]*))",
                          re.M)


def _imported_by_tail(rel: str, files, text_of) -> bool:
    """A file below a folder that holds the module imports it as a package from that folder (a sub-project of a
    monorepo puts its own folder on `sys.path`: `CDARTS/CDARTS/retrain.py` writes `from lib.core.augment_function
    import train` for `CDARTS/lib/core/`, `benchmark201/search.py` writes `from core.search_function import` for its
    sibling `core/`): the imported module is a file of that folder, and the importer lies outside the package's
    top folder (`lib/`, `core/`). The package is then the internal library of that sub-project, and its other
    modules are judged like any package module's. An import of the same path from another sub-project (whose own
    `configs/` or `models/` it means) does not count."""
    from ..scope import classify

    parts = rel.split("/")[:-1]
    if len(parts) < 2 or any(sf.rel == "/".join(parts) + "/__init__.py" for sf in files):
        # a regular package keeps the library reading of _imported_from_outside: only a namespace folder, which
        # nothing but a path import reaches, is read from the tail (gptq's `zeroShot/models/`, imported as
        # `models.models_utils` by its sibling script, stays a library whose users may import any module)
        return False
    mods = {sf.rel[:-3] if sf.rel.endswith(".py") else sf.rel for sf in files if sf.kind == "python"}
    mods |= {m[:-len("/__init__")] for m in mods if m.endswith("/__init__")}
    tails = [(".".join(parts[k:]), "/".join(parts[:k]) + "/", "/".join(parts[:k + 1]) + "/")
             for k in range(1, len(parts))]
    words = {parts[k] for k in range(1, len(parts))}
    for sf in files:
        if sf.kind != "python" or classify(sf.rel) == "test":
            continue
        text = text_of(sf)
        if not text or not any(w in text for w in words):
            continue
        for head in _import_heads(text):
            for dotted, base, top in tails:
                if head.startswith(dotted + ".") and sf.rel.startswith(base) and not sf.rel.startswith(top) and \
                        base + head.replace(".", "/") in mods:
                    return True
    return False


_PACKAGING_FILES = ("setup.py", "setup.cfg", "pyproject.toml")


def _orphaned(candidates, files, py, text_of, setup, root) -> set:
    """The candidates in a nested package no file outside it imports (CDARTS_segmentation's `segmentation/`, a copy
    of another project's package that none of the sub-project's scripts import). Such a package (a folder holding
    an `__init__.py`, with the folders above it down to the scan root holding none) is dead as a whole when:

    - it lies below a folder of the scan root (not at the root, not in `src/`: users of a tree scanned alone put its
      root on `sys.path`), and neither it nor the folder holding it has packaging (`setup.py`, `setup.cfg`,
      `pyproject.toml`: a sub-project installed as a library);
    - no file outside it (tests included) imports it (`import seg`, `from seg.model import x`) or writes its dotted
      name (`"seg.model.Net"` in a string or a config, `python -m seg.tools.train`), and no file loads modules by a
      computed name naming its folder or walks packages above it;
    - every module of it only imports, defines, assigns and sets up, besides a `__main__` self-check (no script: a
      tool inside would be run by hand; a self-check runs only the module's own code).

    Its modules' file names may appear anywhere (its own modules import each other): what keeps a package alive is
    an import from outside, and there is none."""
    rels = {sf.rel for sf in files}
    tops_of: dict = {}
    for rel in candidates:
        parts = rel.split("/")
        top = None
        for k in range(len(parts) - 1, 0, -1):
            if "/".join(parts[:k]) + "/__init__.py" in rels:
                top = k
            else:
                break
        if top is None or top < 2 or (parts[0] == "src" and top < 3):
            continue
        folder = "/".join(parts[:top])
        tops_of.setdefault(folder, []).append(rel)
    out: set = set()
    for folder, members in tops_of.items():
        if _orphan_package(folder, files, py, text_of, setup, root):
            out.update(members)
    return out


def _orphaned_subpackages(candidates, files, py, text_of, setup, root, trees=None) -> set:
    """The candidates in a sub-package (a folder holding an `__init__.py` inside a package) that no file outside it
    imports: X-Decoder's stale `modeling/body/decoder/` and `modeling/body/encoder/`, older copies of what
    `modeling/interface/` and `modeling/vision/encoder/` hold, which its live `modeling/body/xdecoder_head.py` no
    longer imports. Such a package is dead as a whole when:

    - no folder between the scan root and it holds packaging (`setup.py`, `setup.cfg`, `pyproject.toml`): a library
      installed from inside the repository is its users' API, any module of it;
    - every module of it only imports, defines, assigns and sets up (no script: a tool inside is run by hand);
    - no import statement of a Python file outside it can load it or one of its modules, resolved from the
      importer's folder for relative imports and from the scan root or any folder above the importer for absolute
      ones (project/import_targets.py), and no file loads modules by a computed name naming its folder;
    - no other file of the scan (a config, a script, Markdown) writes its folder path or its dotted path as a
      parent of something (`body/decoder`, `body.decoder.`).

    Its own modules may name each other and the words of its file names may appear anywhere: what would keep it
    alive is an import from outside, and there is none."""
    trees = {} if trees is None else trees
    rels = {sf.rel for sf in files}
    folders: dict = {}
    for rel in candidates:
        parts = rel.split("/")
        for k in range(len(parts) - 1, 1, -1):
            folder = "/".join(parts[:k])
            if folder + "/__init__.py" in rels and "/".join(parts[:k - 1]) + "/__init__.py" in rels:
                folders.setdefault(folder, []).append(rel)
    out: set = set()
    for folder, members in folders.items():
        parts = folder.split("/")
        if any((root.joinpath(*parts[:k]) / name).is_file() for k in range(1, len(parts) + 1)
               for name in _PACKAGING_FILES):
            continue
        if _orphan_subpackage(folder, files, py, text_of, setup, trees):
            out.update(members)
    return out


def _orphan_subpackage(folder: str, files, py, text_of, setup, trees) -> bool:
    from .import_targets import loads_below

    inside = folder + "/"
    members = [r for r in py if r.startswith(inside)]
    if not members:
        return False
    # a loader by computed name naming a folder above (`import_module(f"pytracking.tracker.{name}")` loads
    # `pytracking/tracker/dimp/`, a name no file writes)
    if None in _loaded_by_name(members[0], files, text_of):
        return False
    name = folder.rsplit("/", 1)[-1]
    parent = folder.rsplit("/", 2)[-2]
    # `body.decoder`, `body/decoder`, or the folder's name before one of its modules (`processor.recognition.train`
    # in mmskeleton's configs, a dotted path its loader completes)
    stems = sorted({r[len(inside):].split("/", 1)[0].removesuffix(".py") for r in members} - {"__init__"})
    tails = "|".join(re.escape(t) for t in stems if t.isidentifier())
    spelled = re.compile(rf"(?<![\w]){re.escape(parent)}[./]{re.escape(name)}(?![\w])"
                         + (rf"|(?<![\w.]){re.escape(name)}[./](?:{tails})(?![\w])" if tails else ""))
    for sf in files:
        if sf.rel.startswith(inside):
            continue
        text = text_of(sf)
        if not text or name not in text:
            continue
        code = "\n".join(line.split("#", 1)[0] for line in text.splitlines()) if sf.kind == "python" else text
        if spelled.search(code):
            return False  # a path or a dotted name spelling it (a config's `custom_imports`, a launcher)
        if sf.kind != "python" or not _imported_word(text, name):
            continue  # (no import statement writes the name: none can load the package)
        tree = parsed_once(trees, sf.rel, text)
        if tree is None or loads_below(tree, sf.rel, folder):
            return False
    # last (it parses every module of the package): no script inside
    return all(_package_module(text_of(py[r]), setup) for r in members)


def _orphan_package(folder: str, files, py, text_of, setup, root) -> bool:
    parent = folder.rsplit("/", 1)[0]
    for place in (folder, parent):
        if any((root / place / name).is_file() for name in _PACKAGING_FILES):
            return False
    name = folder.rsplit("/", 1)[-1]
    inside = folder + "/"
    above = parent.split("/")
    dotted = re.compile(rf"([\w.]*?)(?<!\w){re.escape(name)}\.[A-Za-z_]|-m[ \t]+{re.escape(name)}\b")
    members = [r for r in py if r.startswith(inside)]
    for rel in members:
        if not rel.endswith(".py"):
            continue
        if not _package_module(text_of(py[rel]), setup):
            return False

    def spells(path: list) -> bool:
        # the components before the package's name are folders above it (`ldm.modules.x` for `ldm/modules/`,
        # whose `ldm/` has no `__init__.py`); `skimage.segmentation` names another library's package
        return any(c == name and (not j or above[-min(j, len(above)):] == path[max(0, j - len(above)):j])
                   for j, c in enumerate(path))
    for sf in files:
        if sf.rel.startswith(inside):
            continue
        text = text_of(sf)
        if not text or name not in text and "from ." not in text:
            continue
        if sf.kind == "python":
            if any(spells(h.split(".")) for h in _import_paths(text)) or _imports_relatively(sf.rel, text, folder):
                return False
            quoted = re.finditer(rf"[\'\"]([\w.]*?)(?<!\w){re.escape(name)}\.[A-Za-z_]", text)
        else:
            quoted = dotted.finditer(text)
        for m in quoted:
            if m.group(1) is None or spells([c for c in m.group(1).split(".") if c] + [name]):
                return False
    probe = members[0] if members else None
    if probe is None or None in _loaded_by_name(probe, files, text_of):
        return False
    return True


def _outside_main(text: str) -> tuple | None:
    """(tree, the top-level statements outside `if __name__ == "__main__":` blocks, their source texts), or None
    when the text does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    from ..postprocess import _is_main_guard

    body = [st for st in tree.body if not _is_main_guard(st)]
    # the source of each statement, as ast.get_source_segment gives it, from one split of the text (the library
    # function splits the whole text again for every statement: most of this step's time on a large package)
    lines = text.splitlines(keepends=True)
    return tree, body, [_segment(lines, st) for st in body]


def _segment(lines: list, node) -> str:
    end = getattr(node, "end_lineno", None)
    end_col = getattr(node, "end_col_offset", None)
    if end is None or end_col is None or node.lineno > len(lines):
        return ""
    first, last = node.lineno - 1, end - 1
    if first == last:
        return lines[first].encode()[node.col_offset:end_col].decode(errors="replace")
    head = lines[first].encode()[node.col_offset:].decode(errors="replace")
    tail = lines[last].encode()[:end_col].decode(errors="replace") if last < len(lines) else ""
    return "".join([head, *lines[first + 1:last], tail])


def _package_module(text: str, setup: frozenset) -> bool:
    """The module's top level, its `if __name__ == "__main__":` block aside, only imports, defines, assigns and
    calls set-up functions, and reads no command line (an empty `__init__.py` too)."""
    if not text.strip():
        return True
    got = _outside_main(text)
    if got is None:
        return False
    tree, body, rest = got
    if any("sys.argv" in r or "argparse" in r or "parse_args" in r for r in rest):
        return False
    calls = top_calls(body)
    return calls is not None and all(c in setup for c in calls)


def _imports_relatively(rel: str, text: str, folder: str) -> bool:
    """A relative import of the file reaches into `folder` (`from .modules.transformer import X` in
    `models/voicecraft.py` for `models/modules/`)."""
    if "from ." not in text:
        return False
    here = rel.split("/")[:-1]
    parts = folder.split("/")
    for dots, mod in _RELATIVE.findall(text):
        if len(dots) > len(here) + 1:
            continue
        target = here[:len(here) - len(dots) + 1] + [p for p in mod.split(".") if p]
        if target[:len(parts)] == parts:
            return True
    return False


_FROM_NAMES = re.compile(r"^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([^(\n][^\n]*))", re.M)


def _import_paths(text: str) -> list:
    """`_import_heads` and, for `from a import b, c`, the paths `a.b` and `a.c` (`b` may be a module or a package:
    `from feature_networks import clip`)."""
    out = _import_heads(text)
    for head, grouped, line in _FROM_NAMES.findall(text or ""):
        names = " ".join(x.split("#")[0] for x in (grouped or line).splitlines()).replace("\\", " ")
        out.extend(f"{head}.{part.split()[0]}" for part in names.split(",") if part.split())
    return out
