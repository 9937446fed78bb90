"""cuda-build-arm: a CUDAExtension chosen only in the arm of a CUDA test, beside a CppExtension the script builds."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_the_cuda_arm_of_a_build_that_falls_back_to_a_cpu_extension():
    # forced/: detectron2's setup.py shape (`or FORCE_CUDA`, so neuron-guarded cannot say it); raises/: the other
    # arm stops the build, so CUDA is required; only/: no CppExtension, the plain availability arm (neuron-guarded)
    found = [(p, ln, c, g) for p, ln, c, rule, _m, g in
             scan_findings(CONTEXT_FIXTURES / "cuda_build_arm", "--show-guarded") if rule == "TRN302"]
    assert found == [("forced/setup.py", 12, 21, True), ("only/setup.py", 6, 12, True), ("raises/setup.py", 6, 11, False)]


def test_registered_as_a_guard_of_calls_and_references():
    p = context.get("cuda-build-arm")
    assert p is not None and p.effect == "guard" and p.kinds == ("call", "reference")
