"""optional-gpu-import: a CUDA-only package imported with a fallback is simply absent on Trainium."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

OPTIONAL = " (optional import: guarded by try/except or an availability check)"


def test_optional_imports_of_cuda_only_packages_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "optional_gpu_import", "--show-guarded") == [
        # `triton.cdiv` only in a function body, under the flag the handler sets: the fallback runs
        ("body_only_kernel.py", 5, 5, "TRN288", "Triton: `triton`" + OPTIONAL, True),
        # a base class at module level, but the handler binds the name again (`SwiGLU = torch.nn.Module`)
        ("body_only_kernel.py", 19, 5, "TRN284", "xFormers: `xformers.ops`" + OPTIONAL, True),
        # optional, but `assert flash_attn_with_kvcache is not None` on the decoding path: a change to check
        ("decode.py", 3, 5, "TRN281", "flash-attn (CUDA-only kernels): `flash_attn`" + OPTIONAL, False),
        # an availability `if` with an `else` that binds the name again: the fallback
        ("else_fallback.py", 6, 5, "TRN283", "NVIDIA Apex: `apex.normalization`" + OPTIONAL, True),
        # the use is under a flag the `if` sets with the import
        ("flagged_use.py", 6, 5, "TRN281", "flash-attn (CUDA-only kernels): `flash_attn`" + OPTIONAL, True),
        # the use is in a class named for the package (chosen by the attention implementation)
        ("flash_class.py", 5, 5, "TRN281", "flash-attn (CUDA-only kernels): `flash_attn`" + OPTIONAL, True),
        # `@triton.jit` on a module-level def runs as the module loads: without Triton the import of the module
        # fails before any fallback, so the import is not optional (VMamba's csm_triton.py)
        ("import_time_kernel.py", 5, 5, "TRN288", "Triton: `triton`" + OPTIONAL, False),
        ("import_time_kernel.py", 10, 2, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.jit`",
         False),
        ("layers.py", 4, 5, "TRN283", "NVIDIA Apex: `apex.normalization`" + OPTIONAL, True),  # torch fallback
        ("layers.py", 9, 5, "TRN284", "xFormers: `xformers.ops`", False),  # the handler re-raises: required
        # TorchAO is installable on a Trainium host: its optional import stays a change to check
        ("layers.py", 14, 5, "TRN201", "TorchAO (quantization and float8 training): `torchao`" + OPTIONAL, False),
        ("layers.py", 18, 1, "TRN281", "flash-attn (CUDA-only kernels): `flash_attn`", False),  # no fallback
        # the handler only prints: the names stay unbound, so the first use fails
        ("layers.py", 21, 5, "TRN292", "Kernel libraries for model layers (mamba-ssm, causal-conv1d, Liger, "
         "FlashInfer, Unsloth, MegaBlocks): `mamba_ssm.ops`" + OPTIONAL, False),
        # the fallback is another CUDA-only package
        ("layers.py", 26, 5, "TRN283", "NVIDIA Apex: `apex.optimizers`" + OPTIONAL, False),
        ("layers.py", 28, 5, "TRN287", "DeepSpeed: `deepspeed.ops.adam`", False),
        # the use is in a class the file chooses under the same availability test
        ("selected_class.py", 6, 5, "TRN283", "NVIDIA Apex: `apex.normalization`" + OPTIONAL, True),
        # `if find_spec("deepspeed"):` with no `else`, then `return FusedAdam(...)` unchecked: NameError without
        # the package, so the import is not optional (issue 13)
        ("unchecked_optimizer.py", 6, 5, "TRN287", "DeepSpeed: `deepspeed.ops.adam`" + OPTIONAL, False),
    ]


def test_registered_as_a_guard():
    assert context.get("optional-gpu-import").effect == "guard"
