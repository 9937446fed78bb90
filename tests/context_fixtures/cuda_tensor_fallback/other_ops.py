import torch
from mmcv.ops import nms
from mmcv.ops import roi_align
from mmcv.ops import deform_conv2d
from mmcv.ops import box_iou_rotated


def py_nms(boxes, scores, thr):
    return torch.ops.torchvision.nms(boxes, scores, thr)


def suppress(boxes, scores, thr):
    # the CUDA op for CUDA tensors, torchvision's for the others
    return nms(boxes, scores, thr) if boxes.is_cuda else py_nms(boxes, scores, thr)


def pool(feats, rois):
    if feats.device.type == "cuda":
        return roi_align(feats, rois, 7)
    raise NotImplementedError("roi_align needs CUDA")


def conv(x, offset, weight):
    if torch.cuda.is_available():
        out = deform_conv2d(x, offset, weight)
    else:
        out = deform_conv2d(x.cpu(), offset.cpu(), weight.cpu())
    return out


def overlaps(a, b):
    return box_iou_rotated(a, b)
