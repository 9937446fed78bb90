"""class-mention-only: type tests, patches and explicit base calls name a per-channel observer without using it."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_mentions_are_dropped_and_uses_stay():
    found = sorted((f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "class_mention_only")
                   if f[3] == "TRN181")
    assert found == [
        ("observers.py", 5, "TRN181"),   # the base of a class statement
        ("observers.py", 12, "TRN181"),  # the class called on `self` of a class not derived from it
        ("observers.py", 20, "TRN181"),  # a construction
    ]


def test_registered_as_a_drop_for_references():
    p = context.get("class-mention-only")
    assert p.effect == "drop" and p.kinds == ("reference",)
