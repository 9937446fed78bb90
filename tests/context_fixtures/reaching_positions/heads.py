import torch
from mmcv.ops import nms_normal_bev
from maskrcnn_benchmark.layers import nms as _box_nms


def filter_boxes(bbox, obj_scores, cfg):
    nms_func = nms_normal_bev
    if cfg.score_thr is not None:
        keep = obj_scores >= cfg.score_thr
        bbox = bbox[keep]
    keep = nms_func(bbox, obj_scores, cfg.iou_thr)
    keep = keep[:cfg.nms_post]
    return bbox[keep]


def boxlist_nms(boxes, score, thresh, max_proposals):
    keep = _box_nms(boxes, score, thresh)
    if max_proposals > 0:
        keep = keep[:max_proposals]
    return boxes[keep]


def branch_only(bbox, scores, flag):
    keep = scores > 0.5
    if flag:
        keep = nms_normal_bev(bbox, scores, 0.5)
    return bbox[keep]


def masked_targets(sample, pad):
    masked_tokens = sample["target"].ne(pad)
    masked_tokens = torch.where(masked_tokens.any(), masked_tokens, masked_tokens.new([True]))
    target = sample["target"]
    if masked_tokens is not None:
        target = target[masked_tokens]
    return target
