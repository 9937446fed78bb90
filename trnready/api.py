"""scan(paths, config) -> Report: wires discover -> read -> reader -> post-process -> Report.

This module never imports click: the CLI and the tests call the same API.

Pipeline: the main process discovers files, reads and hashes each one and
answers what it can from the result cache; the misses are scanned in-process
(small jobs) or by a pool of forked workers that re-read the file themselves,
so no file content is held in memory longer than its own scan. Results are
assembled in discovery order, so output is identical for every --jobs value.
"""
from __future__ import annotations

import datetime as _dt
import gc
import os
import sys
import time
import traceback
from dataclasses import replace
from pathlib import Path

from .version import __version__
from .cache import ResultCache, code_fingerprint, content_hash, default_cache_dir
from .catalogue import Catalogue, load_catalogue
from .config import Config, error_at, select_rules
from . import postprocess, readers, scope
from .discover import Discoverer, common_root, printable_path
from .filekinds import kind_in
from .context.own_package import project_facts
from .limits import bound
from .project.summary import pack_list
from .match import Engine
from .model import PARTIAL_KINDS, Diagnostic, Report
from .read import decode_python, read_bytes
from .workers import init_worker, stop_pool
from .repo_rules import mentioned_in_files, repo_files, repo_rules

# Below this many files to scan, a worker pool costs more than it saves.
POOL_MIN_FILES = 48
# Deeply nested code must not take the process down: ast recursion is bounded
# by this limit and RecursionError becomes a per-file diagnostic.
RECURSION_LIMIT = 6000


# Kinds whose result also depends on other files (-r/-c includes of requirements files): their cache
# key adds the content of those files, and an unchanged stat of the file itself never answers.
READS_OTHER_FILES = frozenset({"requirements"})


def file_digest(data: bytes, rel: str, kind: str, path: Path | None) -> str:
    """The cache identity of one file's result: its content, plus every other file the result reads."""
    digest = content_hash(data)
    if kind in READS_OTHER_FILES:
        from .readers import manifests

        text, diag = readers.decode_text(data, rel)
        digest += "+" + (manifests.inputs_digest(text, rel, kind, path) if diag is None else "")
    return digest


def scan_bytes(data: bytes, rel: str, kind: str, engine: Engine, prefilter: bool = True, path: Path | None = None):
    """One file's content -> (findings, diagnostic or None). Never raises for bad input."""
    findings, diag, _ = scan_bytes_summary(data, rel, kind, engine, prefilter, path)
    return findings, diag


def scan_bytes_summary(data: bytes, rel: str, kind: str, engine: Engine, prefilter: bool = True,
                       path: Path | None = None):
    """As scan_bytes, plus the file's summary for the project-wide link step (or None)."""
    # A parse allocates ~10^5 short-lived nodes; the cyclic GC re-examining them while the
    # file is in hand costs ~20 % of scan CPU and frees nothing. It runs again between files.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        findings, diag, summary = _scan_bytes(data, rel, kind, engine, prefilter, path)
        return (*bound(findings, diag, rel), summary)
    finally:
        if gc_was_on:
            gc.enable()


def _scan_bytes(data: bytes, rel: str, kind: str, engine: Engine, prefilter: bool, path: Path | None):
    stage = "decode"
    try:
        text, diag = decode_python(data, rel) if kind == "python" else readers.decode_text(data, rel)
        if diag is not None:
            return [], diag, None
        ctx = readers.FileContext(text, rel, kind, engine, path, prefilter)
        stage = f"{kind} reader"
        result = readers.read(ctx)
        if result.diag is not None and result.diag.kind == "malformed-notebook":
            return [], result.diag, None
        stage = "post-processing"
        return postprocess.file_findings(ctx, result), result.diag, result.summary
    except RecursionError:
        return [], Diagnostic(rel, "too-complex", "nesting too deep to analyse"), None
    except Exception as e:  # one bad file must never stop the scan
        detail = traceback.format_exc(limit=-3) if os.environ.get("TRNREADY_DEBUG") else ""
        return [], Diagnostic(rel, "internal-error", f"{stage} failed: {type(e).__name__}: {e}"
                              + (f"\n{detail}" if detail else "")), None


def scan_file(path: Path, rel: str, kind: str, engine: Engine, config: Config):
    """One file on disk -> (findings, diagnostic or None)."""
    data, diag = read_bytes(path, rel, config.max_file_size)
    if diag is not None:
        return [], diag
    return scan_bytes(data, rel, kind, engine, config.prefilter, path)


