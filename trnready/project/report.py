"""The link step's report side: linked hits -> findings at the call where the value enters."""
from __future__ import annotations

import re
from dataclasses import replace

from ..model import Occurrences, make_finding
from ..read import read_bytes
from .helper_places import IMPORTER_STEPS, helper_import_places
from .host_calls import guard_host_calls
from .summary import VERSION
from ..astwalk import walk


def link_findings(files, summaries, engine, cache, config, scan_bytes, digests=(), noted=None) -> tuple:
    """(linked findings, notes naming a default for per-file findings: see note_defaults, the places of builds
    whose C++ fallback gives no operator: see unguard_cpu_less_builds). `noted`: rel ->
    (`exts`, `imported`) of every Python file's summary that has any (api.compact), or None."""
    import warnings

    # Call sources from scanned code are parsed again here: `1(x)` must not print a SyntaxWarning.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        return _link_findings(files, summaries, engine, cache, config, scan_bytes, digests, noted)


def _link_findings(files, summaries, engine, cache, config, scan_bytes, digests, noted) -> tuple[list, list, set]:
    from ..cache import LinkMemo
    from .link import Linker, use_text

    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    from .summary import Compacted

    summaries = [_unpack(sf.rel, s) if sf.rel not in py else s for sf, s in zip(files, summaries)]
    configs = {sf.rel: (sf, s["components"]) for sf, s in zip(files, summaries)
               if sf.rel not in py and s and s.get("components")}
    builds = {sf.rel: (sf, s["builds"]) for sf, s in zip(files, summaries)
              if sf.rel not in py and s and s.get("builds")}
    table = Compacted({sf.rel: _packed(s) for sf, s in zip(files, summaries) if sf.rel in py}, _EMPTY)
    if not any(s["uses"] or s["reads"] or s["funcs"] for s in table.values()) and not configs and not builds:
        return [], [], set()
    def scan(text: str) -> list:
        findings, _ = scan_bytes(text.encode("utf-8", "surrogatepass"), "link_snippet.py", "python", engine,
                                 prefilter=True)
        return findings

    from .summary import value_needles

    linker = Linker(table, scan, LinkMemo(cache), value_needles(engine))
    every = {sf.rel: sf for sf in files}

    def read_source(rel: str):
        """Any scanned file's text (a C++ source of an extension build), or None."""
        sf = every.get(rel)
        if sf is None:
            return None
        data, diag = read_bytes(sf.path, rel, config.max_file_size)
        return data.decode("utf-8", "replace") if diag is None and data is not None else None

    linker.read_source = read_source
    linker.source_listing = tuple(every)
    stored = store = None
    digest_of = {sf.rel: d for sf, d in zip(files, digests) if d and sf.rel in table}
    if cache is not None and len(digest_of) == len(table):
        stored, store = _file_links(cache, digest_of)
    rules = {r.id: r for r in engine.rules}
    out: list = []
    lines_of: dict = {}
    occurrences = Occurrences()
    seen = set()
    notes = []
    trees: dict = {}  # rel -> syntax tree, parsed only for files importing a kernel module
    kernel_imports: set = set()  # indices into out of the findings at imports of kernel modules (link step 10)
    kernel_rules = frozenset(_values(engine).get("kernel-definition-rules", ()))
    text_of: dict = {}
    for rel, use, rule_id, message, confidence, guarded, chain in linker.link(stored, store, noted):
        if not message:  # a default the per-file pass reported at the call that uses it
            notes.append((rel, use[0], rule_id, use[1], use[2], use[4]))
            continue
        rule = rules.get(rule_id)
        line, col, end_line, end_col, src = use[:5]
        if rule is None or (rule_id, rel, line, col) in seen:
            continue
        seen.add((rule_id, rel, line, col))
        if rel not in lines_of:
            data, diag = read_bytes(py[rel].path, rel, config.max_file_size)
            text_of[rel] = data.decode("utf-8", "replace") if diag is None and data is not None else ""
            lines_of[rel] = text_of[rel].splitlines()
        lines = lines_of[rel]
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        end_text = lines[end_line - 1] if 0 < end_line <= len(lines) else ""
        if col < 0:  # a class attribute: the whole statement on its line
            col, end_col = len(text) - len(text.lstrip()), len(text.rstrip())
            col, end_col = len(text[:col].encode()), len(text[:end_col].encode())
        steps = " → ".join(f"{r}:{n} {t}" if n else f"{r} {t}" for r, n, t in chain)
        via = f"{rel}:{line} {use_text(src, linker, rel)}" + (f" → {steps}" if steps else "")
        guarded_by = ""
        if not guarded and chain and _host_chain(rel, chain[-1][0], rule, py, text_of, engine, config):
            guarded, guarded_by = True, "host-data-code"
        out.append(make_finding(
            rule, occurrences, confidence=confidence, path=rel, line=line, column=_column(text, col) ,
            end_line=end_line, end_column=_column(end_text, end_col), snippet=text,
            message=f"{message} (via {via})", code=src, context=_context(lines, line), guarded=guarded,
            guarded_by=guarded_by))
        if use[1] < 0 and chain and chain[0][1] and chain[0][0] != rel:
            # a class attribute or dataclass field read through an object in another module (`init_process_group(
            # backend=cfg.distributed_training.distributed_backend)`): the read is where the value is used, a place
            # of the finding at the field
            out[-1] = replace(out[-1], elsewhere=((chain[0][0], chain[0][1], 1, rule_id),),
                              end_line=_statement_end(lines, line))
        if rule.category == _BUILD_CATEGORY and chain and not any(len(use) > k and use[k] for k in (7, 9)):
            out[-1] = _with_wrapped_build(out[-1], chain[-1], py, lines_of, config)
        more = [p for p in use[5] if isinstance(p, list) and len(p) == 2] if len(use) > 5 else []
        if more:  # further calls of the file leaving the same default out (link._left_out): its places
            from dataclasses import replace as _replace

            occ = tuple(sorted({(ln, _place_column(lines, ln, c), rule_id) for ln, c in more}))
            out[-1] = _replace(out[-1], occurrences=occ)
        if len(use) > 7 and use[7]:  # an import of a kernel module (link step 10): its calls are its places
            # the kernel module's top-level imports that fail on a Trainium host: CUDA-only packages, and the
            # project's own CUDA extensions (`from fftconv import fftconv_fwd`, built by csrc/fftconv/setup.py)
            packages = set(use[8]) & set(_values(engine).get("cuda-only-packages", ()))
            built = set(use[8]) & getattr(linker, "built_roots", frozenset())
            out[-1] = _with_calls(out[-1], use[7], text_of[rel], lines, trees, packages | built,
                                  "optional-gpu-import" if packages else "optional-extension")
            kernel_imports.add(len(out) - 1)
            if rule_id not in kernel_rules and chain:  # a module building (or importing) a CUDA extension at its
                out[-1] = replace(out[-1], link_target=(chain[0][0], chain[0][1]))  # top: a place of that finding
        if chain and chain[-1][2] in IMPORTER_STEPS and len(use) <= 7:
            # `awq_ext, msg = try_import("awq_ext")`: the module's calls in the file are places of the import
            out[-1] = _with_helper_calls(out[-1], line, col, text_of[rel], lines, trees)
        if len(use) > 9 and use[9]:  # an import of a module the project builds: a place of the build's finding
            out[-1] = replace(out[-1], link_target=(use[9][0], use[9][1]))
            if len(use) > 10 and use[10] and not _goes_on_without(text_of[rel], line, trees, rel, _values(engine)):
                # ... and so are the calls of what it imported (llm-awq's `awq_inference_engine.gemv_forward_cuda_new(
                # ...)`): one finding for the extension, placed at each. Not after an import the file goes on
                # without (GroundingDINO's `try: from groundingdino import _C` / `except: warnings.warn(...)`): its
                # calls sit on the path that has the extension, which the file chooses elsewhere
                out[-1] = _with_calls(out[-1], use[10], text_of[rel], lines, trees, set())
    linker.forget()
    out = _one_kernel_import_per_file(_guarded_at_the_call(out, lines_of, engine, cache), kernel_imports)
    out = guard_host_calls(out, len(out), lines_of, _values(engine))  # load-time calls (project/host_calls.py)
    out += _components(configs, linker, engine, occurrences, config)
    out += _container_builds(builds, table, rules, occurrences, config)
    for sf, _ in (*configs.values(), *builds.values()):
        lines_of.setdefault(sf.rel, _lines(sf, config))
    return _suppressed(out, lines_of, engine), notes, linker.cpu_less_builds


