"""Compare the findings of two trnready versions on the same paths.

    python scripts/compare_findings.py --base REV|DIR [--head REV|DIR] PATH [PATH ...]

A version is a source tree (a directory holding trnready/ and blockers.toml) or a git revision of
this repository, exported with `git archive` into a temporary directory. Each version scans every
PATH separately with the same Python (`--format json --no-cache --jobs 1`); findings are compared
on (rule, path, cell, line, column, message, fingerprint, suppressed). Prints one line of counts per
path and every difference; exit status 1 when anything differs.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KEY = ("rule", "path", "cell", "line", "column", "message", "fingerprint", "suppressed")


def source_tree(spec: str, workdir: Path) -> Path:
    p = Path(spec)
    if p.is_dir() and (p / "trnready").is_dir():
        return p.resolve()
    out = workdir / spec.replace("/", "_")
    out.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", spec], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def findings(tree: Path, path: str) -> tuple[list[tuple], dict]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("TRNREADY_DEBUG", None)
    with tempfile.TemporaryDirectory() as cache:
        env["TRNREADY_CACHE_DIR"] = cache
        proc = subprocess.run([sys.executable, "-m", "trnready", "scan", "--format", "json", "--no-cache",
                               "--jobs", "1", str(Path(path).resolve())], capture_output=True, text=True, env=env,
                              cwd=tempfile.gettempdir())
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{tree}: scan of {path} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    data = json.loads(proc.stdout)
    rows = [tuple(f.get(k) for k in KEY) for f in data["findings"]]
    return rows, data


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/compare_findings.py", description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="git revision or source tree")
    ap.add_argument("--head", default=str(REPO), help="git revision or source tree (default: this checkout)")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    differ = False
    with tempfile.TemporaryDirectory(prefix="trnready-compare-") as tmp:
        base, head = source_tree(args.base, Path(tmp) / "base"), source_tree(args.head, Path(tmp) / "head")
        print(f"base: {args.base}  head: {args.head}")
        print(f"{'path':<50} {'files':>6} {'base':>6} {'head':>6} {'same':>6} {'only base':>10} {'only head':>10}")
        for path in args.paths:
            b_rows, b_data = findings(base, path)
            h_rows, h_data = findings(head, path)
            b, h = Counter(b_rows), Counter(h_rows)
            only_b, only_h = b - h, h - b
            same = sum((b & h).values())
            print(f"{path[-50:]:<50} {h_data['summary']['files_scanned'] if 'summary' in h_data else '':>6} "
                  f"{len(b_rows):>6} {len(h_rows):>6} {same:>6} {sum(only_b.values()):>10} {sum(only_h.values()):>10}")
            for label, rows in (("- base only", only_b), ("+ head only", only_h)):
                for row in sorted(rows.elements(), key=lambda r: tuple(str(x) for x in r)):
                    differ = True
                    print(f"    {label}: " + "  ".join(f"{k}={v}" for k, v in zip(KEY, row) if v is not None))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