def scan_text(text: str, filename: str, engine: Engine):
    """Scan one in-memory snippet as if it were a file of that name (used for catalogue examples)."""
    # the folder rule too, as discovery applies it: `requirements/segmentation.txt` is a requirements file
    kind = kind_in(Path(filename).parent.name, Path(filename).name)
    if kind is None:
        if "." in Path(filename).name:
            return [], None  # a file kind trnready does not read (kernels/add.cpp, notes.txt)
        kind = "python"
    findings, diag = scan_bytes(text.encode("utf-8"), filename, kind, engine, prefilter=True)
    return postprocess.report_findings(findings, engine, lambda strings: any(x in text for x in strings)), diag


def build_engine(config: Config, catalogue: Catalogue | None = None) -> Engine:
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    rules = select_rules(cat.rules, config.select, config.ignore)
    if config.severity:
        rules = override_severity(rules, config, cat)
    engine = Engine(cat, rules, suppressions=config.suppressions)
    engine.one_per_thing = config.one_per_thing  # read by postprocess.one_per_thing (off for `trnready fix`)
    return engine


def override_severity(rules, config: Config, cat: Catalogue):
    """Rules re-issued with the severities of the config file's `severity` table."""
    wanted = dict(config.severity)
    known = {r.id for r in cat.rules}
    for rid in wanted:
        if rid not in known:
            raise error_at(config.config_path, f"severity.{rid}", "unknown rule id")
    return [replace(r, severity=wanted[r.id]) if r.id in wanted else r for r in rules]


def _keep_file(sf, config: Config) -> bool:
    """--changed-since: only the files git reports as changed."""
    if config.only_files is None:
        return True
    try:
        return str(sf.path.resolve()) in config.only_files
    except OSError:
        return False


# -- workers ---------------------------------------------------------------
_WORKER: dict = {}


def _worker_init(engine: Engine, config: Config, parent: int | None = None) -> None:
    init_worker(parent)
    _WORKER["engine"], _WORKER["config"] = engine, config
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


def _worker_scan(job):
    path, rel, kind = job
    engine, config = _WORKER["engine"], _WORKER["config"]
    data, diag = read_bytes(path, rel, config.max_file_size)
    if diag is not None:
        return None, [], diag, (None, None)
    # The key is taken before the scan: if an included file changes meanwhile, the result is newer
    # than its key and the next run misses, never the reverse.
    digest = file_digest(data, rel, kind, path)
    findings, diag, summary = scan_bytes_summary(data, rel, kind, engine, config.prefilter, path)
    # Packed here, in parallel, rather than in the main process; the fields noted aside go along unpacked
    # (see compact).
    from .project.summary import compact as pack

    return digest, findings, diag, (_aside(summary), pack(summary))


def _aside(summary):
    """The small fields of a summary that project-wide steps read for every file (guards, the CUDA
    extensions it builds, the modules it imports): noted aside so those steps unpack no summary."""
    if not summary:
        return None
    fields = tuple(summary.get(k) or () for k in _ASIDE)
    return fields if any(fields) else None


_ASIDE = ("guards", "exts", "imported")


