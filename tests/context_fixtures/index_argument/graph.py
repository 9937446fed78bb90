import torch


def test(model, x, y, mask):
    out = model(x)
    return out[mask], y[mask]


def train_iter(model, x, y, mask_train, mask_val):
    out = model(x)
    loss = (out[mask_train] - y[mask_train]).sum()
    return loss, test(model, x, y, mask_val), test(model, x, y, mask_train)


def main(model, x, y):
    idx = torch.randperm(len(y))
    idx_train, idx_val = idx[:100], idx[100:]
    mask_test = torch.randperm(len(y))[:50]
    train_iter(model, x, y, idx_train, idx_val)
    test(model, x, y, mask_test)


def pick(x, keep_mask):
    return x[keep_mask]


def select(x, scores):
    pick(x, scores > 0)
    return pick(x, torch.arange(4))


def alias(x, idx_train):
    mask_train = idx_train
    return x[mask_train]


def unused(x, mask):
    return x[mask]
