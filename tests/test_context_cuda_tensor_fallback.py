"""cuda-tensor-fallback: a CUDA-only operator used only for CUDA tensors, beside a PyTorch path, is an advisory."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

OPS = ("Libraries of CUDA-only operators (mmcv.ops, spconv, torchsparse, MinkowskiEngine, point-cloud ops, BasicSR, "
       "detectron2, PyTorch-Encoding and DCNv2 ops): `mmcv.ops`")
NOTE = " (used only for CUDA tensors; other tensors take the PyTorch path `{}`, which runs on Neuron)"


def _findings(name):
    import json

    from conftest import run_cli
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_tensor_fallback" / name, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["severity"], f["message"])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN296"]


def test_an_operator_chosen_only_for_cuda_tensors_beside_a_pytorch_path_is_an_advisory():
    # mmdetection's FocalLoss: the function using the op is named only in the `pred.is_cuda` arm, whose else
    # arm takes py_sigmoid_focal_loss
    assert _findings("focal_loss.py") == [(4, 1, "TRN296", "advisory", OPS + NOTE.format("py_sigmoid_focal_loss"))]


def test_an_arm_that_raises_uses_the_op_too_or_no_arm_keeps_the_blocker():
    assert _findings("other_ops.py") == [
        # `nms(...) if boxes.is_cuda else py_nms(...)`: lowered (the other imports are places of one finding per
        # library per file only when they share its standing)
        (2, 1, "TRN296", "advisory", OPS + NOTE.format("py_nms")),
        # roi_align: the other path raises; deform_conv2d: the else arm calls the op too; box_iou_rotated: no arm
        (3, 1, "TRN296", "blocker", OPS),
    ]


def test_registered_as_an_advisory_for_imports():
    p = context.get("cuda-tensor-fallback")
    assert p.effect == "advisory" and p.kinds == ("import",)
