"""gradcheck-input: float64 inputs of finite-difference gradient checks are float64 on purpose."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

F64 = "float64 or complex128 dtype: `torch.float64`"


def test_gradcheck_inputs_are_guarded_other_float64_is_reported():
    assert scan_findings(CONTEXT_FIXTURES / "gradcheck_input", "--show-guarded") == [
        ("ops.py", 5, 31, "TRN121", F64, True),  # a helper named after gradcheck (default dtype)
        ("ops.py", 10, 53, "TRN121", F64, True),  # the function calls torch.autograd.gradcheck
        ("ops.py", 16, 51, "TRN121", F64, True),  # test_gradcheck: the test says what it checks
        ("ops.py", 21, 17, "TRN121", F64, False),  # a float64 accumulation: the usual finding
    ]


def test_registered_as_a_guard():
    assert context.get("gradcheck-input").effect == "guard"
