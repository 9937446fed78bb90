"""A/B speed of two trnready source trees on one corpus, runs interleaved so machine load hits both alike.

    python -m bench ab --base DIR --head DIR --corpus PATH [--rounds 5] [--jobs 1]

A source tree is a directory holding trnready/ and blockers.toml (e.g. `git archive REV | tar -x -C DIR`).
Each round runs, for base then head: a cold scan (empty result cache) and a warm re-scan (nothing changed).
Prints the median wall and CPU time of each and the head/base ratios (CPU time is the steadier figure
on a loaded machine), the peak resident memory of each, and the CPU time of a one-process `ast.parse`
pass over the same files, run in the same rounds, as the yardstick of the cold scan.
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

from bench.speed import PARSE_ONLY


def _run(cmd: list[str], env: dict, cwd: str | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, the scan and the workers it waited for) and peak RSS (KiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"scan failed: {proc.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench ab")
    ap.add_argument("--base", required=True)
    ap.add_argument("--head", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    times: dict = {(v, k): [] for v in ("base", "head") for k in ("cold", "warm")}
    corpus = str(Path(args.corpus).resolve())
    files = sorted(str(p) for p in Path(corpus).rglob("*.py") if p.is_file())
    parse: list = []
    caches = {v: Path(tempfile.mkdtemp(prefix=f"trnready-ab-{v}-")) for v in ("base", "head")}
    for v in ("base", "head"):  # as installed: from bytecode (see bench/speed.py _ensure_bytecode)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(getattr(args, v)) / "trnready")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(args.rounds):
            parse.append(_run([sys.executable, "-c", PARSE_ONLY, *files], dict(os.environ)))
            for v in ("base", "head"):
                tree = str(Path(getattr(args, v)).resolve())
                env = dict(os.environ, PYTHONPATH=tree, TRNREADY_CACHE_DIR=str(caches[v]))
                env.pop("TRNREADY_DEBUG", None)
                cmd = [sys.executable, "-m", "trnready", "scan", "--format", "json", "--output", os.devnull,
                       "--no-config", "--jobs", str(args.jobs), corpus]
                shutil.rmtree(caches[v], ignore_errors=True)
                # Run from the tree itself: `python -m` puts the working directory ahead of PYTHONPATH, so
                # run from elsewhere (say, from one of the two trees) both would import that one.
                times[(v, "cold")].append(_run(cmd, env, tree))
                times[(v, "warm")].append(_run(cmd, env, tree))
    finally:
        for c in caches.values():
            shutil.rmtree(c, ignore_errors=True)
    print(f"corpus: {args.corpus}  rounds: {args.rounds}  --jobs {args.jobs}  (medians, seconds)")
    print(f"{'run':<12} {'base':>8} {'head':>8} {'head/base':>10}")
    for k in ("cold", "warm"):
        for i, what in ((0, "wall"), (1, "cpu")):
            b = statistics.median(t[i] for t in times[("base", k)])
            h = statistics.median(t[i] for t in times[("head", k)])
            print(f"{k + ' ' + what:<12} {b:>8.2f} {h:>8.2f} {h / b:>10.3f}")
        b = statistics.median(t[2] for t in times[("base", k)]) / 1024
        h = statistics.median(t[2] for t in times[("head", k)]) / 1024
        print(f"{k + ' MiB':<12} {b:>8.1f} {h:>8.1f} {h / b:>10.3f}")
    p = statistics.median(t[1] for t in parse)
    cold = {v: statistics.median(t[1] for t in times[(v, "cold")]) for v in ("base", "head")}
    warm = {v: statistics.median(t[1] for t in times[(v, "warm")]) for v in ("base", "head")}
    print(f"ast.parse, one process: {p:.2f} s CPU, {statistics.median(t[2] for t in parse) / 1024:.1f} MiB "
          f"({len(files)} files)")
    for v in ("base", "head"):
        print(f"{v}: cold CPU / ast.parse CPU = {cold[v] / p:.2f}; warm / cold (CPU) = {warm[v] / cold[v]:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
