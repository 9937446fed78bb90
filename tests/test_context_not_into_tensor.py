"""not-into-tensor: a nanosecond timestamp is reported only where it is written into a tensor."""
from conftest import CONTEXT_FIXTURES, scan_findings

STAMP = "Nanosecond timestamp written into a tensor: the value needs the full int64 range: `{}`"


def test_timestamps_into_tensors():
    # start = time.time_ns() and the printed difference stay in Python
    assert scan_findings(CONTEXT_FIXTURES / "not_into_tensor") == [
        ("stamps.py", 8, 23, "TRN132", STAMP.format("time.time_ns"), False),
        # stamps.py:9:13 TRN132 folds into line 8 (a run of neighbouring statements)
    ]
