import torch
import torch.nn as nn
import torch.nn.functional as F
from mmcv.ops import sigmoid_focal_loss as _sigmoid_focal_loss


def py_sigmoid_focal_loss(pred, target, weight=None, gamma=2.0, alpha=0.25):
    pred_sigmoid = pred.sigmoid()
    target = target.type_as(pred)
    pt = (1 - pred_sigmoid) * target + pred_sigmoid * (1 - target)
    focal_weight = (alpha * target + (1 - alpha) * (1 - target)) * pt.pow(gamma)
    return F.binary_cross_entropy_with_logits(pred, target, reduction='none') * focal_weight


def sigmoid_focal_loss(pred, target, weight=None, gamma=2.0, alpha=0.25):
    loss = _sigmoid_focal_loss(pred.contiguous(), target.contiguous(), gamma, alpha, None, 'none')
    return loss


class FocalLoss(nn.Module):
    def forward(self, pred, target):
        if torch.cuda.is_available() and pred.is_cuda:
            calculate_loss_func = sigmoid_focal_loss
        else:
            calculate_loss_func = py_sigmoid_focal_loss
        return calculate_loss_func(pred, target)
