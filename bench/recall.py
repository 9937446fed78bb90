"""Recall of trnready on hand-labelled locations in public repositories.

The labels (bench/data/recall_labels.csv) were written by reading each candidate location before
the scanner was run on it: `hit` means a migration engineer must change that line for TorchNeuron,
`look-alike` means the line resembles a catalogue API but needs no change. This script scans every
labelled repository that is present on disk with the real CLI and prints, per category and per
issue class, how many hits were found (recall) and how many look-alikes got a finding (false
positives). A label is matched by a finding of the same category in the same file whose line span
contains the labelled line; notebook labels use the line in the .ipynb JSON text (`file_line`).

    python bench/recall.py                      # scans /work/repos/<name> for each labelled repository
    python bench/recall.py --repos-dir DIR --misses 5
    python bench/recall.py --reuse              # reuse the JSON reports of the previous run

The repositories are not vendored: fetch them at the commits in the CSV and extract each one under
--repos-dir with the repository's name (pyg-team/pytorch_geometric -> DIR/pytorch_geometric).
Labels of a repository that is missing are skipped and listed.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_LABELS = HERE / "data" / "recall_labels.csv"


def load_labels(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        row["line"] = int(row["line"])
    return rows


def scan(repo_dir: Path, out: Path, reuse: bool) -> dict:
    if not (reuse and out.exists()):
        cmd = [sys.executable, "-m", "trnready", "scan", str(repo_dir), "--format", "json",
               "-o", str(out), "--exit-zero", "--no-cache", "--show-guarded"]
        if not (repo_dir / ".git").exists():
            # a tree written from a repository's commit holds its tracked files only: a clone would scan the ones
            # its .gitignore also matches (localrf's `models/` line over localTensoRF/models/), so this does too
            cmd.append("--no-gitignore")
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not out.exists():
            raise SystemExit(f"scan of {repo_dir} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    with open(out) as fh:
        return json.load(fh)


def spans_by_location(report: dict, guarded: bool = False) -> dict:
    """(path, category) -> list of (first line, last line) in the file's own text, for the findings of the
    default report (or, with guarded=True, for those listed only with --show-guarded)."""
    spans = collections.defaultdict(list)
    # A place folded into a finding of another rule keeps its own rule (`fix-covers`: the `.cuda()` of
    # `x.cuda(async=True)` is a TRN241 place of the TRN323 finding): it counts under that rule's category.
    category_of = {f["rule"]: f["category"] for f in report["findings"]}
    category_of.update(_rule_categories())
    for f in report["findings"]:
        if bool(f.get("guarded")) != guarded or f.get("suppressed"):
            continue
        first = f.get("file_line") or f["line"]
        last = first + max(0, (f.get("end_line") or f["line"]) - f["line"])
        spans[(f["path"], f["category"])].append((first, last, f["rule"]))
        # Places folded into this finding (one finding per thing) are found too; in a notebook, by the line in the
        # .ipynb text the report gives each of them (schema 1.5; older reports have only the cell's line).
        # A place spanning several lines (schema 1.6: `end_line`) is found on each of them, like the finding itself.
        for occ in f.get("occurrences", ()):
            at = occ.get("file_line") if f.get("cell") is not None else occ["line"]
            if at is not None:
                end = at + max(0, (occ.get("end_line") or occ["line"]) - occ["line"])
                spans[(f["path"], category_of.get(occ["rule"], f["category"]))].append((at, end, occ["rule"]))
        for occ in f.get("elsewhere", ()):  # places of the same thing in other files (schema 1.4)
            spans[(occ["path"], f["category"])].append((occ["line"], occ["line"], occ["rule"]))
    return spans


_CATEGORIES: dict = {}


def _rule_categories() -> dict:
    """rule id -> category, from the catalogue this checkout ships."""
    if not _CATEGORIES:
        import tomllib
        data = tomllib.loads((Path(__file__).resolve().parent.parent / "blockers.toml").read_text())
        _CATEGORIES.update({r["id"]: r["category"] for r in data.get("rule", []) if "id" in r and "category" in r})
    return _CATEGORIES


def matching_rules(spans: dict, row: dict) -> list[str]:
    return [rule for first, last, rule in spans.get((row["path"], row["category"]), ())
            if first <= row["line"] <= last]


def file_kind(path: str) -> str:
    """Coarse kind of a labelled file, from its name (independent of trnready's own discovery)."""
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(".ipynb"):
        return "notebook"
    if name.startswith(("dockerfile", "containerfile")) or name.endswith(".dockerfile"):
        return "dockerfile"
    if path.startswith((".github/workflows/", ".circleci/", ".gitlab-ci")):
        return "ci-workflow"
    for ext, kind in ((".py", "python"), (".yaml", "yaml-config"), (".yml", "yaml-config"),
                      (".json", "json-config"), (".sh", "shell"), (".slurm", "shell"),
                      (".sbatch", "shell"), (".toml", "manifest"), (".txt", "manifest")):
        if name.endswith(ext):
            return kind
    return "other"


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:5.1f} %" if den else "    - "