def _one_kernel_import_per_file(findings: list, kernel_imports: set) -> list:
    """A file importing several of the project's kernel modules is one item (it runs the project's custom
    kernels): its later imports, and their calls, are places of the first one of the same standing. Folded after
    the guards were decided, so an import with a working fallback never hides one without."""
    from dataclasses import replace

    kept: dict = {}  # (path, guarded) -> index into out
    out: list = []
    for i, f in enumerate(findings):
        if i not in kernel_imports:
            out.append(f)
            continue
        key = (f.path, f.guarded)
        if key not in kept:
            kept[key] = len(out)
            out.append(f)
            continue
        first = out[kept[key]]
        more = tuple(sorted({*first.occurrences, (f.line, f.column, f.rule), *f.occurrences}))
        out[kept[key]] = replace(first, occurrences=more)
    return out


def _guarded_at_the_call(findings: list, lines_of: dict, engine, cache=None) -> list:
    """A linked finding sits at the call where the value enters; the guard of that place applies to it as to
    any finding there (a test skipped without CUDA, `if torch.cuda.is_available():` around the call). The
    per-file pass judged the library's snippet, not the call site, so neuron-guarded runs again here on each
    file that received linked findings (parsed once, only for those files), and so does mocked-unit-test (a test
    that mocks and places nothing hands `device="cuda"` to the plugin under test as an input), and cuda-method-body
    (a class's own `cuda()` method handing "cuda" to its `to()`). Each answer is kept
    in the result cache under the file's text and the finding's place, so a warm re-scan parses none of them
    again."""
    import ast
    import hashlib
    import json
    from dataclasses import replace

    from ..context.base import FileContext
    from ..context.cuda_method_body import cuda_method_at
    from ..context.mocked_unit_test import mocked_test_at
    from ..context.neuron_guarded import guarded_at

    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    kinds = {r.id: {m.kind for m in r.matchers} for r in engine.rules}
    memo = cache if cache is not None and cache.db is not None else None
    held = None  # [path, text, its hash, context or None]: one file at a time, so one syntax tree is alive
    verdicts: dict = {}  # index of a finding -> the predicate guarding it at the call ("" for none)
    # Taken file by file (a stable sort: the findings of a file keep their order), and reported in the order given.
    for i in sorted(range(len(findings)), key=lambda i: findings[i].path):
        f = findings[i]
        if not f.guarded:
            if held is None or held[0] != f.path:
                if held is not None and held[3] is not None:
                    held[3].memo.clear()  # its facts point back at it: the tree is freed now, not by the cyclic GC
                text = "\n".join(lines_of.get(f.path, ()))
                held = [f.path, text, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), None]
            _path, text, digest, ctx = held
            key, guarded = None, None
            if memo is not None:
                wanted = sorted(kinds.get(f.rule, ()))
                parts = [memo.salt, "guarded-at-by", f.path, digest, str(f.line), str(f.column), f.category, *wanted]
                key = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
                guarded = memo._read("results", key)
            if not isinstance(guarded, str):
                if ctx is None:
                    try:
                        tree = ast.parse(text)
                    except (SyntaxError, ValueError, RecursionError, MemoryError):
                        tree = None
                    ctx = held[3] = FileContext(index=None, tree=tree, resolver=None, values=values, path=f.path)
                pos = (f.line, f.column - 1)
                guarded = "neuron-guarded" if guarded_at(ctx, pos, f.category, kinds.get(f.rule, ())) else \
                    "mocked-unit-test" if mocked_test_at(ctx, pos, f.category) else \
                    "cuda-method-body" if cuda_method_at(ctx, pos, f.category) else ""
                if memo is not None and key:
                    memo.queue(key, json.dumps(guarded))
            verdicts[i] = guarded
    if held is not None and held[3] is not None:
        held[3].memo.clear()  # the last file's tree too is freed now, not whenever the cyclic GC next runs
    # cuda-method-body drops (its predicate's effect), as it does for a finding written in the method
    return [replace(f, guarded=True, guarded_by=verdicts[i]) if verdicts.get(i) else f
            for i, f in enumerate(findings) if verdicts.get(i) != "cuda-method-body"]


