import torch
import torch.nn.functional as F

from .utils import to_cuda


class Trainer:
    def mask_out(self, x, lengths):
        pred_mask = x > 3
        picked = x[pred_mask]
        return x, picked, pred_mask

    def mlm_step(self, x, lengths):
        x, y, pred_mask = self.mask_out(x, lengths)
        x, y, pred_mask = to_cuda(x, y, pred_mask)
        return self.model(x, y, pred_mask)

    def clm_step(self, x, pred_mask):
        y = x[1:].masked_select(pred_mask[:-1])
        x, y = to_cuda(x, y)
        return self.model(x, y)


def mask_tokens(inputs, labels, probability):
    masked = torch.bernoulli(probability).bool()
    labels = labels[masked]
    return inputs, labels


def train_step(model, batch, probability, device):
    inputs, labels = mask_tokens(batch, batch.clone(), probability)
    inputs = inputs.to(device)
    labels = labels.to(device)
    return model(inputs, labels=labels)


def resize_then_move(img, device):
    small = F.interpolate(img, scale_factor=0.5, mode="bilinear")
    small = small.cuda()
    return small


def moved_in_passing(img, head):
    small = F.interpolate(img, scale_factor=0.5, mode="bilinear")
    return head(small.cuda())


def moved_first(x, device):
    x = x.to(device)
    keep = x[x > 0]
    return keep.to(device)


def rebound_before_move(x, scores, device):
    y = x[scores > 0.5]
    y = torch.zeros(3)
    return y.to(device)


def follows_another_tensor(x, scores):
    y = x[scores > 0.5]
    return y.to(scores.device)


def dtype_cast_only(x, scores):
    y = x[scores > 0.5]
    return y.to(torch.float16)


def helper_used_elsewhere(x):
    return x[x > 0]


HANDLERS = {"positive": helper_used_elsewhere}


def call_keeps_result(batch, device):
    out = helper_used_elsewhere(batch)
    return out.to(device)
