"""cuda-backend-class: the CUDA implementation of a device abstraction is never picked on Trainium (guarded)."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_cuda_subclass_of_a_device_abstraction_is_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "cuda_backend_class", "--show-guarded") == [
        ("fw/accelerator/cuda_accelerator.py", 12, 9, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`", True),
        ("fw/accelerator/cuda_accelerator.py", 15, 16, "TRN251",
         "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`", True),
        # a class of no abstraction (no base) named for CUDA is the program's own device code
        ("fw/accelerator/cuda_accelerator.py", 20, 16, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`",
         False),
        # Cuda*Backend: one attention backend among others
        ("fw/accelerator/cuda_accelerator.py", 25, 9, "TRN281", "flash-attn (CUDA-only kernels): `flash_attn`", True),
        # the code that picks the class stays
        ("fw/accelerator/select.py", 8, 8, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`", False),
    ]