_BUILD_CATEGORY = "custom-cuda-kernel"


def _with_wrapped_build(f, step, py: dict, lines_of: dict, config):
    """A build reached through the project's own wrapper (`custom_ops.get_plugin(sources=[... .cu])` calling
    `torch.utils.cpp_extension.load(...)` with its parameters): the wrapper's build calls, the one the chain ends at
    and the other calls of the same callee in that function (`load(...)` from a cached build folder, else from the
    sources), are places of the finding at the call (`elsewhere`), not reported on their own (their sources are
    parameters there)."""
    import ast

    rel, line, text = step
    if not line or rel not in py or (rel, line) == (f.path, f.line):
        return f
    if rel not in lines_of:
        data, diag = read_bytes(py[rel].path, rel, config.max_file_size)
        lines_of[rel] = data.decode("utf-8", "replace").splitlines() if diag is None and data is not None else []
    places = [(line, 0)]
    try:
        tree = ast.parse("\n".join(lines_of[rel]))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if tree is not None:
        funcs = [n for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.lineno <= line <= (n.end_lineno or n.lineno)]
        if funcs:
            fn = max(funcs, key=lambda n: n.lineno)
            places = sorted({(n.lineno, n.col_offset + 1) for n in walk(fn) if type(n) is ast.Call
                             and ast.unparse(n.func) == text} | {(line, 0)})
    lines = lines_of[rel]
    more = []
    for ln, col in places:
        if col == 0 and any(p[0] == ln and p[1] for p in places):
            continue  # the chain's own line, found again with its column
        if col == 0:
            src = lines[ln - 1] if 0 < ln <= len(lines) else ""
            col = _column(src, len(src[:max(src.find(text), 0)].encode())) if text in src else 1
        else:
            col = _column(lines[ln - 1], col - 1) if 0 < ln <= len(lines) else col
        more.append((rel, ln, col, f.rule))
    return replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *more))))


