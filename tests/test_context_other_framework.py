"""other-framework: modules of another framework (`import oneflow as torch`, `import paddle`) that never import
PyTorch are not a PyTorch path; a converter importing both stays."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

CUDA = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_other_framework_modules_are_dropped_torch_modules_stay():
    # flow_infer.py (`import oneflow as torch`, .cuda() on line 6) and paddle_infer.py (.cuda(), paddle.amp) report
    # nothing, even with --show-guarded: the predicate drops
    assert scan_findings(CONTEXT_FIXTURES / "other_framework", "--show-guarded") == [
        ("proj/convert.py", 6, 16, "TRN241", CUDA, False),
        # a TensorFlow HParams container of a PyTorch project: its "nccl" feeds init_process_group elsewhere
        ("proj/hparams.py", 7, 22, "TRN271", "Distributed process group on NCCL: `dist_backend`", False),
        ("proj/torch_infer.py", 5, 12, "TRN241", CUDA, False),
    ]


def test_registered_as_a_drop():
    assert context.get("other-framework").effect == "drop"
