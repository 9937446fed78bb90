"""Speed benchmark: trnready against a bare `ast.parse` pass on the same corpus.

    python -m bench speed --corpus PATH [--repeat 3] [--jobs N]

Every figure is a whole-process wall time (median of --repeat runs) measured
in this run, so ratios compare like with like on the same machine and disk
cache. Peak RSS is the largest resident set of the measured process itself
(worker processes are reported separately where they exist).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARSE_ONLY = r"""
import ast, sys
for p in sys.argv[1:]:
    with open(p, "rb") as fh:
        try:
            ast.parse(fh.read())
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
"""


def _run(cmd: list[str], env: dict | None = None) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system, with the workers it waited for) of one
    child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd[:6])}... {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


CPU: dict = {}  # row label -> median CPU seconds (steadier than wall time on a shared machine)


def _median(cmd, repeat, env=None, before=None, label=None):
    walls, rss, cpu = [], [], []
    for _ in range(repeat):
        if before:
            before()
        w, r, c = _run(cmd, env)
        walls.append(w)
        rss.append(r)
        cpu.append(c)
    if label:
        CPU[label] = statistics.median(cpu)
    return statistics.median(walls), max(rss)


def _ensure_bytecode(py: str) -> str:
    """An installed trnready runs from compiled bytecode (pip compiles it). A source checkout run with
    PYTHONDONTWRITEBYTECODE=1 (some CI and sandbox images) would compile every module again in every
    measured process, about 0.3 s that no user pays, so the package is compiled once here first."""
    import importlib.util

    spec = importlib.util.find_spec("trnready")
    if spec is None or not spec.submodule_search_locations:
        return "not found"
    where = list(spec.submodule_search_locations)[0]
    done = subprocess.run([py, "-m", "compileall", "-q", where], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0
    return f"compiled in {where}" if done else f"could not be compiled in {where} (runs include compiling it)"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench speed")
    ap.add_argument("--corpus", required=True, help="directory of Python files (e.g. diffusers/src)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="trnready --jobs (0: one per CPU)")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    files = sorted(str(p) for p in corpus.rglob("*.py") if p.is_file())
    if not files:
        print(f"no .py files under {corpus}", file=sys.stderr)
        return 2
    lines = 0
    for f in files:
        with open(f, "rb") as fh:
            lines += fh.read().count(b"\n")
    py = sys.executable
    cache = Path(tempfile.mkdtemp(prefix="trnready-bench-cache-"))
    env = dict(os.environ, TRNREADY_CACHE_DIR=str(cache))
    env.pop("TRNREADY_DEBUG", None)
    scan = [py, "-m", "trnready", "scan", "--format", "json", "--output", os.devnull, "--jobs", str(args.jobs)]
    bytecode = _ensure_bytecode(py)

    def clear_cache():
        shutil.rmtree(cache, ignore_errors=True)

    rows = []
    t_parse, r_parse = _median([py, "-c", PARSE_ONLY, *files], args.repeat, label="parse")
    rows.append(("ast.parse, one process", t_parse, r_parse, len(files)))
    t_cold, r_cold = _median(scan + [str(corpus)], args.repeat, env, before=clear_cache, label="cold")
    rows.append((f"trnready cold (--jobs {args.jobs or os.cpu_count()})", t_cold, r_cold, len(files)))
    t_cold1, r_cold1 = _median(scan[:-1] + ["1", str(corpus)], args.repeat, env, before=clear_cache, label="cold1")
    rows.append(("trnready cold (--jobs 1)", t_cold1, r_cold1, len(files)))
    t_nopf, r_nopf = _median(scan + ["--no-prefilter", "--no-cache", str(corpus)], args.repeat, env)
    rows.append(("trnready cold, no prefilter", t_nopf, r_nopf, len(files)))
    _run(scan + [str(corpus)], env)  # fill the cache
    t_warm, r_warm = _median(scan + [str(corpus)], args.repeat, env, label="warm")
    rows.append(("trnready warm (nothing changed)", t_warm, r_warm, len(files)))
    victim = Path(files[len(files) // 2])
    original = victim.read_bytes()
    counter = [0]

    def touch_one():
        counter[0] += 1
        victim.write_bytes(original + f"\n# trnready bench edit {counter[0]}\n".encode())

    try:
        t_touch, r_touch = _median(scan + [str(corpus)], args.repeat, env, before=touch_one, label="touch")
    finally:
        victim.write_bytes(original)
    rows.append(("trnready warm, one file edited", t_touch, r_touch, len(files)))
    # Linear growth: the first quarter / half of the files (cold, by path list).
    for frac, label in ((4, "1/4"), (2, "1/2")):
        subset = files[: max(1, len(files) // frac)]
        t, r = _median(scan + subset, args.repeat, env, before=clear_cache)
        rows.append((f"trnready cold, {label} of the files", t, r, len(subset)))
    if shutil.which("torchfix"):
        t, r = _median(["torchfix", "--select", "ALL", str(corpus)], 1)
        rows.append(("TorchFix --select ALL", t, r, len(files)))
    clear_cache()

    print(f"corpus: {corpus}  files: {len(files):,}  lines: {lines:,}  cpus: {os.cpu_count()}  "
          f"repeat: {args.repeat} (median)")
    print(f"trnready bytecode: {bytecode}")
    print(f"{'run':<38} {'files':>6} {'wall s':>8} {'files/s':>9} {'peak RSS MiB':>13} {'x ast.parse':>12}")
    for name, wall, rss, n in rows:
        print(f"{name:<38} {n:>6} {wall:>8.2f} {n / wall:>9.0f} {rss / 1024:>13.1f} {wall / t_parse:>12.2f}")
    print(f"\ncold / ast.parse = {t_cold / t_parse:.2f} (target <= 1.5); "
          f"warm / cold = {t_warm / t_cold:.1%} (target <= 10%); "
          f"one edit / cold = {t_touch / t_cold:.1%}")
    print(f"CPU seconds (medians): ast.parse {CPU['parse']:.2f}; cold --jobs {args.jobs or os.cpu_count()} "
          f"{CPU['cold']:.2f} ({CPU['cold'] / CPU['parse']:.2f}x); cold --jobs 1 {CPU['cold1']:.2f} "
          f"({CPU['cold1'] / CPU['parse']:.2f}x); warm {CPU['warm']:.2f} ({CPU['warm'] / CPU['cold']:.1%} of cold); "
          f"one edit {CPU['touch']:.2f} ({CPU['touch'] / CPU['cold']:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