def _host_chain(rel: str, last: str, rule, py: dict, text_of: dict, engine, config) -> bool:
    """A finding reached through project calls (`ResizeVideo(interpolation_mode="bilinear")` → `F.resize` →
    `F.interpolate`) in a category of `host-data-categories`, whose place and whose final call both lie in host data
    modules (predicate `host-data-code`: a directory of `host-data-dirs`, nothing moved to a device): the value is
    used on decoded frames or samples on the CPU, as the per-file pass judges the final call itself."""
    from ..context.host_data_code import host_module

    values = _values(engine)
    if rule.category not in values.get("host-data-categories", ()):
        return False
    for r in dict.fromkeys((rel, last)):
        if r not in py:
            return False
        key = ("host-data-code", r)  # the answer per module, kept beside the texts for this link step
        if key not in text_of:
            if r not in text_of:
                data, diag = read_bytes(py[r].path, r, config.max_file_size)
                text_of[r] = data.decode("utf-8", "replace") if diag is None and data is not None else ""
            text_of[key] = host_module(r, text_of[r], values)
        if not text_of[key]:
            return False
    return True


def _values(engine) -> dict:
    return getattr(getattr(engine, "catalogue", None), "context_values", None) or {}


def _goes_on_without(text: str, line: int, trees: dict, rel: str, values: dict) -> bool:
    """The import on `line` sits in the body of a `try` one of whose handlers catches a failed import (bare,
    ImportError, ModuleNotFoundError, Exception) and does not raise: the file runs on without the module."""
    import ast

    if rel not in trees:
        try:
            trees[rel] = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            trees[rel] = None
    tree = trees[rel]
    if tree is None:
        return False
    catches = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    for node in walk(tree):
        if isinstance(node, ast.Try) and node.body and node.body[0].lineno <= line <= (node.body[-1].end_lineno or 0):
            for h in node.handlers:
                types = [] if h.type is None else list(h.type.elts) if isinstance(h.type, ast.Tuple) else [h.type]
                named = [t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "") for t in types]
                if (h.type is None or set(named) & catches) and not any(isinstance(n, ast.Raise) for n in walk(h)):
                    # A handler that only reports (`except: print('CUDA extension not installed.')`) leaves the
                    # module unbound: the file goes on only if it picks the other path itself somewhere
                    shown = frozenset(values.get("output-functions", ()))
                    if not _reports_only(h.body, shown) or _picks_a_path(tree, _bound_at(node.body, line)):
                        return True
    return False


def _reports_only(body, shown: frozenset) -> bool:
    """The handler binds nothing: every statement is `pass`, `...` or a call of `output-functions` (print, a
    warning, a log call)."""
    import ast

    for st in body:
        if isinstance(st, ast.Pass) or isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            f = st.value.func
            if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) in shown:
                continue
        return False
    return True


def _bound_at(body, line: int) -> set:
    """Names the import statements of a `try` body on `line` bind."""
    import ast

    out: set = set()
    for st in body:
        if isinstance(st, (ast.Import, ast.ImportFrom)) and st.lineno <= line <= (st.end_lineno or st.lineno):
            for a in st.names:
                out.add((a.asname or a.name).split(".", 1)[0])
    return out


_PATH_TESTS = frozenset({"is_available", "is_cuda", "device_count"})


def _picks_a_path(tree, names: set) -> bool:
    """Some test of the file chooses between the extension and another path: a CUDA check
    (`torch.cuda.is_available()`, `x.is_cuda`, `device.type == "cuda"`) or a test of the imported name itself
    (`if MSA is not None:`, `hasattr(ext, ...)`, a name in `globals()`)."""
    import ast

    for node in walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)):
            for n in walk(node.test):
                if isinstance(n, ast.Attribute) and n.attr in _PATH_TESTS or isinstance(n, ast.Name) and (
                        n.id in names or n.id in ("globals", "hasattr")) or \
                        isinstance(n, ast.Constant) and n.value == "cuda":
                    return True
    return False


