import torch


def per_node(batch, weight, counts_grid, idx):
    # counts from offsets: a slice, and arithmetic on slices, is never a Python int
    a = torch.repeat_interleave(weight, batch.offsets[1:] - batch.offsets[:-1])
    per_cell = counts_grid[idx].sum(-1).view(-1)
    b = torch.repeat_interleave(idx, per_cell)
    # look-alikes: a slice of a shape is a tuple of sizes, one element is an int, a dtype view is NumPy's
    c = weight.repeat_interleave(batch.sizes[0], dim=0)
    d = weight.repeat_interleave(batch.offsets[1:] - batch.offsets[:-1], output_size=256)
    e = torch.repeat_interleave(weight, counts_grid.view("int64"))
    return a, b, c, d, e
