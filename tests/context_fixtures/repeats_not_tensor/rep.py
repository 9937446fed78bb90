import torch


def expand(x, counts_list, n_rep, unknown):
    counts = torch.tensor(counts_list)
    a = x.repeat_interleave(counts)
    b = torch.repeat_interleave(x, counts, dim=0)
    c = x.repeat_interleave(n_rep, dim=1)
    d = x.repeat_interleave(2)
    e = torch.repeat_interleave(x, unknown)
    f = x.repeat_interleave(counts, output_size=64)
    return a, b, c, d, e, f