def _with_helper_calls(f, line: int, col: int, text: str, lines: list, trees: dict):
    """The finding at a project helper's import of a module (`try_import("awq_ext")`, helper_places.py), with each
    call of the module the file binds from it as a place."""
    from .syntax import parsed_once

    tree = parsed_once(trees, f.path, text)
    if tree is None:
        return f
    places = helper_import_places(tree, line, col)
    more = [(ln, _column(lines[ln - 1], c) if 0 < ln <= len(lines) else c + 1, f.rule)
            for ln, c in places if not f.line <= ln <= f.end_line]
    return replace(f, occurrences=tuple(more)) if more else f


def _with_calls(f, imports: list, text: str, lines: list, trees: dict, missing: set,
                reason: str = "optional-gpu-import"):
    """The finding at a kernel module's import, with each call of what the file imported from it as a place.
    `missing`: the CUDA-only packages the kernel module imports at module level; when there are any and the
    import sits in a `try` whose `except ImportError:` binds a fallback, the import fails on a Trainium host and
    the fallback runs (guarded, as optional-gpu-import guards such an import of the package itself). A top-level
    module the project builds from CUDA sources counts as such a package (`reason` "optional-extension")."""
    from dataclasses import replace

    from .kernel_calls import call_places, falls_back

    from .syntax import parsed_once

    tree = parsed_once(trees, f.path, text)
    if tree is None:
        return f
    # the summary's import columns are the parser's (UTF-8 byte) offsets; this parse gives the same ones
    if missing and all(falls_back(tree, ln) for ln, _c, _m, _n in imports):  # every import of it in the file
        return replace(f, guarded=True, guarded_by=reason)
    places = call_places(tree, [(ln, col, mod, name) for ln, col, mod, name in imports])
    more = [(ln, _column(lines[ln - 1], col) if 0 < ln <= len(lines) else col + 1, f.rule)
            for ln, col in places if not f.line <= ln <= f.end_line]
    return replace(f, occurrences=tuple(more)) if more else f


def _unpack(rel, s):
    if isinstance(s, (bytes, bytearray)):
        from .summary import Fresh, unpack

        return unpack(rel, s, type(s) is not Fresh)  # packed by this run's own code: of the right shape
    return s


def _packed(s):
    """Summaries arrive compacted from api.scan; a dict (a direct caller) is compacted here."""
    if s is None or isinstance(s, (bytes, bytearray)):
        return s
    from .summary import compact

    return compact(s)


def _lines(sf, config) -> list:
    data, diag = read_bytes(sf.path, sf.rel, config.max_file_size)
    return data.decode("utf-8", "replace").splitlines() if diag is None and data is not None else []


def _components(configs: dict, linker, engine, occurrences, config) -> list:
    """A config's `_component_: mylib.training.Quantizer` where mylib/training re-exports a library class:
    reported at the config line as if the config named the library class itself."""
    from ..readers.configs import resolve_dotted
    from ..readers.emit import msg
    from .link import External

    out = []
    for rel in sorted(configs):
        sf, comps = configs[rel]
        lines = None
        for line, col, end_col, path in comps:
            r, mod_rel = linker.dotted_path(path)
            if not isinstance(r, External):
                continue
            found = resolve_dotted(r.qualname, engine)
            if not found:
                continue
            if lines is None:
                lines = _lines(sf, config)
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            steps = " → ".join(f"{a}:{n} {t}" if n else f"{a} {t}" for a, n, t in r.chain) or mod_rel
            for rule, m in found:
                shown = r.qualname
                out.append(make_finding(
                    rule, occurrences, confidence=m.confidence, path=rel, line=line, column=col, end_line=line,
                    end_column=end_col, snippet=text, code=text.strip(), context=_context(lines, line),
                    message=f"{msg(rule, m, shown)} (via {rel}:{line} {path} → {steps})"))
    return out


def _container_builds(builds: dict, table, rules: dict, occurrences, config) -> list:
    """`COPY csrc/ /src` + `RUN cd /src && python setup.py install` in a Dockerfile: when the setup.py at that
    place of the project builds a CUDA extension, the RUN step compiles CUDA kernels while the image is built
    and is reported with the extension's rule. The build context is the repository root or the Dockerfile's
    folder (or one above it); the first of these that holds the setup.py decides, nothing is guessed."""
    import posixpath

    out = []
    for rel in sorted(builds):
        sf, steps = builds[rel]
        here = posixpath.dirname(rel)
        bases = [""] + [here] + [posixpath.dirname(here)] if here else [""]
        lines = None
        for line, col, end_col, path, command in steps:
            for base in dict.fromkeys(bases):
                setup = posixpath.normpath(posixpath.join(base, path, "setup.py"))
                if setup in table:
                    break
            else:
                continue
            # "" is the file's own kernels; an eighth field marks a C++ fallback build, CUDA's only as linked
            exts = [e for e in table[setup].get("exts") or [] if e[0] and len(e) == 7]
            if not exts:
                continue
            name, bline, _c, bsrc, rule_id, confidence, message = exts[0]
            rule = rules.get(rule_id)
            if rule is None:
                continue
            if lines is None:
                lines = _lines(sf, config)
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            more = f" and {len(exts) - 1} more" if len(exts) > 1 else ""
            out.append(make_finding(
                rule, occurrences, confidence=confidence, path=rel, line=line, column=col, end_line=line,
                end_column=end_col, snippet=text, code=text.strip(), context=_context(lines, line),
                message=f"{message} (via {rel}:{line} {command} → {setup}:{bline} {bsrc}(name={name!r}){more})"))
    return out


