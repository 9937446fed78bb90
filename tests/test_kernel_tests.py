"""Report step cuda-kernel-test: a test module that imports the project's built CUDA kernel at its top runs nowhere
without that build; its device calls are guarded, the import (the port item) stays reported."""
from conftest import FIXTURES, scan_findings

EXT = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources): " \
      "`torch.utils.cpp_extension.CUDAExtension`"
MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_device_calls_of_a_kernel_test_are_guarded_the_import_and_other_modules_are_not():
    found = [(p, line, rule, guarded) for p, line, _, rule, _, guarded
             in scan_findings(FIXTURES / "kernel_tests", "--show-guarded")]
    # The imports of the kernel (layer.py:2, test_fused.py:2, test_optional_kernel.py:4) are places of the build's
    # one finding at setup.py:4 (tests/test_project_extension.py); the step reads them before they are folded.
    assert found == [
        ("proj/layer.py", 6, "TRN241", False),
        ("proj/setup.py", 4, "TRN302", False),
        # a test's import of the build: a kernel use exercised by a test, guarded on its own (policy s23)
        ("proj/tests/test_fused.py", 2, "TRN302", True),
        ("proj/tests/test_fused.py", 6, "TRN241", True),
        ("proj/tests/test_fused.py", 7, "TRN243", True),
        # imported inside try/except ImportError: the module loads without the build, its device code may run
        ("proj/tests/test_optional_kernel.py", 4, "TRN302", True),
        ("proj/tests/test_optional_kernel.py", 10, "TRN241", False),
    ]


def test_the_step_names_itself_as_the_guard(tmp_path):
    import json

    from conftest import run_cli
    proc = run_cli("scan", FIXTURES / "kernel_tests", "--format", "json", "--no-cache", "--show-guarded")
    by = {(f["path"], f["line"]): f.get("guarded_by") for f in json.loads(proc.stdout)["findings"]}
    assert by[("proj/tests/test_fused.py", 6)] == "cuda-kernel-test"
    assert by[("proj/setup.py", 4)] is None
