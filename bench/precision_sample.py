"""Draw the stratified random sample of findings for the precision audit (issue 13).

Scans each repository listed in bench/data/precision_repos.csv (it must be present
under the repos directory at the recorded commit), pools the findings of all of
them, and draws a fixed-seed sample per category. The output is the skeleton of
bench/data/precision_verdicts.csv; the verdict columns are filled by a reader who
looks at each finding in its surrounding code.

    python bench/precision_sample.py [--repos /work/repos] [--seed 13] [--out FILE]

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
FIELDS = ["repository", "commit", "path", "line", "column", "rule", "category", "severity",
          "verdict", "fp_class", "kept_line", "reason"]
# Every category gets at least MIN_PER_CATEGORY findings (or all it has); EXTRA more
# are shared out by the square root of the category size, so the big categories
# weigh more without drowning the small ones.
MIN_PER_CATEGORY = 5
EXTRA = 60


def load_repos(path: Path = REPOS_CSV) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def local_dir(repos_dir: Path, repository: str) -> Path:
    return repos_dir / repository.split("/", 1)[1]


def scan(root: Path, trnready: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "scan.json"
        subprocess.run([trnready, "scan", str(root), "--format", "json", "-o", str(out),
                        "--exit-zero", "--no-cache"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.loads(out.read_text())["findings"]


def allocation(sizes: dict[str, int]) -> dict[str, int]:
    weight = {c: math.sqrt(n) for c, n in sizes.items()}
    total = sum(weight.values()) or 1.0
    return {c: min(n, MIN_PER_CATEGORY + round(EXTRA * weight[c] / total))
            for c, n in sizes.items()}


def draw(pool: list[dict], seed: int) -> list[dict]:
    by_cat: dict[str, list[dict]] = defaultdict(list)
    for item in sorted(pool, key=lambda f: (f["category"], f["repository"], f["path"],
                                            f["line"], f["column"], f["rule"])):
        by_cat[item["category"]].append(item)
    rng = random.Random(seed)
    picked = []
    for cat, k in sorted(allocation({c: len(v) for c, v in by_cat.items()}).items()):
        picked.extend(rng.sample(by_cat[cat], k))
    return picked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, default=Path("/work/repos"))
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--trnready", default=str(Path(sys.executable).with_name("trnready")))
    ap.add_argument("--out", type=Path, default=None, help="default: stdout")
    args = ap.parse_args(argv)
    pool = []
    for repo in load_repos():
        root = local_dir(args.repos, repo["repository"])
        for f in scan(root, args.trnready):
            if f.get("suppressed"):
                continue
            pool.append({"repository": repo["repository"], "commit": repo["commit"],
                         "path": f["path"], "line": f["line"], "column": f["column"],
                         "rule": f["rule"], "severity": f["severity"],
                         "category": f["category"]})
    sample = draw(pool, args.seed)
    fh = args.out.open("w", newline="") if args.out else sys.stdout
    writer = csv.DictWriter(fh, fieldnames=FIELDS)
    writer.writeheader()
    for item in sample:
        writer.writerow({**item, "verdict": "", "fp_class": "", "kept_line": "", "reason": ""})
    if args.out:
        fh.close()
    print(f"{len(pool)} findings pooled, {len(sample)} drawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