def note_defaults(findings: list, notes: list) -> list:
    """A per-file finding whose flagged value is a parameter default written elsewhere in the function
    (`def compile(self, mode="reduce-overhead")` ... `torch.compile(m, mode=mode)`) also points at the
    default: that is the line to change. It is added as an occurrence and named in the message."""
    if not notes:
        return findings
    from dataclasses import replace

    at: dict = {}
    calls: dict = {}  # (rel, line of the finding or of one of its places, rule) -> calls leaving the default out
    for rel, call_line, rule, line, col, param in notes:
        if param:
            at.setdefault((rel, call_line, rule), (line, col, param))
        else:
            calls.setdefault((rel, call_line, rule), []).append((line, col))
    out = []
    for f in findings:
        if calls and f.cell is None:
            places = {(f.path, ln, rule) for ln, _, rule in ((f.line, f.column, f.rule), *f.occurrences)}
            more = sorted({c for k in places if k in calls for c in calls[k]} - {(f.line, f.column - 1)})
            have = {ln for ln, _c, _r in f.occurrences} | {f.line}
            add = tuple((ln, col + 1, f.rule) for ln, col in more if ln not in have)
            if add:
                f = replace(f, occurrences=(*f.occurrences, *add))
        # The call may be an occurrence of a finding that holds a run of such calls (one finding per thing).
        hit = next((at[k] for k in ((f.path, ln, rule) for ln, _, rule in ((f.line, f.column, f.rule),
                                                                           *f.occurrences)) if k in at),
                   None) if f.cell is None else None
        if hit is not None and all(o[0] != hit[0] for o in f.occurrences):
            line, col, param = hit
            f = replace(f, occurrences=(*f.occurrences, (line, col + 1, f.rule)),
                        message=f"{f.message} (`{param}` defaults to it at line {line})")
        out.append(f)
    return out


def _suppressed(findings: list, lines_of: dict, engine) -> list:
    """`# trnready: ignore[...]` at the call silences a linked finding like any other. (The per-file
    pass may already have called that directive unused: TRN902 does not know about linked findings.)"""
    from .. import suppress

    out = []
    for rel in sorted({f.path for f in findings}):
        mine = [f for f in findings if f.path == rel]
        text = "\n".join(lines_of.get(rel, ()))
        # apply() also returns meta findings about the directives: the per-file pass reported those.
        out += suppress.apply(mine, text, None, rel, engine)[:len(mine)]
    return out


def _file_links(cache, digest_of: dict):
    """Each file's links kept in the result cache with the content hashes of every file they
    consulted: after an edit only the files whose links read the edited file are linked again."""
    import hashlib
    import json

    layout = hashlib.sha256("\0".join(sorted(digest_of)).encode("utf-8", "surrogatepass")).hexdigest()

    def key(rel: str) -> str:
        return hashlib.sha256(f"{cache.salt}\0links\0{layout}\0{rel}".encode("utf-8", "surrogatepass")).hexdigest()

    def stored(rel: str):
        data = cache._read("results", key(rel))
        try:
            if {r: digest_of.get(r) for r in data["deps"]} != data["deps"]:
                return None
            return [(str(path), list(use), str(r), str(m), str(c), bool(g), [(str(a), b, str(t)) for a, b, t in chain])
                    for path, use, r, m, c, g, chain in data["hits"]
                    if len(use) == 7 and isinstance(use[4], str) and all(isinstance(x, int) for x in use[:4])
                    and all(b is None or isinstance(b, int) for _, b, _ in chain)]
        except (TypeError, KeyError, ValueError, AttributeError):
            return None

    def store(rel: str, touched, links) -> None:
        if cache.db is None:
            return
        entry = {"deps": {r: digest_of[r] for r in touched if r in digest_of},
                 "hits": [[path, use, r, m, c, g, [list(s) for s in chain]] for path, use, r, m, c, g, chain in links]}
        cache.queue(key(rel), json.dumps(entry, ensure_ascii=False))

    return stored, store


_EMPTY = {"v": VERSION, "imports": {}, "consts": {}, "classes": {}, "aliases": {}, "funcs": {}, "uses": [], "stars": [],
          "stores": {}, "reads": [], "flags": [], "guards": [], "exts": [], "imported": [],
          "callers": None}


