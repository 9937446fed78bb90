"""scale-reciprocal: the float64 reciprocal of a loss scale, cast straight back to float32, is no finding."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

DOUBLE = "Tensor cast to double: `double`"


def test_only_the_loss_scale_reciprocal_round_trip_is_dropped():
    # line 9 (`self._scale.double().reciprocal().float()`) is no finding; a receiver of another name (line 12),
    # another op between the casts (line 15) and a reciprocal kept in float64 (line 18) stay reported
    assert scan_findings(CONTEXT_FIXTURES / "scale_reciprocal", "--show-guarded") == [
        ("grad_scaler.py", 12, 16, "TRN122", DOUBLE, False),
        ("grad_scaler.py", 15, 16, "TRN122", DOUBLE, False),
        ("grad_scaler.py", 18, 16, "TRN122", DOUBLE, False),
    ]


def test_registered_as_a_drop_for_methods():
    p = context.get("scale-reciprocal")
    assert p.effect == "drop" and p.kinds == ("method",)
