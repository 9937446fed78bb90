"""Recall and false positives per category on the labelled accuracy fixtures.

    python -m bench accuracy [--fixtures DIR] [--verbose]

Fixtures live in tests/fixtures/accuracy/<category>/*.py. Two inline markers label lines:

- ``# expect: TRN123`` (or several ids, comma-separated): exactly these rules must fire on the line;
- ``# ok`` (optionally ``# ok: TRN123`` naming the rule it resembles): a look-alike, nothing may fire.

Recall = expected (line, rule) pairs found / expected pairs. False positives = look-alike lines with any
finding; FP rate = those lines / look-alike lines. Findings on lines carrying neither marker are listed as
"unlabelled" (they are errors in the fixtures, and the test suite rejects them).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
OK = re.compile(r"#\s*ok\b")


@dataclass
class Labels:
    expected: set = field(default_factory=set)  # (rel, line, rule)
    lookalikes: set = field(default_factory=set)  # (rel, line)


def default_fixtures() -> Path:
    return Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "accuracy"


def read_labels(root: Path) -> Labels:
    labels = Labels()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = EXPECT.search(line)
            if m:
                for rid in m.group(1).split(","):
                    if rid.strip():
                        labels.expected.add((rel, n, rid.strip()))
            elif OK.search(line):
                labels.lookalikes.add((rel, n))
    return labels


def run(root: Path):
    from trnready.api import scan
    from trnready.config import Config

    report = scan([root], Config(use_gitignore=False, cache=False))  # engine edits do not change the cache key
    # Places folded into another finding (one finding per thing) count as found: they are its occurrences.
    found = {(f.path, line, rule) for f in report.findings if not f.suppressed for line, rule in f.places()}
    return report, found


def category_of(rel: str) -> str:
    return rel.split("/", 1)[0]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench accuracy")
    ap.add_argument("--fixtures", type=Path, default=default_fixtures())
    ap.add_argument("--verbose", action="store_true", help="also list every hit")
    args = ap.parse_args(argv)
    root = args.fixtures
    if not root.is_dir():
        print(f"no fixtures at {root}", file=sys.stderr)
        return 2
    labels = read_labels(root)
    report, found = run(root)
    for d in report.diagnostics:
        print(f"diagnostic: {d.path}: {d.kind}: {d.message}", file=sys.stderr)
    cats = sorted({category_of(r) for r, _, _ in labels.expected} | {category_of(r) for r, _ in labels.lookalikes})
    found_lines = {(r, n) for r, n, _ in found}
    labelled_lines = {(r, n) for r, n, _ in labels.expected} | labels.lookalikes
    misses = sorted(labels.expected - found)
    fps = sorted((r, n, rule) for r, n, rule in found if (r, n) in labels.lookalikes)
    wrong = sorted((r, n, rule) for r, n, rule in found
                   if (r, n) not in labels.lookalikes and (r, n, rule) not in labels.expected)
    header = f"{'category':<22}{'expected':>9}{'found':>7}{'recall':>8}{'look-alikes':>13}{'FP':>4}{'FP rate':>9}"
    print(header)
    print("-" * len(header))
    tot = [0, 0, 0, 0]
    for cat in cats:
        exp = {e for e in labels.expected if category_of(e[0]) == cat}
        hit = exp & found
        look = {x for x in labels.lookalikes if category_of(x[0]) == cat}
        fp_lines = {x for x in look if x in found_lines}
        tot[0] += len(exp)
        tot[1] += len(hit)
        tot[2] += len(look)
        tot[3] += len(fp_lines)
        print(f"{cat:<22}{len(exp):>9}{len(hit):>7}{_pct(len(hit), len(exp)):>8}{len(look):>13}{len(fp_lines):>4}"
              f"{_pct(len(fp_lines), len(look)):>9}")
    print("-" * len(header))
    print(f"{'total':<22}{tot[0]:>9}{tot[1]:>7}{_pct(tot[1], tot[0]):>8}"
          f"{tot[2]:>13}{tot[3]:>4}{_pct(tot[3], tot[2]):>9}")
    if misses:
        print("\nmisses (expected, not found):")
        for r, n, rule in misses:
            print(f"  {r}:{n} {rule}")
    if fps:
        print("\nfalse positives (look-alike lines with a finding):")
        for r, n, rule in fps:
            print(f"  {r}:{n} {rule}")
    if wrong:
        print("\nunlabelled or extra findings (fix the fixture or the rule):")
        for r, n, rule in wrong:
            print(f"  {r}:{n} {rule}")
    if args.verbose:
        print("\nall findings:")
        for r, n, rule in sorted(found):
            print(f"  {r}:{n} {rule}")
    unlabelled = len(found_lines - labelled_lines)
    print(f"\n{len(report.findings)} findings in {report.files_scanned} files; {unlabelled} on unlabelled lines")
    return 0


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
