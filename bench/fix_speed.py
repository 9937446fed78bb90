"""`trnready fix` against a cold scan of the same tree: wall and CPU time, and their ratio.

    python bench/fix_speed.py /work/repos/diffusers [/work/repos/diffusers/src] [--runs 3]

Each round runs, in this order, `trnready scan TREE --no-cache --exit-zero` and
`trnready fix TREE` (the diff only; nothing is written) with an empty cache directory
for each, so both start cold. Reported: the best wall time of the rounds and the CPU
time (user + system of the child) of that same run. The target (issue 16) is fix <= 3x scan.
On a shared machine wall time varies with load; CPU time is the steadier figure.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def run(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child and its workers)."""
    cache = tempfile.mkdtemp(prefix="trnready-bench-cache-")
    env = {**os.environ, "TRNREADY_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(cache, ignore_errors=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return min(samples, key=lambda s: s[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    exe = [sys.executable, "-m", "trnready"]
    print(f"{'tree':<40} {'scan wall':>10} {'fix wall':>10} {'ratio':>6} {'scan cpu':>10} {'fix cpu':>10} {'ratio':>6}")
    for tree in args.trees:
        scans, fixes = [], []
        for _ in range(args.runs):
            scans.append(run([*exe, "scan", tree, "--no-cache", "--exit-zero"]))
            fixes.append(run([*exe, "fix", tree]))
        (sw, sc), (fw, fc) = best(scans), best(fixes)
        name = tree if len(tree) <= 40 else "..." + tree[-37:]
        print(f"{name:<40} {sw:>9.1f}s {fw:>9.1f}s {fw / sw:>5.2f}x {sc:>9.1f}s {fc:>9.1f}s {fc / sc:>5.2f}x")


if __name__ == "__main__":
    main()
