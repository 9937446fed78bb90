"""python-scalar-branch: a float64 chosen only for a Python float (never a tensor) is not reported."""
from conftest import CONTEXT_FIXTURES, scan_findings

from trnready import context

FLOAT64 = "float64 or complex128 dtype: `{}`"


def test_float64_for_python_floats_only_is_dropped_and_look_alikes_stay():
    # lines 10, 21, 30 and 36 (the non-tensor arm, then the float arm: if/else, conditional expression, the else
    # of a positive tensor check, one `and` test) are gone
    assert scan_findings(CONTEXT_FIXTURES / "python_scalar_branch", "--show-guarded") == [
        ("unet.py", 41, 33, "TRN121", FLOAT64.format("torch.float64"), False),  # made whatever the value
        ("unet.py", 48, 44, "TRN121", FLOAT64.format("torch.double"), False),  # every non-tensor value
        ("unet.py", 56, 38, "TRN121", FLOAT64.format("torch.float64"), False),  # no tensor check
        ("unet.py", 65, 17, "TRN121", FLOAT64.format("torch.float64"), False),  # the tensor arm
        ("unet.py", 72, 38, "TRN121", FLOAT64.format("torch.float64"), False),  # the float test fails there
    ]


def test_registered_as_a_drop_for_references():
    p = context.get("python-scalar-branch")
    assert p.effect == "drop" and p.kinds == ("reference",)
