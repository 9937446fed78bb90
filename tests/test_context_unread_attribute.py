"""unread-attribute: a dtype stored in a private attribute that nothing in the file reads decides nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_a_private_attribute_never_read_is_dropped_and_read_or_public_ones_stay():
    found = sorted((f[0], f[1], f[2], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "unread_attribute"))
    # viewer.py:7 stores self._dtype, which nothing reads
    assert found == [
        ("dynamic.py", 6, 31, "TRN121"),  # getattr with a computed name may read it
        ("viewer.py", 12, 23, "TRN121"),  # read by add()
        ("viewer.py", 20, 26, "TRN121"),  # a public attribute: other modules may read it
        ("viewer.py", 25, 29, "TRN121"),  # read through getattr by its name
    ]


def test_registered_as_a_drop_of_references():
    p = context.get("unread-attribute")
    assert p.effect == "drop" and p.kinds == ("reference",)
