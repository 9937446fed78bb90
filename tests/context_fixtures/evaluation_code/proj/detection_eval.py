import torch


def calculate_mAP(det_boxes, det_labels, true_labels, n_classes):
    aps = torch.zeros(n_classes - 1)
    for c in range(1, n_classes):
        class_boxes = det_boxes[det_labels == c]
        aps[c - 1] = class_boxes.size(0) / max(1, (true_labels == c).sum().item())
    return aps.mean()


def assign_targets(boxes, labels):
    # look-alike name: a training helper that runs every step
    return boxes[labels > 0]
