import torch


def get_assignments(gt_boxes, preds, fg_mask, mode="gpu"):
    if mode == "cpu":
        gt_boxes = gt_boxes.cpu()
    boxes = preds[fg_mask]
    if mode == "cpu":
        boxes = boxes.cuda()
    return boxes


def prepare(batch, keep):
    labels = batch[keep]
    labels = labels.cuda()
    return labels
