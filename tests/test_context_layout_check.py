"""layout-check: comparing a tensor's layout builds no sparse tensor."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_layout_tests_are_silent_conversions_are_reported():
    msg = "Sparse tensor construction or sparse operation: `{}`"
    assert scan_findings(CONTEXT_FIXTURES / "layout_check") == [
        # lines 5 and 7 only test the layout; line 12 converts to a sparse layout
        # (12, 42) torch.sparse_csr folds into it: one finding per category per line
        ("layouts.py", 12, 12, "TRN141", msg.format("to_sparse"), False),
    ]