class _Progress:
    """A one-line counter on stderr for long scans, only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.enabled = enabled and total >= 200
        self.done = 0
        self.last = 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last > 0.1 or self.done == self.total:
            self.last = now
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            sys.stderr.write(f"\rscanning [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


class _Again(Exception):
    """A cached summary turned out malformed and its entry is gone: run the scan again."""


def scan(paths: list[str | Path], config: Config | None = None, catalogue: Catalogue | None = None,
         progress: bool = False, root: str | Path | None = None) -> Report:
    """Scan files and directories -> Report. `root` (default: the paths' common directory) is what
    finding paths and fingerprints are relative to."""
    config = config or Config()
    for _ in range(3):
        try:
            return _scan(paths, config, catalogue, progress, root)
        except _Again:
            continue
    # every try met another malformed entry (a cache being rewritten under us): no cache at all
    return _scan(paths, replace(config, cache=False), catalogue, progress, root)


def _scan(paths, config: Config, catalogue, progress: bool, root) -> Report:
    paths = [Path(p) for p in (paths or ["."])]
    engine = build_engine(config, catalogue)
    cat = engine.catalogue
    root = Path(root).absolute() if root is not None else common_root(paths)
    engine.project = project_facts(root)
    engine.link = True
    from .project.summary import api_names, value_needles

    value_needles(engine), api_names(engine)  # once, before any worker is forked
    report = Report(root=printable_path(str(root.absolute())), catalogue_version=cat.version,
                    catalogue_sha256=cat.sha256, plan_text=cat.plan_text, gate_scopes=config.gate_scopes,
                    gate_min_confidence=config.gate_min_confidence,
                    tool_version=__version__, rules=cat.by_id(),
                    started_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    from .readers import manifests

    manifests.INCLUDE_MAX_BYTES = config.max_file_size  # -r includes obey --max-file-size too
    cache = None
    try:
        disc = Discoverer(root, config.exclude, config.use_gitignore,
                          exclude_base=Path(config.base_dir) if config.base_dir else None)
        files = [sf for sf in disc.files(paths) if _keep_file(sf, config)]
        # `tests/` folders that hold no test (PGDPO_TORCH's model folders): their files are the program's, whatever
        # the folder is called (scope.py); set before any worker is forked
        hollow = scope.use_test_free_dirs(scope.test_free_dirs(sf.rel for sf in files))
        if config.cache:
            # Everything that changes a file's findings: rules (with their severities), suppression mode,
            # and what the post-processing steps do to them.
            # (and the code itself: a changed module of trnready starts a fresh cache)
            salt = "|".join([__version__, code_fingerprint(), cat.sha256,
                             ",".join(sorted(f"{r.id}:{r.severity}" for r in engine.rules)),
                             f"prefilter={config.prefilter}", f"suppressions={config.suppressions}",
                             f"pipeline={postprocess.VERSION}", f"max-file-size={config.max_file_size}",
                             f"one-per-thing={config.one_per_thing}",
                             "own=" + ",".join(sorted(engine.project.own_packages)),
                             "test-free=" + ",".join(sorted(hollow))])
            cache = ResultCache(Path(config.cache_dir) if config.cache_dir else default_cache_dir(), salt)
        results: list = [None] * len(files)
        summaries: list = [None] * len(files)  # per Python file, for the project-wide link step
        guard_blocks: dict = {}  # index -> the `guards` of its summary (project/flags.py)
        link_notes: dict = {}  # index -> (`exts`, `imported`) of its summary (project/link.py)
        noted = (guard_blocks, link_notes)
        hit_keys: dict = {}  # rel -> (index, cache key) of each result answered from the cache (see StaleSummary)
        misses: list[tuple[int, object, str | None]] = []
        # Strings whose mere presence anywhere silences a repository-level rule
        # (e.g. TORCH_NEURONX_NEFF_CACHE_DIR) are looked for while each file is in hand.
        single, filtered = repo_rules(engine)
        needles = {x: x.encode("utf-8") for group in (*single.values(), *filtered.values()) for x in group}
        found: set[str] = set()
        digests: list = [None] * len(files)  # the content hash each scanned result belongs to
        stat_notes: dict = {}  # i -> (stat key, content hash, mentions) to record once scanned
        # Phase 1: answer from the cache; read and hash only files whose stat changed
        # (content is dropped right away).
        for i, sf in enumerate(files):
            st_key = None
            if cache is not None and sf.kind not in READS_OTHER_FILES:
                try:
                    st = os.stat(sf.path)
                    st_key = cache.stat_key(sf.rel, st) if st.st_size <= config.max_file_size else None
                except OSError:
                    st_key = None
                known = cache.get_stat(st_key) if st_key else None
                if known is not None:
                    stat_hit_key = _result_key(cache, sf, known[0])
                    hit = cache.get(stat_hit_key)
                    if hit is not None:
                        results[i], summaries[i] = hit[:2], hit[2]
                        _note(noted, i, hit[3])
                        hit_keys[sf.rel] = (i, stat_hit_key)
                        digests[i] = known[0]
                        found.update(known[1] & needles.keys())
                        continue
            data, diag = read_bytes(sf.path, sf.rel, config.max_file_size)
            if diag is not None:
                results[i] = ([], diag)
                continue
            mentions = {x for x, needle in needles.items() if needle in data}
            found.update(mentions)
            digest = file_digest(data, sf.rel, sf.kind, sf.path) if cache else content_hash(data)
            key = _result_key(cache, sf, digest) if cache else None
            hit = cache.get(key) if cache else None
            # As git does against "racy" files: a file modified in the last two seconds could change
            # again within the timestamp's granularity at the same size, so its stat is not trusted.
            if st_key and time.time_ns() - st.st_mtime_ns > 2_000_000_000:
                stat_notes[i] = (st_key, digest, mentions)
            if hit is not None:
                results[i], summaries[i] = hit[:2], hit[2]
                _note(noted, i, hit[3])
                hit_keys[sf.rel] = (i, key)
                digests[i] = digest
            else:
                misses.append((i, sf, key))
        # Phase 2: scan the misses, in-process or in a worker pool.
        bar = _Progress(len(misses), progress and sys.stderr.isatty())
        jobs = config.jobs or os.cpu_count() or 1
        try:
            if jobs > 1 and len(misses) >= POOL_MIN_FILES and _can_fork():
                _scan_pool(misses, results, digests, summaries, engine, config, cache, jobs, bar, noted)
            else:
                _scan_inline(misses, results, digests, summaries, engine, config, cache, bar, noted)
        finally:
            bar.close()
        for i, (st_key, digest, mentions) in stat_notes.items():
            # Only when the result on record is for the content phase 1 saw (the file may have
            # changed in between) and is worth keeping.
            res = results[i]
            if digests[i] == digest and not (res[1] is not None and res[1].kind == "internal-error"):
                cache.put_stat(st_key, digest, mentions)
        for sf, res in zip(files, results):
            findings, diag = res
            report.findings.extend(postprocess.per_file_ignores(findings, root, config))
            if diag is not None:
                report.diagnostics.append(diag)
                if diag.kind not in PARTIAL_KINDS:  # partly scanned files count as scanned
                    continue
            report.files_scanned += 1
            report.files_by_kind[sf.kind] = report.files_by_kind.get(sf.kind, 0) + 1
        report.diagnostics.extend(disc.diagnostics)
        # Across modules: values, wrappers and re-exports the per-file pass could not see.
        from .project.report import drop_answered_unused, drop_restated, drop_spanning_calls, fold_field_reads, \
            fold_values_into_calls, link_findings, \
            note_defaults

        from .project.summary import StaleSummary

        # What the per-file pass produced (findings, packed summaries) lives to the end of the scan, and every full
        # collection of the cyclic GC during the project steps, which allocate many short-lived objects (decoded
        # summaries), traversed all of it again: 0.3 s of CPU on diffusers/src. Frozen (moved out of the collected
        # generations, `gc.freeze`) for the steps, unless someone else froze objects already.
        if cache is not None:
            cache.scanning(str(root), files, digests)
        frozen = gc.isenabled() and gc.get_freeze_count() == 0
        if frozen:
            gc.freeze()
        try:
            exts = {files[i].rel: v for i, v in link_notes.items()}
            linked, notes, cpu_less = link_findings(files, summaries, engine, cache, config, scan_bytes, digests, exts)
            linked = postprocess.per_file_ignores(linked, root, config)
            if cpu_less:
                from .project.cpu_less_sources import unguard_cpu_less_builds

                report.findings = unguard_cpu_less_builds(report.findings, cpu_less)
            report.findings, linked = fold_field_reads(report.findings, linked)
            linked = drop_spanning_calls(report.findings, linked)
            report.findings, linked = fold_values_into_calls(report.findings, linked)
            report.findings = drop_restated(drop_answered_unused(note_defaults(report.findings, notes), linked),
                                            linked) + linked
            # A private helper another file names: its callers there were not judged (guarded-helper).
            from .project.imported_helpers import unguard_imported_helpers

            report.findings = unguard_imported_helpers(report.findings, files,
                                                       _text_by_rel(files, config.max_file_size))
            # What every caller in the project passes: a mask always None, a default always overridden.
            from .project.callers import guard_by_callers

            report.findings = guard_by_callers(report.findings, files, summaries, engine, cache, config, digests)
            # Attention processors the library calls with the mask of a model call: none in the project passes one.
            from .project.processor_masks import guard_processor_masks
            from .project.step_memo import remembered

            report.findings = remembered(
                "processor-masks", report.findings, files, cache, digests,
                lambda fs, read: guard_processor_masks(fs, files, read), _python_reader(config.max_file_size),
                ("python", "notebook"))
            # A keyword handed to a project function that assigns that parameter before reading it.
            from .project.overwritten import guard_overwritten_keywords

            report.findings = guard_overwritten_keywords(report.findings, files, summaries,
                                                         _python_reader(config.max_file_size))
            # Autocast switched off (`autocast(enabled=False)`) in a project that switches it on nowhere: a no-op.
            from .project.autocast_off import guard_autocast_never_enabled

            report.findings = guard_autocast_never_enabled(report.findings, files,
                                                           _python_reader(config.max_file_size), config.max_file_size)
            # Blocks guarded by a never-on-Neuron flag imported from another module (`if _SUPPORTS_FLEX:`).
            from .project.flags import guard_imported_flags

            report.findings = guard_imported_flags(report.findings, files, summaries, guard_blocks, cache,
                                                   digests)
            # A test command whose GPU list a project helper fills, empty without CUDA: a CPU run on Neuron.
            from .project.empty_device_helpers import guard_empty_device_helpers

            report.findings = guard_empty_device_helpers(report.findings, files,
                                                         _text_by_rel(files, config.max_file_size), _values_of(engine))
            # Tests that never run without the project's CUDA build (its extensions, CUDA-only packages).
            from .project.cuda_build import guard_cuda_build_tests

            report.findings = guard_cuda_build_tests(report.findings, files, exts, _values_of(engine),
                                                     _text_by_rel(files, config.max_file_size), cache, digests)
            # Copies of other projects nested in a package, recognised by their own absolute imports.
            from .project.vendored import guard_copied_packages

            report.findings = guard_copied_packages(report.findings, files, summaries, cache, digests)
            # Folders of another stack's version of the model (PaddlePaddle, TensorFlow, ONNX Runtime) in the tree.
            from .project.foreign_stacks import guard_foreign_subprojects

            report.findings = guard_foreign_subprojects(report.findings, files, summaries, _values_of(engine),
                                                        _text_by_rel(files, config.max_file_size, any_kind=True))
            # Copies under third_party/ (and the other vendored folders) the project installs and imports: its code.
            from .project.installed_copies import imported_copies

            engine.imported_copies = imported_copies(report.findings, files, summaries, _values_of(engine), cache,
                                                     digests)
            # Copies of other projects nested in the tree that the repository never runs: their CI, unused
            # sub-projects, the packages of a copy that nothing it runs imports (project/nested.py).
            from .project.nested import guard_nested

            report.findings = guard_nested(report.findings, files, root, config.max_file_size, _values_of(engine))
            # Module-level functions and classes no scanned file names outside their own lines.
            from .project.unreferenced import guard_unreferenced

            report.findings = guard_unreferenced(report.findings, files, root, _values_of(engine),
                                                 config.max_file_size, cache, digests)
            # Data-dependent shapes in code no training or model step calls (an exporter, a metric, a runner).
            from .project.step_reach import guard_off_step
            from .project.unreferenced import _reader as _any_reader

            report.findings = remembered(
                "off-step", report.findings, files, cache, digests,
                lambda fs: guard_off_step(fs, files, _values_of(engine), _python_reader(config.max_file_size), cache,
                                          _any_reader(config.max_file_size)))
            # Methods of module-level classes that no scanned file names outside their own lines.
            from .project.uncalled_methods import guard_uncalled_methods

            report.findings = guard_uncalled_methods(report.findings, files, root, _values_of(engine),
                                                     _text_by_rel(files, config.max_file_size),
                                                     _any_reader(config.max_file_size))
            # Modules whose top-level import of the project's own code names a module that is not there.
            from .project.broken_imports import guard_broken_imports

            report.findings = guard_broken_imports(report.findings, root, _values_of(engine),
                                                   _text_by_rel(files, config.max_file_size))
            # Test files the project's own pytest configuration never collects (`addopts = --ignore=tests/old`).
            from .project.uncollected_tests import guard_uncollected_tests

            report.findings = guard_uncollected_tests(report.findings, files, root,
                                                      _text_by_rel(files, config.max_file_size))
            # Modules of a package that only define things and that no file imports.
            from .project.unimported import guard_unimported

            report.findings = guard_unimported(report.findings, files, root, _values_of(engine),
                                               config.max_file_size, cache, digests, summaries)
            # A library module's own `__main__` smoke test that no command of the project runs.
            from .project.self_tests import guard_module_self_tests

            report.findings = guard_module_self_tests(report.findings, files, root, _values_of(engine),
                                                      _text_by_rel(files, config.max_file_size))
            # A shell launcher whose every named Python program is missing from the repository: it cannot run.
            from .project.stale_launchers import guard_stale_launchers

            report.findings = guard_stale_launchers(report.findings, files, root,
                                                    _text_by_rel(files, config.max_file_size, any_kind=True))
            # A checkpoint the repository ships, loaded by a literal path, whose tensors were saved on the CPU.
            from .project.shipped_checkpoints import guard_cpu_checkpoints

            report.findings = guard_cpu_checkpoints(
                report.findings, root, _text_by_rel(files, config.max_file_size),
                frozenset(_values_of(engine).get("cpu-saved-checkpoint-rules", ())))
            # A dataset or statistics file the project writes only from programs that place nothing on a device.
            from .project.cpu_written_files import guard_cpu_written_files

            report.findings = guard_cpu_written_files(
                report.findings, files, _text_by_rel(files, config.max_file_size),
                frozenset(_values_of(engine).get("cpu-saved-checkpoint-rules", ())))
            if cache is not None:
                cache.done_with_facts()  # the last step reading them
            # Code run only for CUDA tensors beside a PyTorch path (StyleGAN's custom ops): its extension builds and
            # kernels are a performance item, its other CUDA calls never run on Neuron (project/cuda_only.py).
            from .project.cuda_only import cuda_only_paths

            report.findings = cuda_only_paths(report.findings, files, engine, _python_reader(config.max_file_size),
                                              root, cache, digests)
            # Modules imported only under a CUDA check, and the CUDA files only they build (project/gated_imports.py).
            # Kept under the files' digests and the findings handed in (step_memo.remembered): the step splits every
            # Python file into its words and parses the files naming a module, about a third of a warm re-scan's CPU
            # on the speed corpus when it ran again on every scan.
            from .project.gated_imports import guard_gated_modules
            from .project.step_memo import remembered

            report.findings = remembered(
                "gated-imports", report.findings, files, cache, digests,
                lambda fs: guard_gated_modules(fs, files, _values_of(engine), _python_reader(config.max_file_size)))
            # Imports of modules named like compiled extensions (TRN305) the repository defines or builds after all.
            from .project.unbuilt_extensions import drop_built_extensions

            report.findings = drop_built_extensions(report.findings, files,
                                                    _text_by_rel(files, config.max_file_size, any_kind=True))
            # CUDA files only the CUDA arm of a build script compiles, a C++ build otherwise (iRPE's rpe_ops).
            from .project.cuda_gated_sources import lower_gated_sources

            report.findings = lower_gated_sources(report.findings, files, engine,
                                                  _python_reader(config.max_file_size))
            # An extension whose wrappers run its CPU kernel on a host copy off CUDA (torchsparse's ops).
            from .project.cpu_kernel_fallback import cpu_kernel_fallbacks

            report.findings = cpu_kernel_fallbacks(report.findings, files, _python_reader(config.max_file_size))
            # Training-config settings whose keys no Python of the project names (and no library reads).
            from .project.config_keys import guard_unread_settings

            report.findings = guard_unread_settings(report.findings, files, summaries,
                                                    _python_reader(config.max_file_size), _values_of(engine))
            # A GPU count in a training config that only sizes a device call of the code (project/count_settings.py).
            from .project.count_settings import fold_count_settings

            report.findings = fold_count_settings(
                report.findings, frozenset(_values_of(engine).get("count-setting-fold-rules", ())),
                frozenset(_values_of(engine).get("count-setting-categories", ())),
                _text_by_rel(files, config.max_file_size, any_kind=True),
                frozenset(_values_of(engine).get("count-setting-place-only-rules", ())))
            # Code under a config switch that none of the project's shipped configs sets.
            from .project.config_unset import fold_config_into_code, guard_unset_switches

            report.findings = guard_unset_switches(report.findings, files, summaries,
                                                   _python_reader(config.max_file_size))
            report.findings = fold_config_into_code(report.findings, files, summaries)
            # A GPU count of 1 whose keys the project's code never tests against zero: one process, no GPU request.
            from .project.single_count import guard_single_counts

            report.findings = guard_single_counts(report.findings, files, _values_of(engine),
                                                  _python_reader(config.max_file_size))
            # float64 in the tests of a project with code of its own: reference values of a test (session 22 policy).
            from .project.test_reference_dtypes import guard_test_reference_dtypes

            report.findings = guard_test_reference_dtypes(report.findings, files, _values_of(engine))
            # `--fp16` in a launcher of the project's own program that does not use it for CUDA mixed precision.
            from .project.launcher_fp16 import judge_launcher_fp16

            report.findings = judge_launcher_fp16(report.findings, files, summaries, engine,
                                                  _python_reader(config.max_file_size), cache, digests)
            # Training-config keys set true that the project reads into a condition guarding a finding: places of
            # that finding (a setting whose line silences the rule stays apart, suppressed).
            from .project.config_switches import fold_switches
            from .project.report import _lines

            report.findings, switched = fold_switches(report.findings, files, summaries, engine, cache, digests,
                                                      lambda sf: _lines(sf, config))
            switched = postprocess.per_file_ignores(switched, root, config)
            report.findings = drop_answered_unused(report.findings, switched) + switched
            # A variable of the project's own that a child copies into CUDA_VISIBLE_DEVICES: where it is set.
            from .project.relayed_env import relayed_findings

            relayed = postprocess.per_file_ignores(
                relayed_findings(report.findings, files, engine, _python_reader(config.max_file_size),
                                 lambda sf: _lines(sf, config)), root, config)
            report.findings = drop_answered_unused(report.findings, relayed) + relayed
            # A package module importing its sibling without a dot (`from resnet import *` in models/__init__.py):
            # Python 2 only (project/implicit_relative.py).
            from .project.implicit_relative import implicit_relative_imports

            report.findings, implicit = implicit_relative_imports(
                report.findings, files, engine, _python_reader(config.max_file_size), summaries)
            implicit = postprocess.per_file_ignores(implicit, root, config)
            report.findings = drop_answered_unused(report.findings, implicit) + implicit
            # A helper's finding that is the caller's doing (`.cuda()` on its parameter, a body that only sets
            # NCCL variables): its calls in the project are places of it (project/caller_places.py).
            from .project.caller_places import caller_places

            report.findings = remembered(
                "caller-places", report.findings, files, cache, digests,
                lambda fs, text_of: caller_places(fs, files, text_of, _values_of(engine)),
                _python_reader(config.max_file_size))
            # A linked finding at a call the helper's own finding already lists (another rule saying the same
            # thing through the helper's default) is that finding's place.
            from .project.caller_places import listed_callers

            report.findings = listed_callers(report.findings)
            # A subclass in another module handing its own mask to the base class's attention method: where it
            # enters is a place of the attention finding (project/inherited_masks.py).
            from .project.caller_places import mask_places

            report.findings = remembered(
                "mask-places", report.findings, files, cache, digests,
                lambda fs, text_of: mask_places(fs, files, text_of, _values_of(engine)),
                _python_reader(config.max_file_size))
            # The process-group call reading a backend key a config sets to nccl: a place of that setting's finding
            # (after caller-places, whose option-default reads it leaves alone).
            from .project.backend_reads import backend_reads

            report.findings = backend_reads(report.findings, files, _python_reader(config.max_file_size))
            # A call's linked finding on a line of a per-file finding that folded the same value on several lines.
            from .project.report import drop_linked_on_folded_lines

            report.findings = drop_linked_on_folded_lines(report.findings)
        except StaleSummary as e:
            # A cached summary of the wrong shape, found when first unpacked: as a bad entry is a miss
            # anywhere else, its entry is dropped (with this run's pending writes) and the scan starts again.
            if cache is None or e.rel not in hit_keys:
                raise
            cache.forget([key for i, key in hit_keys.values() if _malformed(files[i].rel, summaries[i])])
            raise _Again from None
        finally:
            from .project.summary import forget_checked

            forget_checked()
            if frozen:
                gc.unfreeze()
        # Repository-level rules (e.g. torch.compile used but no shared NEFF cache configured anywhere).
        in_config_files = mentioned_in_files([], config.max_file_size, repo_files(root, paths, config))

        def mentioned(strings) -> bool:
            return any(x in found for x in strings) or in_config_files(strings)

        report.findings = postprocess.report_findings(report.findings, engine, mentioned, root, config)
    finally:
        if cache is not None:
            cache.close()
        sys.setrecursionlimit(old_limit)
    if not config.show_guarded:  # code that is not part of the port: listed only on request
        report.guarded_hidden = sum(1 for f in report.findings if f.guarded and not f.suppressed)
        report.findings = [f for f in report.findings if not f.guarded]
    report.findings.sort(key=lambda f: f.sort_key())
    report.diagnostics.sort(key=lambda d: (d.path, d.kind))
    return report


def _values_of(engine) -> dict:
    return getattr(getattr(engine, "catalogue", None), "context_values", None) or {}


def _text_by_rel(files, max_bytes: int, any_kind: bool = False):
    """rel -> the scanned Python file's text (read again, as `_python_reader` reads it), or None; with `any_kind`,
    the text of any scanned file (a config, a script)."""
    if any_kind:
        from .project.unreferenced import _reader

        by_rel = {sf.rel: sf for sf in files}
        read = _reader(max_bytes)
    else:
        by_rel = {sf.rel: sf for sf in files if sf.kind == "python"}
        read = _python_reader(max_bytes)

    def text_of(rel: str) -> str | None:
        sf = by_rel.get(rel)
        return read(sf) if sf is not None else None
    return text_of


def _python_reader(max_bytes: int):
    """A scanned Python file's text, read again the way the scan read it (regular files only, within the size
    limit, decoded as Python decodes source), or None."""
    from .read import decode_python, read_bytes

    def read_text(sf) -> str | None:
        data, _ = read_bytes(sf.path, sf.rel, max_bytes)
        return decode_python(data, sf.rel)[0] if data is not None else None
    return read_text


def _malformed(rel: str, packed) -> bool:
    from .project.summary import StaleSummary, unpack

    try:
        if packed is not None:
            unpack(rel, packed)
    except StaleSummary:
        return True
    return False


def compact(summary, notes: tuple | None = None, i: int = 0):
    """The summary as kept until the link step; its `guards` (blocks under imported flags), `exts` and
    `imported` noted aside in `notes` (guard blocks, link notes), so the steps that read them for every file
    need not unpack every summary."""
    from .project.summary import compact as pack

    if notes is not None:
        _note(notes, i, _aside(summary))
    return pack(summary)


def _note(notes: tuple, i: int, aside) -> None:
    if aside:
        guards, exts, imported = aside
        if guards:
            notes[0][i] = guards
        if exts or imported:
            # `imported` (every import of a project module, at any depth) is read only in a project that
            # builds or defines kernels, and as lists it was the largest thing held per file: kept packed
            notes[1][i] = (exts, pack_list(imported) if imported else ())


def _store(cache, key, findings, diag, summary=None, packed=None, aside=None) -> None:
    # Unexpected internal errors are not cached: the next run should try again.
    if cache is not None and key is not None and not (diag is not None and diag.kind == "internal-error"):
        cache.put(key, findings, diag, summary, packed, aside)


def _scan_inline(misses, results, digests, summaries, engine, config, cache, bar, notes=None) -> None:
    for i, sf, key in misses:
        data, diag = read_bytes(sf.path, sf.rel, config.max_file_size)
        if diag is not None:
            results[i] = ([], diag)
        else:
            digests[i] = file_digest(data, sf.rel, sf.kind, sf.path)  # the content actually scanned
            findings, diag, summary = scan_bytes_summary(data, sf.rel, sf.kind, engine, config.prefilter, sf.path)
            results[i], summaries[i] = (findings, diag), compact(summary, notes, i)
            if key is not None and cache is not None:
                key = _result_key(cache, sf, digests[i])
            _store(cache, key, findings, diag, summary, summaries[i], _aside(summary))
        bar.step()


def _result_key(cache, sf, digest: str) -> str:
    """The cache key of a file's findings: its content, plus the files its reader also reads (a CI
    workflow's findings depend on the other workflows of its folder)."""
    from .readers.deps import dependency_signature

    return cache.key(sf.rel, sf.kind, digest + dependency_signature(sf.path, sf.rel))


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _scan_pool(misses, results, digests, summaries, engine, config, cache, jobs, bar, notes) -> None:
    # Imported here: a warm re-scan answered from the cache never starts a pool.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("fork")
    todo = list(misses)
    chunk = max(1, min(32, len(todo) // (jobs * 8) or 1))
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                               initargs=(engine, config, os.getpid()))
    try:
        stream = pool.map(_worker_scan, [(sf.path, sf.rel, sf.kind) for _, sf, _ in todo], chunksize=chunk)
        for n, (digest, findings, diag, (aside, packed)) in enumerate(stream):
            i, sf, _ = todo[n]
            results[i], summaries[i] = (findings, diag), packed
            _note(notes, i, aside)
            digests[i] = digest
            if digest is not None and cache is not None:
                _store(cache, _result_key(cache, sf, digest), findings, diag, None, packed, aside)
            bar.step()
        pool.shutdown(wait=True)
    except KeyboardInterrupt:
        stop_pool(pool)
        raise
    except BrokenProcessPool:
        pool.shutdown(wait=False, cancel_futures=True)
        # A worker died (e.g. the C stack overflowed on pathological input):
        # finish the remaining files in-process, where each failure is isolated.
        rest = [m for m in todo if results[m[0]] is None]
        _scan_inline(rest, results, digests, summaries, engine, config, cache, bar, notes)
