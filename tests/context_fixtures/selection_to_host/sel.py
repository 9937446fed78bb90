import torch


def to_host(x, scores):
    keep = scores > 0.5
    picked = x[keep]
    if len(picked) == 0:
        return None
    return picked.detach().cpu().numpy()


def counted_only(x, scores):
    picked = x[scores > 0.5]
    return picked.shape[0]


def used_on_device(x, scores, head):
    picked = x[scores > 0.5]
    print(picked.cpu().tolist())
    return head(picked)