def _place_column(lines: list, ln: int, c: int) -> int:
    """The column of a place at byte offset c of line ln; c < 0: the line's first non-blank column (a library call
    a default reaches, whose column the link step does not record)."""
    text = lines[ln - 1] if 0 < ln <= len(lines) else ""
    return _column(text, c) if c >= 0 else len(text) - len(text.lstrip()) + 1


def _column(line: str, byte_offset: int) -> int:
    from ..readers.python import _column as col

    return col(line, byte_offset)


def _context(lines, lineno):
    from ..readers.python import context_lines

    return context_lines(lines, lineno)


def drop_answered_unused(findings: list, linked: list) -> list:
    """The per-file pass called a suppression unused (TRN902) when the only finding it silences is a
    linked one: drop that meta finding when its one selector now silences a linked finding there."""
    from ..suppress import selector_matches_id

    used = [f for f in linked if f.suppressed]
    if not used:
        return findings

    def answered(m) -> bool:
        if m.rule != "TRN902":
            return False
        sel = m.message.rsplit(": ", 1)[-1]
        return "," not in sel and " " not in sel and any(
            f.path == m.path and f.line == m.line and selector_matches_id(sel, f.rule, f.category) for f in used)

    return [m for m in findings if not answered(m)]


def _statement_end(lines: list, line: int) -> int:
    """The last line of the statement starting at `line` (1-based), by its brackets: a dataclass field written
    `backend: str = field(` / `default="nccl", ...` / `)`. Strings holding brackets may end it early, never late
    (at most 20 lines)."""
    depth = 0
    for i in range(line - 1, min(len(lines), line + 19)):
        for ch in lines[i].split("#", 1)[0]:
            depth += ch in "([{"
            depth -= ch in ")]}"
        if depth <= 0:
            return i + 1
    return line


def fold_field_reads(findings: list, linked: list) -> tuple[list, list]:
    """A field read through an object in another module (a linked finding with `elsewhere`, spanning the field's
    statement) whose statement already holds a per-file finding of the rule that keeps other places of its own
    (`backend: str = field(default="nccl")`, its default an occurrence): one thing, so the per-file finding stays
    and takes the read as a place; the linked one goes. Without such a finding drop_restated decides."""
    reads = [f for f in linked if f.elsewhere and f.cell is None]
    if not reads:
        return findings, linked
    gone = set()
    out = []
    for f in findings:
        if f.occurrences and f.cell is None:
            for r in reads:
                if id(r) not in gone and r.path == f.path and r.rule == f.rule and r.line <= f.line <= r.end_line \
                        and (r.guarded, r.suppressed) == (f.guarded, f.suppressed):
                    f = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *r.elsewhere))))
                    gone.add(id(r))
        out.append(f)
    return out, [f for f in linked if id(f) not in gone]


MAX_CALL_LINES = 40  # lines of a linked call whose per-file findings of the rule it restates


def drop_spanning_calls(findings: list, linked: list) -> list:
    """A linked finding at a call written over several lines (`engine = TransformersEngine(` /
    `attn_impl='flash_attention_2',` / `)`) restates the per-file finding of its rule at an argument on a later line
    of the call (up to MAX_CALL_LINES), which points at the value to change: the linked one goes (the linked
    findings kept). Judged otherwise (guarded or suppressed apart), both stay."""
    at = {(f.path, f.line, f.rule, f.guarded, f.suppressed) for f in findings if f.cell is None}
    if not at:
        return linked
    return [f for f in linked if f.cell is not None or f.elsewhere or f.end_line <= f.line or not any(
        (f.path, n, f.rule, f.guarded, f.suppressed) in at
        for n in range(f.line + 1, min(f.end_line, f.line + MAX_CALL_LINES) + 1))]


def drop_linked_on_folded_lines(findings: list) -> list:
    """A linked finding (its message ends with the `(via ...)` chain) on a line of a reported per-file finding of its
    rule that holds places says the same thing again: imips_pytorch's `IMIPNet(checkpoint_path=p, device="cuda:0")`
    and its "cuda:1" twin on the next line are one per-file finding of the literals, and the link step's findings at
    the two calls restate it (three fresh80 duplicates). Run after every guard: a per-file finding guarded later (a
    keyword its callee overwrites) leaves the linked findings standing."""
    folded = {(f.path, n, f.rule) for f in findings if f.cell is None and f.occurrences and not f.guarded
              and not f.suppressed and " (via " not in f.message
              for n in (f.line, *(o[0] for o in f.occurrences))}
    if not folded:
        return findings
    return [f for f in findings if f.cell is not None or f.guarded or f.suppressed or f.elsewhere
            or " (via " not in f.message or (f.path, f.line, f.rule) not in folded]


