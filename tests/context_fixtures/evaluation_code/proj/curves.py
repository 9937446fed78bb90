import torch


def _binary_auroc_compute(preds, target):
    keep = target != -1
    return preds[keep].mean()


def train_step(model, x, labels):
    keep = labels != -1
    return model(x[keep])
