"""One generated test per catalogue example: hits must fire their rule, cleans must not."""
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
