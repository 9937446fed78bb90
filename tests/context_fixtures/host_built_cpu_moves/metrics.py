import torch


def smape(pred, target, threshold):
    device = torch.device("cpu")
    pred = pred.to(device=device)
    target = target.to("cpu")
    valid = target >= threshold
    return pred[valid], target[valid]


def smape_on(pred, target, threshold, device):
    pred = pred.to(device=device)
    valid = target.to(device) >= threshold
    return pred[valid]


def smape_late(pred, target, threshold):
    scale = pred.abs().max()
    pred = pred.to("cpu")
    return pred[pred > threshold * scale]



def probs(mat, y, n):
    mat = mat.softmax(1)
    y = y.repeat(n, 1)[y.sum(1) > 0]
    return mat * y
