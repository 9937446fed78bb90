"""Payload_gnn (fresh83): a mask-named list of column positions is no boolean mask; a list of truth values is."""
import torch

HIGH = [17, 23]


def score(model, data):
    res = (data - model(data)).abs()
    valid_dims = [d for d in HIGH if d < res.size(1)]
    a = res[:, valid_dims].mean(dim=1)
    valid = [True, False] * 12
    b = res[:, valid]
    keep_mask = res.sum(0) > 0
    c = res[:, keep_mask]
    sel_mask = [x > 0 for x in HIGH]
    d = res[:, sel_mask]
    return a, b, c, d
