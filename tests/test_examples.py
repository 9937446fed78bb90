"""One generated test per catalogue example: hits must fire their rule, cleans must not; a snapshot pins
the line, column and message of every hit."""
import difflib
import os
from pathlib import Path

import pytest

from trnready.api import scan_text
from trnready.catalogue import load_catalogue
from trnready.match import Engine

CATALOGUE = load_catalogue()
ENGINE = Engine(CATALOGUE)


def _cases(attr):
    for rule in CATALOGUE.rules:
        for i, ex in enumerate(getattr(rule, attr)):
            yield pytest.param(rule, ex, id=f"{rule.id}-{attr[:-1]}-{i}")


@pytest.mark.parametrize("rule,example", list(_cases("hits")))
def test_hit(rule, example):
    findings, diag = scan_text(example.code, example.file, ENGINE)
    assert diag is None, diag
    fired = [f for f in findings if f.rule == rule.id]
    assert fired, f"{rule.id} did not fire on its hit example:\n{example.code}\nother findings: {findings}"
    for f in fired:
        assert f.category == rule.category and f.severity == rule.severity


@pytest.mark.parametrize("rule,example", list(_cases("cleans")))
def test_clean(rule, example):
    findings, diag = scan_text(example.code, example.file, ENGINE)
    assert diag is None, diag
    fired = [f for f in findings if f.rule == rule.id]
    assert not fired, f"{rule.id} fired on its clean example:\n{example.code}\n{fired}"


def test_every_rule_has_two_hits_and_two_cleans():
    thin = [r.id for r in CATALOGUE.rules if len(r.hits) < 2 or len(r.cleans) < 2]
    assert not thin, f"entries with fewer than two hit or clean examples: {thin}"


# Snapshot of where and what every hit example reports (line, column, message), as ruff's snapshot tests do:
# a change in position or wording shows up as a diff here. Regenerate after an intended change with
#   TRNREADY_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_examples.py -k snapshot
SNAPSHOT = Path(__file__).parent / "snapshots" / "rule_examples.txt"


def _snapshot_lines() -> list[str]:
    out = []
    for rule in CATALOGUE.rules:
        for i, ex in enumerate(rule.hits):
            findings, _ = scan_text(ex.code, ex.file, ENGINE)
            for f in sorted((f for f in findings if f.rule == rule.id),
                            key=lambda f: (f.cell if f.cell is not None else -1, f.line, f.column)):
                where = (f"cell {f.cell} " if f.cell is not None else "") + f"{f.line}:{f.column}"
                out.append(f"{rule.id} hit {i} ({ex.file}) {where} {f.message}")
    return out


def test_rule_hits_snapshot():
    lines = _snapshot_lines()
    if os.environ.get("TRNREADY_UPDATE_SNAPSHOTS"):
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = SNAPSHOT.read_text(encoding="utf-8").splitlines()
    if lines != expected:
        diff = "\n".join(difflib.unified_diff(expected, lines, "snapshot", "now", lineterm="", n=0))
        pytest.fail("rule example findings changed (TRNREADY_UPDATE_SNAPSHOTS=1 regenerates the snapshot):\n"
                    + diff[:6000])
