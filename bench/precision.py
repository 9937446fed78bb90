"""Re-check the recorded precision verdicts against the current scanner (issue 13).

For every verdict in bench/data/precision_verdicts.csv whose repository is present
under the repos directory at the recorded commit, the repository is scanned once
with the current trnready and each recorded finding is looked up:

  tp         must still be reported: same rule, path and line, or that place listed in the
             `occurrences` of a reported finding of the same category (one finding per thing
             folds it there); for a repository-scoped rule (one finding per repository) the
             rule reported anywhere in the repository.
  fp         must be gone: no finding of the same category on that path and line.
             For class wrong-severity it may stay at a lower severity (at a higher one when
             recorded as an advisory, the lowest, or as a change whose reason asks for a
             blocker and never names an advisory: an optional import whose fallback raises).
  duplicate  must be gone: when the kept finding is on the same line (kept_line ==
             line) at most one finding of the category may remain on the line,
             otherwise none may remain on the duplicate's line (kept_line may
             be path:line when the kept finding is in another file).

A notebook finding is looked up by its cell line (as earlier draws recorded it) and by its
`file_line`, its line in the .ipynb text (as precision_sample.py records it since session 17).

A finding counts as reported when it is in the JSON report, not suppressed and not
marked guarded. It prints precision per category as recorded and now (on the
recorded sample: kept true positives / everything of the sample still reported),
the same weighted by the number of findings each category has in the current scans,
and the lists 'fp still reported' and 'tp lost'.

    python bench/precision.py [--repos /work/repos] [--mirrors /work/.mirror] [--draw NAME]

--draw keeps the verdicts of the draws whose name starts with NAME (the earlier
audit is "stratified"/"uniform", the first sample after the predicates "after-1", the
fresh sample on ten new repositories "fresh2"). Repositories and commits come from the
verdict rows themselves, so any list the sample was drawn from is checked the same way.

A repository counts as present at the recorded commit when its bare mirror
(MIRRORS/owner+name/repo) holds the commit and every recorded file under REPOS has
the blob of that commit; otherwise its verdicts are skipped and listed.
Exit status: 0 when nothing regressed, 1 when a recorded fp is still reported or a
tp is lost, 2 when no verdict could be checked.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = HERE / "data" / "precision_verdicts.csv"
SEVERITY_RANK = {"advisory": 0, "change": 1, "blocker": 2}


def git_blob_id(path: Path) -> str:
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def recorded_blobs(mirror: Path, commit: str, paths: list[str]) -> dict[str, str] | None:
    """Blob id of each path at the commit, or None when the mirror lacks the commit."""
    git = ["git", f"--git-dir={mirror}"]
    if subprocess.run(git + ["cat-file", "-e", f"{commit}^{{commit}}"],
                      capture_output=True).returncode:
        return None
    out = subprocess.run(git + ["ls-tree", "-z", commit, "--", *paths],
                         capture_output=True, check=True).stdout.decode()
    blobs = {}
    for entry in filter(None, out.split("\0")):
        meta, path = entry.split("\t", 1)
        blobs[path] = meta.split()[2]
    return blobs


def presence(repos: Path, mirrors: Path, repository: str, commit: str,
             paths: list[str]) -> str | None:
    """None when the checkout matches the commit, else why it cannot be checked."""
    owner, name = repository.split("/", 1)
    root = repos / name
    if not root.is_dir():
        return f"{root} missing"
    mirror = mirrors / f"{owner}+{name}" / "repo"
    if not mirror.is_dir():
        return f"no mirror at {mirror} to verify the commit"
    if (mirror / ".git").is_dir():  # a mirror fetched as a clone keeps its git directory inside
        mirror = mirror / ".git"
    real_root = root.resolve()
    # A finding may sit under a directory symlink of the tree: compare the file it
    # resolves to.
    real = {}
    for path in set(paths):
        target = (root / path).resolve()
        if not target.is_relative_to(real_root) or not target.is_file():
            return f"{path} missing or outside the checkout"
        real[path] = target.relative_to(real_root).as_posix()
    blobs = recorded_blobs(mirror, commit, sorted(set(real.values())))
    if blobs is None:
        return f"commit {commit[:12]} not in {mirror}"
    for path, rel in real.items():
        if rel not in blobs or git_blob_id(real_root / rel) != blobs[rel]:
            return f"{path} differs from {commit[:12]}"
    return None


def scan(root: Path, trnready: str | None, use_cache: bool) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "scan.json"
        cmd = [trnready] if trnready else [sys.executable, "-m", "trnready"]
        cmd += ["scan", str(root), "--format", "json", "-o", str(out), "--exit-zero"]
        if not (root / ".git").exists():
            cmd.append("--no-gitignore")  # tracked files written out without .git: scanned as a clone would be
        if not use_cache:
            cmd.append("--no-cache")
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:  # say why: the scan's own error line, not only its exit status
            raise SystemExit(f"scan of {root} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
        findings = json.loads(out.read_text())["findings"]
    return [f for f in findings if not f.get("suppressed") and not f.get("guarded")]


class Index:
    """Reported findings of one repository, looked up by location."""

    def __init__(self, findings: list[dict]):
        self.by_line: dict[tuple[str, int], list[dict]] = defaultdict(list)
        self.folded: set[tuple[str, int, str]] = set()  # (path, line, rule) folded into a reported finding
        self.rules = Counter(f["rule"] for f in findings)
        self.per_category = Counter(f["category"] for f in findings)
        for f in findings:
            # a finding spanning several lines (schema 1.6: `end_line`) is found on each, as bench/recall.py does
            for line in range(f["line"], min(f.get("end_line") or f["line"], f["line"] + 20) + 1):
                self.by_line[f["path"], line].append(f)
            # a notebook finding is found by its cell line (earlier draws) or its line in the .ipynb text
            # (precision_sample.py writes that one since session 17)
            if f.get("file_line") and f["file_line"] != f["line"]:
                self.by_line[f["path"], f["file_line"]].append(f)
            for o in f.get("occurrences") or ():
                self.folded.add((f["path"], o["line"], o["rule"]))
                if f.get("cell") is not None and o.get("file_line"):
                    self.folded.add((f["path"], o["file_line"], o["rule"]))
            for o in f.get("elsewhere") or ():  # places in other files folded into it (schema 1.4)
                self.folded.add((o["path"], o["line"], o["rule"]))

    def kept(self, v: dict, repo_rules: frozenset) -> bool:
        """Whether a recorded tp is still on the report (see the module docstring)."""
        if v["rule"] in repo_rules:
            return self.rules[v["rule"]] > 0
        return bool(self.at(v["path"], int(v["line"]), rule=v["rule"])) or \
            (v["path"], int(v["line"]), v["rule"]) in self.folded

    def at(self, path: str, line: int, *, rule: str | None = None,
           category: str | None = None) -> list[dict]:
        return [f for f in self.by_line.get((path, line), [])
                if (rule is None or f["rule"] == rule)
                and (category is None or f["category"] == category)]


def still_reported(v: dict, idx: Index) -> bool:
    """Whether a recorded fp or duplicate is still on the report."""
    line = int(v["line"])
    same = idx.at(v["path"], line, category=v["category"])
    # kept_line is a line of the same file, or path:line when the kept finding is
    # in another file (a directory symlink reaching the same file twice).
    if v["verdict"] == "duplicate" and v["kept_line"] == v["line"]:
        return len(same) > 1
    if v["fp_class"] == "wrong-severity":
        recorded = SEVERITY_RANK[v["severity"]]
        if recorded == 0:
            # an advisory can only be wrong by being too low (`--tf32 True` makes TrainingArguments raise): it is
            # fixed when the finding is raised
            return any(SEVERITY_RANK.get(f["severity"], 2) == 0 for f in same)
        reason = v.get("reason", "").lower()
        if recorded == 1 and "blocker" in reason and "advisory" not in reason:
            # a change the auditors judged too low (the "optional" import cannot be done without): fixed when raised
            return any(SEVERITY_RANK.get(f["severity"], 2) <= recorded for f in same)
        return any(SEVERITY_RANK.get(f["severity"], 2) >= recorded for f in same)
    return bool(same)


def repository_scoped_rules() -> frozenset:
    """Ids of the catalogue's rules reported once per repository (a matcher with scope = "repo")."""
    import tomllib

    data = tomllib.loads((HERE.parent / "blockers.toml").read_text())
    return frozenset(r["id"] for r in data.get("rule", [])
                     if any(m.get("scope") == "repo" for m in r.get("match", [])))


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:5.1f}%" if den else "    - "


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verdicts", type=Path, default=VERDICTS)
    ap.add_argument("--repos", type=Path, default=Path("/work/repos"))
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--trnready", default=None,
                    help="trnready executable (default: python -m trnready with this interpreter)")
    ap.add_argument("--cache", action="store_true", help="let trnready use its result cache")
    ap.add_argument("--draw", action="append", default=[],
                    help="keep only draws whose name starts with this (repeatable)")
    args = ap.parse_args(argv)

    with args.verdicts.open(newline="") as fh:
        verdicts = list(csv.DictReader(fh))
    if args.draw:
        verdicts = [v for v in verdicts if v["draw"].startswith(tuple(args.draw))]
    repo_rules = repository_scoped_rules()
    by_repo: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for v in verdicts:
        by_repo[v["repository"], v["commit"]].append(v)

    checked: list[tuple[dict, bool]] = []   # (verdict, reported now)
    skipped: list[str] = []
    population: Counter[str] = Counter()
    confidence: dict[int, str] = {}
    scope: dict[int, str] = {}
    for (repository, commit), rows in sorted(by_repo.items()):
        why = presence(args.repos, args.mirrors, repository, commit, [v["path"] for v in rows])
        if why:
            skipped.append(f"{repository} ({len(rows)} verdicts): {why}")
            continue
        idx = Index(scan(args.repos / repository.split("/", 1)[1], args.trnready, args.cache))
        population.update(idx.per_category)
        for v in rows:
            if v["verdict"] == "tp":
                now = idx.kept(v, repo_rules)
            else:
                now = still_reported(v, idx)
            checked.append((v, now))
            if now:
                # the confidence the scanner gives the finding the verdict is about (by rule, else by category)
                same = idx.at(v["path"], int(v["line"]), rule=v["rule"]) or \
                    idx.at(v["path"], int(v["line"]), category=v["category"])
                confidence[id(v)] = same[0].get("confidence", "-") if same else "folded"
                scope[id(v)] = same[0].get("scope", "-") if same else "folded"

    if not checked:
        print("no recorded verdict could be checked:", *skipped, sep="\n  ")
        return 2
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    for v, now in checked:
        for key in (v["category"], "ALL"):
            s = stats[key]
            s["n"] += 1
            s["tp"] += v["verdict"] == "tp"
            s["tp_now"] += v["verdict"] == "tp" and now
            s["wrong_now"] += v["verdict"] != "tp" and now

    print(f"{len(checked)} verdicts checked in {len(by_repo) - len(skipped)} repositories")
    print(f"{'category':20} {'n':>4} {'tp':>4} {'recorded':>9} {'tp kept':>8} "
          f"{'wrong left':>10} {'now':>7} {'findings':>9}")
    weighted = {"recorded": 0.0, "now": 0.0}
    weight = 0
    for cat in sorted(k for k in stats if k != "ALL") + ["ALL"]:
        s = stats[cat]
        shown = s["tp_now"] + s["wrong_now"]
        size = sum(population.values()) if cat == "ALL" else population[cat]
        print(f"{cat:20} {s['n']:4} {s['tp']:4} {pct(s['tp'], s['n']):>9} {s['tp_now']:8} "
              f"{s['wrong_now']:10} {pct(s['tp_now'], shown):>7} {size:9}")
        if cat != "ALL" and size:
            weight += size
            weighted["recorded"] += size * s["tp"] / s["n"]
            weighted["now"] += size * (s["tp_now"] / shown if shown else 1.0)
    if weight:
        print(f"weighted by category size: recorded {pct(weighted['recorded'], weight).strip()}, "
              f"now {pct(weighted['now'], weight).strip()}")
    for title, key in (("draw", "draw"), ("repository", "repository")):
        groups: dict[str, Counter[str]] = defaultdict(Counter)
        for v, now in checked:
            g = groups[v.get(key) or "-"]
            g["n"] += 1
            g["tp"] += v["verdict"] == "tp"
            g["tp_now"] += v["verdict"] == "tp" and now
            g["shown"] += now
        print(f"by {title}: " + "; ".join(
            f"{name} {g['tp']}/{g['n']} = {pct(g['tp'], g['n']).strip()} -> now "
            f"{pct(g['tp_now'], g['shown']).strip()}" for name, g in sorted(groups.items())))
    # issue 13: a confidence that means something separates right from wrong among what is still reported
    by_conf: dict[str, Counter[str]] = defaultdict(Counter)
    by_rule: dict[str, Counter[str]] = defaultdict(Counter)
    for v, now in checked:
        if now:
            for g in (by_conf[confidence.get(id(v), "-")], by_rule[v["rule"]]):
                g["shown"] += 1
                g["tp"] += v["verdict"] == "tp"
            by_rule[v["rule"]]["medium"] += confidence.get(id(v)) == "medium"
    # issue 13: the gate counts the source and build scopes by default; the others are listed, not counted
    by_scope: dict[str, Counter[str]] = defaultdict(Counter)
    for v, now in checked:
        if now:
            sc = scope.get(id(v), "-")
            for key in (sc, "gated (source+build)" if sc in ("source", "build") else "listed (other scopes)"):
                by_scope[key]["shown"] += 1
                by_scope[key]["tp"] += v["verdict"] == "tp"
    print("by scope (still reported): " + "; ".join(
        f"{c} {g['tp']}/{g['shown']} = {pct(g['tp'], g['shown']).strip()}" for c, g in sorted(by_scope.items())))
    print("by confidence (still reported): " + "; ".join(
        f"{c} {g['tp']}/{g['shown']} = {pct(g['tp'], g['shown']).strip()}" for c, g in sorted(by_conf.items())))
    print("by rule (still reported, at least 5; m = how many of them medium): " + "; ".join(
        f"{r} {g['tp']}/{g['shown']} = {pct(g['tp'], g['shown']).strip()} m{g['medium']}"
        for r, g in sorted(by_rule.items(), key=lambda kv: (kv[1]["tp"] / kv[1]["shown"], kv[0]))
        if g["shown"] >= 5))
    classes = Counter(v["fp_class"] for v, _ in checked if v["verdict"] != "tp")
    left = Counter(v["fp_class"] for v, now in checked if v["verdict"] != "tp" and now)
    print("false-positive classes (recorded -> still reported): " + ", ".join(
        f"{c} {n}->{left[c]}" for c, n in classes.most_common()))

    fp_left = [v for v, now in checked if v["verdict"] != "tp" and now]
    tp_lost = [v for v, now in checked if v["verdict"] == "tp" and not now]
    for title, items in (("fp still reported", fp_left), ("tp lost", tp_lost)):
        print(f"\n{title}: {len(items)}")
        for v in items:
            tag = v["fp_class"] or "tp"
            print(f"  {v['repository']}:{v['path']}:{v['line']} {v['rule']} [{tag}] {v['reason']}")
    if skipped:
        print("\nskipped (not present at the recorded commit):", *skipped, sep="\n  ")
    return 1 if fp_left or tp_lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
