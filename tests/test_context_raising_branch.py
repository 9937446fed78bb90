"""raising-branch: data-dependent shapes in an if/else block that ends by raising are guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_only_the_block_ending_in_raise_is_guarded():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "raising_branch", "--show-guarded")]
    assert found == [
        ("bounds.py", 7, "TRN104", True),  # the index of the first bad value, for the message
        ("bounds.py", 10, "TRN104", False),  # the else arm runs on the normal path
        ("bounds.py", 17, "TRN104", False),  # an if block that goes on (continue), not raising
        ("bounds.py", 25, "TRN104", False),  # raises only in a nested branch
    ]


def test_registered_as_a_guard():
    p = context.get("raising-branch")
    assert p.effect == "guard" and p.kinds == ("call", "method", "subscript")
