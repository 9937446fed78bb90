"""assert-message: code in the message of an assert runs only once the assertion has failed."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_matches_in_an_assert_message_are_dropped_and_the_test_expression_stays():
    found = sorted([(f[0], f[1], f[2], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "assert_message")])
    # line 7 (mask index) and line 22 (CUDA query) only build assertion messages
    assert found == [
        ("labels.py", 12, 12, "TRN104"),  # the asserted expression runs
        ("labels.py", 18, 12, "TRN104"),
        ("labels.py", 23, 12, "TRN241"),
    ]


def test_registered_as_a_drop_everywhere():
    p = context.get("assert-message")
    assert p.effect == "drop" and "subscript" in p.kinds
