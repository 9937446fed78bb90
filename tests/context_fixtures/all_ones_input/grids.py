import torch


def grid_points(rois, g):
    cube = rois.new_ones((g, g, g))
    idx = cube.nonzero()
    return idx.float() / g


def pair_indices(x, n):
    return torch.nonzero(torch.ones(n, n, device=x.device).tril(-1))


def full_positions(x):
    return x.new_full((4, 4), 2.0).argwhere()


def written_after(x, n):
    m = x.new_ones(n)
    m[0] = 0
    return m.nonzero()


def filled_after(x, n):
    m = x.new_ones(n)
    m.fill_(0)
    return m.nonzero()


def from_data(x):
    m = x > 0
    return m.nonzero()


def zeros_filled(x, n):
    return x.new_full((n,), 0).nonzero()


def parameter_mask(m):
    return m.nonzero()
