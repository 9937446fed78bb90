"""math-fallback: a backend list that still holds SDPBackend.MATH restricts nothing on Neuron."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_lists_with_the_math_kernel_are_dropped_and_look_alikes_stay():
    assert scan_findings(CONTEXT_FIXTURES / "math_fallback", "--show-guarded") == [
        # line 4 (FLASH_ATTENTION and EFFICIENT_ATTENTION next to MATH) is gone; CUDA kernels alone stay
        ("attend.py", 16, 23, "TRN264", "SDPA restricted to a CUDA kernel (FLASH_ATTENTION, EFFICIENT_ATTENTION, "
         "CUDNN_ATTENTION): `torch.nn.attention.SDPBackend.FLASH_ATTENTION`", False),
        # line 21 (a name -> backend table holding MATH) is gone; a table of CUDA kernels alone stays
        ("attend.py", 26, 25, "TRN264", "SDPA restricted to a CUDA kernel (FLASH_ATTENTION, EFFICIENT_ATTENTION, "
         "CUDNN_ATTENTION): `torch.nn.attention.SDPBackend.FLASH_ATTENTION`", False),
    ]


def test_registered_as_a_drop():
    assert context.get("math-fallback").effect == "drop"
