"""setting-restore: putting a saved setting back in `finally:` is not a new setting."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "Inductor or Triton compiler options: `torch._inductor.config`"


def test_restores_are_silent_other_writes_in_finally_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "setting_restore", "--select", "TRN113") == [
        # lines 5 and 14 read the setting; line 10 restores the saved value
        ("tuning.py", 6, 5, "TRN113", MSG, False),
        ("tuning.py", 18, 9, "TRN113", MSG, False),  # a new value, not the saved one
    ]
