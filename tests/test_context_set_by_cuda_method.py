"""set-by-cuda-method: a block run only when an attribute only `cuda()` sets is not None is guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_blocks_behind_an_attribute_only_cuda_sets_are_guarded():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "set_by_cuda_method", "--show-guarded")
             if "index_cpu_to_gpu" in f[4]]
    assert found == [
        ("neighbors.py", 24, "TRN289", True),  # self.res is set to a resource only in cuda(); None in __init__ and cpu()
        ("shared.py", 19, "TRN289", False),  # __init__ stores a caller's value: set elsewhere too
    ]


def test_registered_as_a_guard():
    assert context.get("set-by-cuda-method").effect == "guard"
