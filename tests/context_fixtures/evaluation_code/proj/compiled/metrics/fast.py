import torch


@torch.compile
def fast_auc(preds, groups):
    return torch.unique(groups)
