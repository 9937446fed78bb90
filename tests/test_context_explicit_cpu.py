"""explicit-cpu: a value created with device="cpu" stays on the host on every machine."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

F64 = "float64 or complex128 dtype: `torch.float64`"


def test_values_created_on_the_cpu_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "explicit_cpu", "--show-guarded") == [
        ("optim.py", 9, 51, "TRN121", F64, True),  # a project helper called with device="cpu"
        ("optim.py", 10, 34, "TRN121", F64, True),  # torch.zeros(..., device="cpu")
        ("optim.py", 11, 34, "TRN121", F64, False),  # .cpu() afterwards: created on the default device
        ("optim.py", 12, 38, "TRN121", F64, False),  # created on the weights' device
    ]


def test_registered_as_a_guard():
    assert context.get("explicit-cpu").effect == "guard"
