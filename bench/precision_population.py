"""Count, over whole scans, the findings that fall in the false-positive classes of issue 13.

The sample in bench/data/precision_verdicts.csv says how often each class occurs among
drawn findings; this says how many findings of each repository carry the mark of a
class, so the size of a fix can be judged. The marks are rough, by design:

  own_package        library finding (cuda-library, fp8-torchao) naming a module whose
                     top-level package is a directory of the repository (or of src/)
  test_paths         path under tests/ test/ testing/, or a test_*.py / *_test.py file
  same_line_repeats  findings beyond the first of one category on one line
  stacked_decorators custom-cuda-kernel findings on the line right after another one
  library_repeats    findings beyond the first of one library rule in one file
  via_symlink        path that runs through a symlink inside the repository

    python bench/precision_population.py [--repos /work/repos]
"""
from __future__ import annotations

import argparse
import os
import re
from collections import Counter, defaultdict
from pathlib import Path

from precision_sample import load_repos, local_dir, scan

TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.py$")
MODULE = re.compile(r"`([A-Za-z_][\w.]*)`")
LIBRARY_CATEGORIES = {"cuda-library", "fp8-torchao"}


def own_packages(root: Path) -> set[str]:
    found = set()
    for base in (root, root / "src"):
        if base.is_dir():
            found.update(d.name for d in base.iterdir() if (d / "__init__.py").is_file())
    return found


def marks(root: Path, findings: list[dict]) -> Counter[str]:
    packages = own_packages(root)
    out: Counter[str] = Counter(findings=len(findings))
    per_line = Counter((f["path"], f["line"], f["category"]) for f in findings)
    out["same_line_repeats"] = sum(n - 1 for n in per_line.values())
    kernel_lines = defaultdict(set)
    for f in findings:
        if f["category"] == "custom-cuda-kernel":
            kernel_lines[f["path"]].add(f["line"])
    per_file = Counter((f["path"], f["rule"]) for f in findings if f["category"] in LIBRARY_CATEGORIES)
    out["library_repeats"] = sum(n - 1 for n in per_file.values())
    for f in findings:
        module = MODULE.search(f["message"])
        if f["category"] in LIBRARY_CATEGORIES and module and module.group(1).split(".")[0] in packages:
            out["own_package"] += 1
        out["test_paths"] += bool(TEST_PATH.search(f["path"]))
        if f["category"] == "custom-cuda-kernel" and f["line"] - 1 in kernel_lines[f["path"]]:
            out["stacked_decorators"] += 1
        full = root / f["path"]
        out["via_symlink"] += os.path.realpath(full) != os.path.abspath(full)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repos", type=Path, default=Path("/work/repos"))
    ap.add_argument("--trnready", default=None)
    args = ap.parse_args(argv)
    keys = ["findings", "own_package", "test_paths", "same_line_repeats", "stacked_decorators",
            "library_repeats", "via_symlink"]
    width = {k: len(k) + 2 for k in keys}
    print(f"{'repository':34}" + "".join(f"{k:>{width[k]}}" for k in keys))
    total: Counter[str] = Counter()
    for repo in load_repos():
        root = local_dir(args.repos, repo["repository"])
        found = [f for f in scan(root, args.trnready) if not f.get("suppressed")]
        row = marks(root, found)
        total.update(row)
        print(f"{repo['repository']:34}" + "".join(f"{row[k]:{width[k]}}" for k in keys))
    print(f"{'ALL':34}" + "".join(f"{total[k]:{width[k]}}" for k in keys))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
