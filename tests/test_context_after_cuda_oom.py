"""after-cuda-oom: the retry path after a swallowed CUDA out-of-memory error never runs on Neuron."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_statements_after_a_returning_oom_ignorer_are_guarded():
    found = [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "after_cuda_oom", "--show-guarded")]
    # 32-36: after `with _ignore_torch_cuda_oom(): return ...`, reached only after a CUDA OOM (the autocast
    # import is a place of the finding at 36); 45: a context manager that swallows ValueError is another matter;
    # 52-53: the `with` body does not return, so what follows it always runs
    assert found == [
        (32, 9, "TRN243", True),
        (36, 14, "TRN251", True),
        (45, 9, "TRN243", False),
        (52, 13, "TRN241", False),
        (53, 5, "TRN243", False),
        # 65: under `if "CUDA out of memory" in text:` (that text never comes from Neuron); 67: the other arm runs
        # on any other error; 70: "out of memory" alone is no CUDA message
        (65, 13, "TRN243", True),
        (67, 13, "TRN243", False),
        (70, 9, "TRN243", False),
    ]


def test_registered_as_a_guard():
    assert context.get("after-cuda-oom").effect == "guard"
