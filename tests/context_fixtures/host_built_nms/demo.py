import numpy as np
import torch
from torchvision.ops import nms


def vis_detections(scores, boxes, thresh=0.3):
    keep_all = []
    for j in range(1, scores.shape[1]):
        inds = np.where(scores[:, j] > 0.05)[0]
        cls_scores = scores[inds, j]
        cls_boxes = boxes[inds, j * 4:(j + 1) * 4]
        keep = nms(torch.from_numpy(cls_boxes), torch.from_numpy(cls_scores), thresh)
        keep_all.append(keep.numpy())
    return keep_all


def proposals(rois, scores, thresh=0.7):
    keep = nms(rois, scores.squeeze(1), thresh)
    return rois[keep]
