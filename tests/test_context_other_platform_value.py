"""other-platform-value: PJRT_DEVICE compared with / set to another platform is not Neuron configuration."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_checks_for_other_platforms_are_silent():
    # == "TPU" (line 3) and setdefault(..., "CPU") (line 4) are for other platforms; "NEURON" is the XLA-era setting
    assert scan_findings(CONTEXT_FIXTURES / "other_platform_value") == [
        ("launch.py", 5, 12, "TRN222", "XLA-era Neuron environment variable: `PJRT_DEVICE`", False)]
