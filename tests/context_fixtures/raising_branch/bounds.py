import torch


def check(x, lo):
    below = x < lo
    if below.any():
        first = below.nonzero()[0].item()
        raise RuntimeError(f"value {first} below the grid")
    else:
        rows = x[below]
    return rows


def loop(x, lo):
    for row in x:
        if (row < lo).any():
            bad = row.nonzero()
            continue
        raise RuntimeError("unreachable")
    return bad


def nested(x, lo):
    if x.numel():
        idx = (x < lo).nonzero()
        if idx.numel():
            raise RuntimeError("below")
    return idx
