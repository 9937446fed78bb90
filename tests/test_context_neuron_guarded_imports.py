"""neuron-guarded in test modules: imports that only decide whether a test runs, and the imports of a module none
of whose tests runs on Neuron (_test_skips.skip_condition_imports, unrun_module_imports)."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_skip_condition_and_unrun_module_imports():
    got = [(f[0], f[1], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "neuron_guarded_imports", "--show-guarded")
           if f[3] == "TRN296"]
    assert got == [
        ("tests/test_sparse_conv_gpu_only.py", 6, True),  # every test skips without CUDA
        ("tests/test_sparse_conv_mixed.py", 6, False),  # one test runs on Neuron: its collection needs the import
        ("tests/test_sparse_conv_probe.py", 5, True),  # the ImportError handler skips the module
        ("tests/test_sparse_conv_return.py", 7, True),  # the test returns without the package
        ("tests/test_sparse_conv_skips.py", 10, True),  # the else arm skips the module
    ]
