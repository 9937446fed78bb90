"""rocm-check: a CUDA query joined by `and` with a ROCm-build test is a ROCm check: False on CUDA and Neuron alike."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_a_cuda_query_and_a_rocm_test_is_silent_and_the_others_stay():
    # lines 6 (if ... and torch.version.hip), 14 (... is not None), 18 (getattr(torch.version, "hip", None)): dropped;
    # `and not torch.version.hip` (23) and `or torch.version.hip` (28) still ask for CUDA
    found = [(p, ln, rule) for p, ln, _c, rule, _m, guarded in scan_findings(CONTEXT_FIXTURES / "rocm_check")
             if not guarded]
    assert found == [("attention.py", 23, "TRN243"), ("attention.py", 28, "TRN243")]


def test_registered_as_a_drop_of_references():
    p = context.get("rocm-check")
    assert p is not None and p.effect == "drop" and p.kinds == ("reference",)