def table(title: str, key: str, rows: list[dict]) -> None:
    hits = collections.Counter(r[key] for r in rows if r["label"] == "hit")
    found = collections.Counter(r[key] for r in rows if r["label"] == "hit" and r["rules"])
    looks = collections.Counter(r[key] for r in rows if r["label"] == "look-alike")
    fps = collections.Counter(r[key] for r in rows if r["label"] == "look-alike" and r["rules"])
    width = max([len(title)] + [len(k) for k in set(hits) | set(looks)])
    print(f"\n{title:<{width}}  hits found/labelled   recall   FP/look-alikes   FP rate")
    for k in sorted(set(hits) | set(looks)):
        print(f"{k:<{width}}  {found[k]:>5} / {hits[k]:<5}        {pct(found[k], hits[k])}"
              f"   {fps[k]:>4} / {looks[k]:<4}     {pct(fps[k], looks[k])}")
    th, tf, tl, tp = sum(hits.values()), sum(found.values()), sum(looks.values()), sum(fps.values())
    print(f"{'total':<{width}}  {tf:>5} / {th:<5}        {pct(tf, th)}   {tp:>4} / {tl:<4}     {pct(tp, tl)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    ap.add_argument("--repos-dir", type=Path, default=Path("/work/repos"))
    ap.add_argument("--out-dir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "trnready-recall")
    ap.add_argument("--reuse", action="store_true", help="reuse JSON reports from a previous run")
    ap.add_argument("--repository", action="append", default=[],
                    help="only these labelled repositories (owner/name; repeatable)")
    ap.add_argument("--misses", type=int, default=5, help="missed hits to list per issue class")
    args = ap.parse_args(argv)

    labels = load_labels(args.labels)
    if args.repository:
        unknown = set(args.repository) - {r["repository"] for r in labels}
        if unknown:
            raise SystemExit("no labels for: " + ", ".join(sorted(unknown)))
        labels = [r for r in labels if r["repository"] in args.repository]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    by_repo = collections.defaultdict(list)
    for row in labels:
        by_repo[row["repository"]].append(row)

    scored, missing = [], []
    for repo, rows in sorted(by_repo.items()):
        repo_dir = args.repos_dir / repo.split("/", 1)[1]
        if not repo_dir.is_dir():
            missing.append(repo)
            continue
        report = scan(repo_dir, args.out_dir / (repo.replace("/", "+") + ".json"), args.reuse)
        spans, guarded = spans_by_location(report), spans_by_location(report, guarded=True)
        for row in rows:
            row["rules"] = matching_rules(spans, row)
            row["guarded_rules"] = [] if row["rules"] else matching_rules(guarded, row)
            scored.append(row)

    print(f"labels: {len(labels)} in {len(by_repo)} repositories; scored {len(scored)}"
          f" in {len(by_repo) - len(missing)}")
    if missing:
        print("not present (skipped): " + ", ".join(missing))
    table("category", "category", scored)
    table("issue class", "issue_class", scored)
    for row in scored:
        row["file_kind"] = file_kind(row["path"])
    table("file kind", "file_kind", scored)

    exact = [r for r in scored if r["label"] == "hit" and r["expected_rule"] != "any"]
    same_rule = sum(1 for r in exact if r["expected_rule"] in r["rules"])
    print(f"\nhits naming a rule: {same_rule} of {len(exact)} found by that rule")

    listed = [r for r in scored if r["label"] == "hit" and not r["rules"] and r["guarded_rules"]]
    print(f"\nmissed hits listed as guarded (--show-guarded; never counted by design, issue 13): {len(listed)}")
    for r in listed:
        print(f"    {r['repository']}  {r['path']}:{r['line']}  [{r['category']}] {r['reason']}")

    print(f"\nmissed hits by issue class (up to {args.misses} each):")
    misses = collections.defaultdict(list)
    for r in scored:
        if r["label"] == "hit" and not r["rules"]:
            misses[r["issue_class"]].append(r)
    for cls in sorted(misses):
        print(f"  {cls} ({len(misses[cls])})")
        for r in misses[cls][: args.misses]:
            print(f"    {r['repository']}  {r['path']}:{r['line']}  [{r['category']}] {r['reason']}")
    fps = [r for r in scored if r["label"] == "look-alike" and r["rules"]]
    print(f"\nfindings on look-alikes ({len(fps)}):")
    for r in fps:
        print(f"    {r['repository']}  {r['path']}:{r['line']}  [{r['category']}] "
              f"{','.join(sorted(set(r['rules'])))}: {r['reason']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
