"""neuron-guarded in test modules: imports that only decide whether a test runs, and the imports of a module none
of whose tests runs on Neuron (_test_skips.skip_condition_imports, unrun_module_imports). The test modules are the
cuda-library accuracy fixtures (`test_sparse_conv_*.py`), read here for the guarded flag of each import."""
from conftest import FIXTURES, scan_findings


def test_skip_condition_and_unrun_module_imports():
    got = [(f[0], f[1], f[5]) for f in scan_findings(FIXTURES / "accuracy" / "cuda-library", "--show-guarded")
           if f[3] == "TRN296" and f[0].startswith("test_sparse_conv_")]
    assert got == [
        ("test_sparse_conv_gpu_only.py", 6, True),  # every test skips without CUDA
        ("test_sparse_conv_mixed.py", 6, False),  # one test runs on Neuron: its collection needs the import
        ("test_sparse_conv_probe.py", 5, True),  # the ImportError handler skips the module
        ("test_sparse_conv_return.py", 7, True),  # the test returns without the package
        ("test_sparse_conv_skips.py", 10, True),  # the else arm skips the module
    ]
