import numpy as np
import torch
import torch.nn.functional as F


def timestamps(result, tokenizer):
    tokens = torch.tensor(result.tokens)
    is_stamp = tokens.ge(tokenizer.timestamp_begin)
    return tokens[is_stamp.nonzero().flatten()]


def bias_indices(resolution):
    h, w = resolution
    rows = torch.arange(h).repeat_interleave(w)
    keys = (rows[:, None] - rows[None, :]).abs() * w
    unique, inverse = torch.unique(keys, return_inverse=True)
    return inverse


def from_numpy(arr):
    t = torch.from_numpy(np.asarray(arr))
    return F.interpolate(t[None, None], scale_factor=2.0, mode="bilinear")


# look-alikes: a parameter, a tensor moved to a device on the way, a 0-dim tensor meeting another tensor


def on_input(tokens):
    return tokens[tokens.nonzero().flatten()]


def moved(result, device):
    tokens = torch.tensor(result.tokens).to(device)
    return tokens.nonzero()


def scalar_meets_input(x):
    scale = torch.tensor(2.0)
    return (scale * x).nonzero()


class Head(torch.nn.Module):
    def forward(self, x):
        keep = torch.arange(x.shape[0]) % 2 == 0
        return x[keep.nonzero().flatten()]


def reference_specificity(preds, target, ignore_index):
    from sklearn.metrics import confusion_matrix as sk_confusion_matrix

    idx = target == ignore_index
    true = target[~idx]
    return sk_confusion_matrix(true, preds, labels=[0, 1])


def kept_on_device(preds, target, ignore_index):
    idx = target == ignore_index
    true = target[~idx]
    return true.sum()
