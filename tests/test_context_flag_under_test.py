"""flag-under-test: a backend flag a test sets and then asserts on is the value under test (guarded)."""
from conftest import CONTEXT_FIXTURES, scan_findings

FLAG = "cuDNN / CUDA backend flag: `torch.backends.cudnn.%s`"


def test_flags_checked_by_the_test_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "flag_under_test", "--show-guarded") == [
        # program code that sets a flag and asserts on it is still the setting the port has to change
        ("src/train.py", 5, 5, "TRN261", FLAG % "allow_tf32", False),
        # the test sets the flag its assertion checks (plain assert; unittest assert through an import alias)
        ("tests/test_tf32.py", 12, 9, "TRN261", FLAG % "allow_tf32", True),
        # a flag the test never asserts on is its own run's setting
        ("tests/test_tf32.py", 20, 5, "TRN261", FLAG % "benchmark", False),
        ("tests/test_tf32.py", 26, 9, "TRN261", FLAG % "deterministic", True),
        # asserting on another flag does not cover this one
        ("tests/test_tf32.py", 31, 9, "TRN261", FLAG % "benchmark", False),
    ]
