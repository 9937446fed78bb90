"""project/cuda_gated_sources.py: a .cu file only the CUDA arm of a build script compiles is an advisory."""
from conftest import FIXTURES, scan_findings


def _kernel(name):
    return [(f[0], f[1], "never built on Neuron" in f[4]) for f in scan_findings(FIXTURES / "cuda_gated" / name)
            if f[3] == "TRN601"]


def test_a_cuda_file_compiled_only_in_the_cuda_arm_is_lowered():
    assert _kernel("gated") == [("ops/gather_cuda.cu", 1, True)]


def test_a_cuda_file_also_named_outside_that_arm_keeps_its_blocker():
    assert _kernel("both") == [("ops/gather_cuda.cu", 1, False)]
