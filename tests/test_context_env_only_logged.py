"""env-only-logged: CUDA_VISIBLE_DEVICES read only for a log line sets and chooses nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MSG = "CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER: `CUDA_VISIBLE_DEVICES`"


def test_a_value_only_logged_is_silent_and_other_uses_stay():
    # 5-7: read into a name only handed to logger.info, and the names in log and print texts (without the
    # predicate line 5 is reported); 11: the value is also split into device ids; 17: a write; 20: a module-level
    # name may be read elsewhere
    assert scan_findings(CONTEXT_FIXTURES / "env_only_logged") == [
        ("train.py", 11, 27, "TRN245", MSG, False),
        ("train.py", 17, 16, "TRN245", MSG, False),
        ("train.py", 20, 23, "TRN245", MSG, False),
    ]


def test_registered_as_a_drop():
    assert context.get("env-only-logged").effect == "drop"
