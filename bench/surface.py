"""Recall and false positives per file kind on the labelled non-Python fixtures.

    python -m bench surface [--fixtures DIR] [--verbose] [--strict]

Fixtures live in tests/fixtures/accuracy_surface/, a small repository of manifests, containers, launchers,
configs, CUDA sources and a notebook modelled on patterns met in public PyTorch repositories. Labels sit in
the sidecar `expected.txt` (notebooks and JSON cannot carry comments):

- ``PATH:LINE[:CELL] RULE[,RULE...]``: exactly these rules must fire on that line (CELL: 0-based notebook
  cell index, markdown cells counted; LINE is relative to the cell);
- ``PATH:LINE[:CELL] ok [RULE]``: a look-alike, nothing may fire (RULE names what it resembles);
- ``PATH diagnostic KIND``: the scan must report this diagnostic (missing-include, cell-syntax-error, ...).

A line of a file with `#` comments may instead end in ``# ok`` to mark a look-alike. Text after the labels
is a free comment. Recall = expected (line, rule) pairs found / expected pairs; FP = look-alike lines with
any finding. Findings on unlabelled lines are listed as "unlabelled" (errors in the fixtures).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

LABEL = re.compile(r"^(?P<path>\S+?):(?P<line>\d+)(?::(?P<cell>\d+))?\s+(?P<what>ok\b|[A-Z]+\d+(?:,[A-Z]+\d+)*)")
DIAG = re.compile(r"^(?P<path>\S+)\s+diagnostic\s+(?P<kind>[\w-]+)")
INLINE_OK = re.compile(r"#\s*ok\b")
NO_COMMENTS = (".json", ".ipynb")


@dataclass
class Labels:
    expected: set = field(default_factory=set)  # (path, line, cell, rule)
    lookalikes: set = field(default_factory=set)  # (path, line, cell)
    diagnostics: set = field(default_factory=set)  # (path, kind)


def default_fixtures() -> Path:
    return Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "accuracy_surface"


def read_labels(root: Path) -> Labels:
    labels = Labels()
    for raw in (root / "expected.txt").read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        m = LABEL.match(text)
        if m:
            key = (m.group("path"), int(m.group("line")), int(m.group("cell")) if m.group("cell") else None)
            if m.group("what") == "ok":
                labels.lookalikes.add(key)
            else:
                labels.expected.update(key + (r,) for r in m.group("what").split(","))
            continue
        m = DIAG.match(text)
        if not m:
            raise ValueError(f"expected.txt: cannot read {raw!r}")
        labels.diagnostics.add((m.group("path"), m.group("kind")))
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "expected.txt"):
        if path.name.endswith(NO_COMMENTS):
            continue
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if INLINE_OK.search(line):
                labels.lookalikes.add((rel, n, None))
    return labels


def kind_of(rel: str, root: Path | None = None) -> str:
    from trnready.filekinds import kind_in

    p = PurePosixPath(rel)
    if p.name == "setup.py":
        return "setup-py"
    kind = kind_in(p.parent.name, p.name) or "python"
    if kind in ("yaml", "json") and (root or _ROOT[0]) is not None:
        kind += ":" + _role(rel, root or _ROOT[0])  # YAML/JSON split by what they are: config, ci or other
    return kind


_ROOT: list = [None]
_ROLES: dict = {}


def _role(rel: str, root: Path) -> str:
    if rel not in _ROLES:
        from trnready.readers.configs import role_of
        from trnready.readers.outline import outline

        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        _ROLES[rel] = role_of(rel, outline(text)) or "other"
    return _ROLES[rel]


def run(root: Path):
    _ROOT[0] = root
    from trnready.api import scan
    from trnready.config import Config

    report = scan([root], Config(use_gitignore=False))
    found = {(f.path, f.line, f.cell, f.rule) for f in report.findings if not f.suppressed}
    # Places folded into a finding (one finding per thing) are found too: they are its occurrences.
    found |= {(f.path, ln, f.cell, rule) for f in report.findings if not f.suppressed for ln, _, rule in f.occurrences}
    # and so are its places in other files (the launcher of a kernel header, the imports of a built extension)
    found |= {(p, ln, None, rule) for f in report.findings if not f.suppressed for p, ln, _, rule in f.elsewhere}
    return report, found


@dataclass
class Result:
    rows: list  # (kind, expected, found, recall, lookalikes, fp lines, fp rate)
    misses: list
    false_positives: list  # (path, line, cell, rule) on look-alike lines
    unlabelled: list
    wrong_rule: list  # a finding on an expected line with a rule not expected there
    missing_diagnostics: list
    extra_diagnostics: list


def evaluate(root: Path) -> Result:
    labels = read_labels(root)
    report, found = run(root)
    expected_lines = {(p, n, c) for p, n, c, _ in labels.expected}
    misses = sorted(labels.expected - found, key=str)
    fps = sorted((f for f in found if f[:3] in labels.lookalikes), key=str)
    unlabelled = sorted((f for f in found if f[:3] not in labels.lookalikes and f[:3] not in expected_lines), key=str)
    wrong = sorted((f for f in found if f[:3] in expected_lines and f not in labels.expected), key=str)
    diags = {(d.path, d.kind) for d in report.diagnostics}
    kinds = sorted({kind_of(p) for p, _, _, _ in labels.expected} | {kind_of(p) for p, _, _ in labels.lookalikes})
    rows = []
    for k in kinds:
        exp = [e for e in labels.expected if kind_of(e[0]) == k]
        hit = [e for e in exp if e in found]
        looks = [x for x in labels.lookalikes if kind_of(x[0]) == k]
        fp_lines = {f[:3] for f in fps if kind_of(f[0]) == k}
        rows.append((k, len(exp), len(hit), len(hit) / len(exp) if exp else 1.0, len(looks), len(fp_lines),
                     len(fp_lines) / len(looks) if looks else 0.0))
    return Result(rows, misses, fps, unlabelled, wrong, sorted(labels.diagnostics - diags),
                  sorted(diags - labels.diagnostics))


def render(res: Result) -> str:
    head = f"{'kind':<15} {'expected':>8} {'found':>6} {'recall':>7} {'look-alikes':>11} {'FP':>3} {'FP rate':>8}"
    out = [head, "-" * len(head)]
    tot = [0, 0, 0, 0]
    for k, e, h, r, lk, fp, fpr in res.rows:
        out.append(f"{k:<15} {e:>8} {h:>6} {r:>7.1%} {lk:>11} {fp:>3} {fpr:>8.1%}")
        tot = [tot[0] + e, tot[1] + h, tot[2] + lk, tot[3] + fp]
    out.append("-" * len(head))
    out.append(f"{'all':<15} {tot[0]:>8} {tot[1]:>6} {(tot[1] / tot[0] if tot[0] else 1):>7.1%} {tot[2]:>11} "
               f"{tot[3]:>3} {(tot[3] / tot[2] if tot[2] else 0):>8.1%}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench surface")
    ap.add_argument("--fixtures", type=Path, default=default_fixtures())
    ap.add_argument("--verbose", action="store_true", help="also list look-alikes that stayed clean")
    ap.add_argument("--strict", action="store_true", help="exit 1 on any miss, false positive or unlabelled finding")
    args = ap.parse_args(argv)
    if not (args.fixtures / "expected.txt").is_file():
        print(f"no expected.txt under {args.fixtures}", file=sys.stderr)
        return 2
    res = evaluate(args.fixtures)
    print(render(res))

    def show(title, items):
        if items:
            print(f"\n{title}:")
            for it in items:
                path, line, cell = it[0], it[1], it[2]
                where = f"{path}:{line}" + (f" (cell {cell})" if cell is not None else "")
                print(f"  {where} {' '.join(str(x) for x in it[3:])}")

    show("missed", res.misses)
    show("false positives (look-alike lines)", res.false_positives)
    show("unexpected rule on a labelled line", res.wrong_rule)
    show("unlabelled findings", res.unlabelled)
    for title, items in (("missing diagnostics", res.missing_diagnostics), ("unexpected diagnostics",
                                                                           res.extra_diagnostics)):
        if items:
            print(f"\n{title}: " + ", ".join(f"{p} {k}" for p, k in items))
    bad = res.misses or res.false_positives or res.unlabelled or res.wrong_rule or res.missing_diagnostics \
        or res.extra_diagnostics
    return 1 if (args.strict and bad) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
