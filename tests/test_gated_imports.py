"""Link step cuda-gated-import (project/gated_imports.py): a module imported only under a CUDA check never runs on
Neuron, nor do the CUDA files only it builds."""
import json

from conftest import FIXTURES, run_cli


def _findings():
    proc = run_cli("scan", FIXTURES / "gated_imports", "--format", "json", "--no-cache", "--show-guarded",
                   "--exit-zero")
    return {(f["path"], f["rule"]): f.get("guarded_by") for f in json.loads(proc.stdout)["findings"]}


def test_a_module_imported_only_under_a_cuda_check_and_its_kernel_are_guarded():
    found = _findings()
    assert found[("app/ops/fast_block.py", "TRN302")] == "cuda-gated-import"
    assert found[("app/kernels/fast_block_kernel.cu", "TRN601")] == "cuda-gated-import"


def test_a_module_imported_unconditionally_or_also_by_name_stays():
    found = _findings()
    # slow_block is imported at the top of search.py; lazy_block is also loaded by importlib from a string
    assert found[("app/ops/slow_block.py", "TRN302")] is None
    assert found[("app/kernels/slow_block_kernel.cu", "TRN601")] is None
    assert found[("app/ops/lazy_block.py", "TRN243")] is None


def test_a_package_imported_only_under_a_cuda_check_takes_its_modules_kernels_and_build_along():
    # app/conv.py imports app.conv_layer only under `if torch.cuda.is_available():` (fairseq's DynamicConv, which
    # falls back to a PyTorch layer); the package's own __init__.py imports its module unguarded
    found = _findings()
    assert found[("app/conv_layer/conv_layer.py", "TRN241")] == "cuda-gated-import"
    assert found[("app/conv_layer/conv_cuda_kernel.cu", "TRN601")] == "cuda-gated-import"
    assert found[("app/conv_layer/setup.py", "TRN302")] == "cuda-gated-import"


def test_a_package_imported_on_the_path_neuron_takes_stays():
    assert _findings()[("app/dense_layer/dense_layer.py", "TRN241")] is None


def test_a_module_needing_a_cuda_only_package_imported_only_in_a_try_is_guarded():
    # app/sparse/functions.py imports the CuPy kernels in `try: ... except (ImportError, OSError, RuntimeError):`;
    # cupy is never installed on a Trainium host, so the handler's path runs. fused_kernel.py needs cupy through
    # linear_kernel.py, and its own import of linear_kernel.py is made by a gated module
    found = _findings()
    assert found[("app/sparse/linear_kernel.py", "TRN289")] == "cuda-gated-import"
    assert found[("app/sparse/linear_kernel.py", "TRN303")] == "cuda-gated-import"
    assert found[("app/sparse/fused_kernel.py", "TRN243")] == "cuda-gated-import"


def test_a_triton_package_imported_only_in_a_try_is_guarded_whatever_its_tests_import():
    # tests/test_tri_kernels.py imports app.tri_kernels unguarded: it exercises the optional kernels
    found = _findings()
    assert found[("app/tri_kernels/conv_fwd.py", "TRN301")] == "cuda-gated-import"
    assert found[("app/tri_kernels/conv_fwd.py", "TRN243")] == "cuda-gated-import"


def test_a_tried_import_that_raises_or_needs_no_cuda_only_package_stays():
    found = _findings()
    # strict.py re-raises without the kernel: the program needs it
    assert found[("app/sparse/strict_kernel.py", "TRN289")] is None
    # plain_helper.py imports no CUDA-only package: its import succeeds on Neuron, and its .cuda() runs
    assert found[("app/sparse/plain_helper.py", "TRN241")] is None