def drop_restated(findings: list, linked: list) -> list:
    """A per-file finding of the same rule on the line of a linked one says the same with less (`compile_mode:
    max-autotune`, a training-argument field read as a setting, and the link step's finding at that field, which
    names the torch.compile it reaches): the linked one is kept. A field read through an object in another module
    covers every line of its statement. A per-file finding holding other places of the same thing (occurrences)
    stays, and so does one judged otherwise (guarded or suppressed where the linked one is not: the two then say
    different things about the line)."""
    at = {(f.path, f.line, f.rule, f.guarded, f.suppressed) for f in linked if f.cell is None}
    # a field read through an object in another module (`elsewhere`): the linked finding spans the field's
    # statement, and the per-file one on any line of it (`backend: str = field(` or its `default="nccl",`) restates it
    for f in linked:
        if f.elsewhere and f.cell is None:
            at.update((f.path, n, f.rule, f.guarded, f.suppressed) for n in range(f.line + 1, f.end_line + 1))

    if not at:
        return findings
    return [f for f in findings
            if f.occurrences or f.cell is not None or (f.path, f.line, f.rule, f.guarded, f.suppressed) not in at]


_CALL_TEXT = re.compile(r"[\w.]+\(.*\)")


def _starts_at_call(message: str) -> bool:
    """The first step of the message's `(via ...)` chain is a call (`resize(mode='bilinear')`, `smooth()`)."""
    at = message.rfind(" (via ")
    first = message[at + 6:].split(" → ", 1)[0].partition(" ")[2] if at >= 0 else ""
    return bool(_CALL_TEXT.fullmatch(first))


def _chain_end(message: str) -> tuple | None:
    """(path, line) of the call a linked finding's value reaches: the last step of the `(via A → B → path:line
    call)` this module writes into its message, or None for a finding without steps or one whose chain ends at
    the assignment of the value it uses (a module constant read by each call that moves something to it)."""
    at = message.rfind(" (via ")
    if at < 0 or not message.endswith(")"):
        return None
    steps = message[at + 6:-1].split(" → ")
    if len(steps) < 2:
        return None
    place, _, text = steps[-1].partition(" ")
    if " = " in text:
        return None  # the chain goes back to where a value is written (`CUDA_0 = 'cuda:0'`): each use is a place
    path, _, line = place.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None


def fold_values_into_calls(findings: list, linked: list) -> tuple[list, list]:
    """A linked finding whose value reaches a call that a per-file finding of the same rule already reports
    (kornia's `rescale(..., interpolation="bilinear")` default handed to `resize`, whose own `"bilinear"`
    default is reported at its `F.interpolate`): one call to change, so one finding. The per-file finding
    takes the linked place as an occurrence (same file) or a place elsewhere (another file), and the linked
    finding goes. A call reported guarded or suppressed, or on a notebook cell, keeps the linked finding apart:
    the two then say different things."""
    if not linked:
        return findings, linked
    target: dict = {}
    for i, f in enumerate(findings):
        if f.cell is None and not f.guarded and not f.suppressed:
            for ln in (f.line, *(o[0] for o in f.occurrences)):
                target.setdefault((f.path, ln, f.rule), i)
    if not target:
        return findings, linked
    from dataclasses import replace

    here: dict = {}  # index of a per-file finding -> occurrences to add
    away: dict = {}  # index -> places in other files to add
    kept: list = []
    for f in linked:
        # only a value handed to a call folds: an import of a module the project builds, or a Dockerfile step
        # running its setup.py, is a place the build's own steps name ("imported at", a finding of the step)
        end = _chain_end(f.message) if f.cell is None and not f.guarded and not f.suppressed \
            and _starts_at_call(f.message) else None
        at = target.get((*end, f.rule)) if end else None
        if at is None:
            kept.append(f)
            continue
        # the linked finding's own occurrences (other calls leaving the same default) go along with it
        for line, column in ((f.line, f.column), *((o[0], o[1]) for o in f.occurrences)):
            if f.path == findings[at].path:
                here.setdefault(at, []).append((line, column, f.rule))
            else:
                away.setdefault(at, []).append((f.path, line, column, f.rule))
    if not here and not away:
        return findings, linked
    out = list(findings)
    for i in set(here) | set(away):
        f = out[i]
        have = {o[0] for o in f.occurrences} | {f.line}
        occ = tuple(o for o in dict.fromkeys(here.get(i, ())) if o[0] not in have)
        far = tuple(p for p in dict.fromkeys(away.get(i, ())) if p not in f.elsewhere)
        out[i] = replace(f, occurrences=(*f.occurrences, *occ), elsewhere=(*f.elsewhere, *far))
    return out, kept
