"""Which findings become edits: scan, keep the active fixable findings, hand each file to its editor."""
from __future__ import annotations

import os
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import Callable, Optional

from ..api import RECURSION_LIMIT, _can_fork, build_engine, scan
from ..catalogue import Catalogue, load_catalogue
from ..config import Config
from ..filekinds import BY_KIND, kind_of
from ..match import Engine
from ..model import Finding
from .model import FileFix, FixPlan
from .notebook import fix_notebook
from .python import fix_python
from .write import refuse
from ..workers import init_worker, stop_pool

STYLES = ("neuron", "accelerator")
# file kind -> editor(path, rel, findings, engine, config, style) -> FileFix
EDITORS: dict[str, Callable] = {"python": fix_python, "notebook": fix_notebook}


# Below this many files a worker pool costs more to start than it saves.
POOL_MIN_FILES = 8

Progress = Callable[[int, int], None]  # (files done, files in all)


def plan(paths, config: Config | None = None, style: str = "neuron", unsafe: bool = False,
         catalogue: Catalogue | None = None, progress: Optional[Progress] = None,
         scan_progress: bool = False) -> FixPlan:
    """Scan, then compute every rewrite and its diff. Writes nothing.

    Only files with a fixable finding are read again and edited, in worker processes
    when there are many. `progress` is called after each edited file; `scan_progress`
    shows the scanner's own progress bar (on a terminal)."""
    if style not in STYLES:
        raise ValueError(f"unknown device style {style!r}")
    config = config or Config()
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    engine = build_engine(config, cat)
    # Guarded findings are rewritten too: rewriting `if torch.cuda.is_available():` to torch.accelerator
    # makes its body run on Neuron, so `torch.cuda.synchronize()` inside must change with it.
    # Every place gets its own edit, so repeats are not folded into one finding per thing.
    report = scan(paths, dc_replace(config, show_guarded=True, one_per_thing=False), cat, progress=scan_progress)
    result = FixPlan(report)
    wanted: dict[str, list[Finding]] = {}
    for f in report.findings:
        if f.suppressed or not f.fixable:
            continue
        if f.confidence != "high" and not unsafe:
            result.unsafe_skipped += 1
            continue
        wanted.setdefault(f.path, []).append(f)
    root = Path(report.root)
    roots = tuple(os.path.realpath(p) for p in (paths or ["."]))
    jobs = []
    for rel in sorted(wanted):
        findings = wanted[rel]
        path = root / rel
        kind = kind_of(path.name) or "python"
        editor = BY_KIND[kind].editor if kind in BY_KIND else None
        if editor not in EDITORS or (kind != "notebook" and any(f.cell is not None for f in findings)):
            result.unsupported.append((rel, f"fix cannot edit {kind} files yet"))
            continue
        why = refuse(path, roots)
        if why:
            result.files.append(FileFix(rel=rel, path=path, error=why, roots=roots))
            continue
        jobs.append((editor, path, rel, findings))
    workers = config.jobs or os.cpu_count() or 1
    if workers > 1 and len(jobs) >= POOL_MIN_FILES and _can_fork():
        edited = _edit_in_pool(jobs, engine, config, style, min(workers, len(jobs)), progress)
    else:
        edited = []
        for n, job in enumerate(jobs, 1):
            edited.append(_edit(job, engine, config, style))
            if progress is not None:
                progress(n, len(jobs))
    for ff in edited:
        ff.roots = roots
    result.files = sorted(result.files + edited, key=lambda ff: ff.rel)
    return result


def _edit(job, engine: Engine, config: Config, style: str) -> FileFix:
    kind, path, rel, findings = job
    try:
        return EDITORS[kind](path, rel, findings, engine, config, style)
    except RecursionError:
        return FileFix(rel=rel, path=path, error="nesting too deep to rewrite; left unchanged")
    except Exception as e:  # one file's failure is that file's diagnostic; the run goes on
        return FileFix(rel=rel, path=path, error=f"internal error while rewriting ({type(e).__name__}: {e}); "
                                                 "left unchanged")


_WORKER: dict = {}


def _worker_init(engine: Engine, config: Config, style: str, parent: int | None = None) -> None:
    import sys

    init_worker(parent)
    _WORKER.update(engine=engine, config=config, style=style)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


def _worker_edit(job) -> FileFix:
    return _edit(job, _WORKER["engine"], _WORKER["config"], _WORKER["style"])


def _edit_in_pool(jobs, engine, config, style, workers, progress) -> list:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    out: list = []
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_init, initargs=(engine, config, style, os.getpid()))
    try:
        for ff in pool.map(_worker_edit, jobs, chunksize=max(1, min(8, len(jobs) // (workers * 4)))):
            out.append(ff)
            if progress is not None:
                progress(len(out), len(jobs))
        pool.shutdown(wait=True)
    except KeyboardInterrupt:
        stop_pool(pool)
        raise
    except BrokenProcessPool:  # a worker died (e.g. a C stack overflow): finish in-process
        pool.shutdown(wait=False, cancel_futures=True)
        for job in jobs[len(out):]:
            out.append(_edit(job, engine, config, style))
            if progress is not None:
                progress(len(out), len(jobs))
    return out
