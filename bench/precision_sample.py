"""Draw the stratified random sample of findings for the precision audit (issue 13).

Scans each repository listed in bench/data/precision_repos.csv (it must be present
under the repos directory at the recorded commit), pools the findings of all of
them, and draws two fixed-seed samples: "stratified" (a share of every category,
seed S) and "uniform" (a plain random draw from the rest of the pool, seed S+1),
which follows the real mix of categories. The output is the skeleton of
bench/data/precision_verdicts.csv; the verdict columns are filled by a reader who
looks at each finding in its surrounding code.

    python bench/precision_sample.py [--repos /work/repos] [--seed 13] [--out FILE]
        [--repos-csv FILE] [--only owner/name,...] [--draw NAME] [--uniform 45]

--repos-csv reads another repository list (bench/data/precision_repos_fresh.csv holds
the ten repositories of the second fresh sample); --only restricts the pool to some of
the listed repositories; --draw names the
draw (rows are NAME for the stratified part and NAME-uniform for the rest), so a
later sample can sit next to an earlier one in the verdicts file. Findings marked
suppressed or guarded are not on the report and are left out of the pool.

A notebook finding's line is relative to its cell, which names no single line of the .ipynb file (the same cell
line is in every cell); the rows written carry the finding's `file_line` (its line in the .ipynb text) in `line`
instead, so that a reader finds it, and bench/precision.py matches a recorded line against either. The draw
itself still orders the pool by the cell line, so earlier draws reproduce.

The draw depends only on the scan results, the seed and the allocation below, so
re-running it on the same commits and the same scanner reproduces the sample.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import random
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOS_CSV = HERE / "data" / "precision_repos.csv"
FIELDS = ["draw", "repository", "commit", "path", "line", "column", "rule", "category", "severity",
          "verdict", "fp_class", "kept_line", "reason"]
# Every category gets at least MIN_PER_CATEGORY findings (or all it has); EXTRA more
# are shared out by the square root of the category size, so the big categories
# weigh more without drowning the small ones.
MIN_PER_CATEGORY = 5
EXTRA = 60
UNIFORM = 45


def load_repos(path: Path = REPOS_CSV) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def local_dir(repos_dir: Path, repository: str) -> Path:
    return repos_dir / repository.split("/", 1)[1]


def scan(root: Path, trnready: str | None) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "scan.json"
        cmd = [trnready] if trnready else [sys.executable, "-m", "trnready"]
        tracked_only = [] if (root / ".git").exists() else ["--no-gitignore"]  # a tree of tracked files, no .git
        subprocess.run([*cmd, "scan", str(root), "--format", "json", "-o", str(out),
                        "--exit-zero", "--no-cache", *tracked_only], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.loads(out.read_text())["findings"]


def allocation(sizes: dict[str, int]) -> dict[str, int]:
    weight = {c: math.sqrt(n) for c, n in sizes.items()}
    total = sum(weight.values()) or 1.0
    return {c: min(n, MIN_PER_CATEGORY + round(EXTRA * weight[c] / total))
            for c, n in sizes.items()}


def location(f: dict) -> tuple:
    return (f["category"], f["repository"], f["path"], f["line"], f["column"], f["rule"])


def draw(pool: list[dict], seed: int, name: str = "stratified",
         uniform: int = UNIFORM) -> list[dict]:
    pool = sorted(pool, key=location)
    by_cat: dict[str, list[dict]] = defaultdict(list)
    for item in pool:
        by_cat[item["category"]].append(item)
    rng = random.Random(seed)
    picked = []
    for cat, k in sorted(allocation({c: len(v) for c, v in by_cat.items()}).items()):
        picked.extend({**f, "draw": name} for f in rng.sample(by_cat[cat], k))
    taken = {location(f) for f in picked}
    rest = [f for f in pool if location(f) not in taken]
    label = "uniform" if name == "stratified" else f"{name}-uniform"
    picked.extend({**f, "draw": label}
                  for f in random.Random(seed + 1).sample(rest, min(uniform, len(rest))))
    return picked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, default=Path("/work/repos"))
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--trnready", default=None,
                    help="trnready executable (default: python -m trnready with this interpreter)")
    ap.add_argument("--out", type=Path, default=None, help="default: stdout")
    ap.add_argument("--repos-csv", type=Path, default=REPOS_CSV, help="repository,commit list")
    ap.add_argument("--only", default="", help="comma-separated owner/name list (default: all)")
    ap.add_argument("--draw", default="stratified", help="name of the stratified draw")
    ap.add_argument("--uniform", type=int, default=UNIFORM, help="size of the uniform draw")
    args = ap.parse_args(argv)
    pool = []
    only = set(filter(None, args.only.split(",")))
    for repo in load_repos(args.repos_csv):
        if only and repo["repository"] not in only:
            continue
        root = local_dir(args.repos, repo["repository"])
        for f in scan(root, args.trnready):
            if f.get("suppressed") or f.get("guarded"):
                continue
            pool.append({"repository": repo["repository"], "commit": repo["commit"],
                         "path": f["path"], "line": f["line"], "column": f["column"],
                         "rule": f["rule"], "severity": f["severity"],
                         "category": f["category"], "file_line": f.get("file_line")})
    sample = draw(pool, args.seed, args.draw, args.uniform)
    fh = args.out.open("w", newline="") if args.out else sys.stdout
    writer = csv.DictWriter(fh, fieldnames=FIELDS)
    writer.writeheader()
    for item in sample:
        row = {k: v for k, v in item.items() if k != "file_line"}
        if item.get("file_line"):  # a notebook: the line in the .ipynb text, not the cell's
            row["line"] = item["file_line"]
        writer.writerow({**row, "verdict": "", "fp_class": "", "kept_line": "", "reason": ""})
    if args.out:
        fh.close()
    print(f"{len(pool)} findings pooled, {len(sample)} drawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
