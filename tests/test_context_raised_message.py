"""raised-message: a CUDA query that only fills in the text of a raised error decides nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_queries_only_in_a_raised_message_are_dropped_and_others_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "raised_message")]
    # line 6 only builds the message of the ValueError raised there
    assert found == [
        ("marlin.py", 7, "TRN243"),  # the query the check is made with
        ("marlin.py", 13, "TRN243"),  # the exception class itself
        ("marlin.py", 17, "TRN243"),  # bound to a name first
    ]


def test_registered_as_a_drop():
    p = context.get("raised-message")
    assert p.effect == "drop" and p.kinds == ("call", "method", "reference", "subscript")
