"""plotting-code: boolean masks in a helper that draws host arrays and never touches torch are not reported."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_masks_in_host_plotting_helpers_are_not_reported():
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "plotting_code") if f[3] == "TRN104"] == [
        # draws, but makes a tensor and moves it to a device first
        ("demo.py", 19, 12, "TRN104", MASK, False),
        # no drawing call: a selection that may run on the device
        ("demo.py", 24, 12, "TRN104", MASK, False),
    ]


def test_registered_for_subscripts_and_methods():
    p = context.get("plotting-code")
    assert p.effect == "drop" and "subscript" in p.kinds
