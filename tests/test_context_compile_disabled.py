"""compile-disabled: a torch.compile disabled on every Neuron machine never compiles there; a CUDA query with a
fallback value in its `except` gives that value on Neuron (neuron-guarded reads it)."""
from conftest import CONTEXT_FIXTURES, scan_findings

MODE = "torch.compile mode other than default: `torch.compile`"
QUERY = "torch.cuda device, memory, stream or RNG API: `torch.cuda.%s`"


def test_compile_disabled_on_neuron_is_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "compile_disabled", "--show-guarded") == [
        # the query inside `try:` with `except: cuda_arch = 0`
        ("fp8.py", 4, 45, "TRN243", QUERY % "get_device_capability", False),
        # `if cuda_arch >= 89:` is False on Neuron (cuda_arch is 0 there)
        ("fp8.py", 11, 16, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", True),
        # disable=cuda_arch < 89 is True there: the compile and its NEFF-cache finding never apply
        ("fp8.py", 15, 2, "TRN112", MODE, True),
        # disable=not torch.cuda.is_available(); the check itself stays (it switches compile off on Neuron)
        ("fp8.py", 20, 2, "TRN112", MODE, True),
        ("fp8.py", 20, 63, "TRN243", QUERY % "is_available", False),
        # disable=cuda_arch >= 89 is False on Neuron: compiled there
        ("fp8.py", 25, 2, "TRN112", MODE, False),
        ("fp8.py", 25, 2, "TRN701", "torch.compile without a shared NEFF cache (TORCH_NEURONX_NEFF_CACHE_DIR): "
         "`torch.compile` (4 uses in 1 file, first here); TORCH_NEURONX_NEFF_CACHE_DIR appears in no scanned file",
         False),
        # a switch the caller passes: unknown
        ("fp8.py", 31, 12, "TRN112", MODE, False),
    ]
