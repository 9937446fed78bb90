"""Interest.default_keywords: the indexer decides whether a function acts on a parameter (a walk of the function)
only for the names some keyword matcher reads as a parameter default; a default kept for any other name was
skipped by every matcher, so the matches are the same."""
import ast
import dataclasses

from conftest import REPO
from trnready.catalogue import load_catalogue
from trnready.index import Indexer
from trnready.match import Engine


def test_only_names_matched_as_defaults_and_the_same_defaults_and_hits_as_with_every_keyword():
    engine = Engine(load_catalogue())
    interest = engine.interest
    wide = dataclasses.replace(interest, default_keywords=None)
    assert interest.default_keywords and interest.default_keywords < interest.keywords
    for name in interest.keywords - interest.default_keywords:
        assert not any(m.defaults for _, m in engine.keywords[name]), name
    kept = 0
    for path in sorted((REPO / "tests" / "fixtures" / "accuracy").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        narrow_index, wide_index = Indexer(interest).run(tree), Indexer(wide).run(tree)
        narrow = [(n, id(e)) for n, e, _ in narrow_index.keyword_defaults]
        assert narrow == [(n, id(e)) for n, e, _ in wide_index.keyword_defaults
                          if n in interest.default_keywords or (n, id(e)) in narrow], path
        kept += len(narrow)
        hits = [(h.rule.id, h.node.lineno, h.node.col_offset) for h in engine.match(narrow_index, str(path))]
        assert hits == [(h.rule.id, h.node.lineno, h.node.col_offset)
                        for h in engine.match(wide_index, str(path))], path
    assert kept > 0
