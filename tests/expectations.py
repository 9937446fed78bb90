"""Inline expectations in fixture files (semgrep-style).

A comment `# expect: TRN191` (or several ids, comma-separated) on a line says
that exactly those rules must fire on that line; every other line must be
clean. `# expect-cell: N` style is not needed: notebooks carry their own JSON
fixtures.
"""
import re
from pathlib import Path

_EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


def expected_findings(root: Path, suffixes=(".py",)) -> set:
    out = set()
    for path in sorted(root.rglob("*")):
        if path.suffix not in suffixes or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            m = _EXPECT.search(line)
            if m:
                for rid in m.group(1).split(","):
                    if rid.strip():
                        out.add((rel, n, rid.strip()))
    return out


def actual_findings(report: dict) -> set:
    # Places folded into a finding (one finding per thing) are found too: they are its occurrences.
    return {(f["path"], f["line"], f["rule"]) for f in report["findings"] if not f.get("suppressed")} | {
        (f["path"], o["line"], o["rule"]) for f in report["findings"] if not f.get("suppressed")
        for o in f.get("occurrences", ())}
