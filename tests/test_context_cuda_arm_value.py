"""cuda-arm-value: a getter's "nccl" in the arm of a CUDA check is not reported; one on an NCCL test is."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_the_cuda_arm_is_silent_and_an_nccl_availability_test_is_not_a_cuda_check():
    found = scan_findings(CONTEXT_FIXTURES / "cuda_arm_value", "--show-guarded")
    assert [(f[0], f[1], f[3]) for f in found if f[3] == "TRN271"] == [("pick.py", 13, "TRN271")]
