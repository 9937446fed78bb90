import torch


def cu_seqlens(grid_thw, boxes, sizes):
    a = torch.repeat_interleave(grid_thw[:, 1] * grid_thw[:, 2], grid_thw[:, 0])
    b = boxes.repeat_interleave(sizes[:, -1], dim=0)
    # look-alikes: one element of a list or a table (an int), a column with the length fixed by output_size
    c = boxes.repeat_interleave(sizes[0], dim=0)
    d = boxes.repeat_interleave(sizes["n_rep"])
    e = torch.repeat_interleave(grid_thw, grid_thw[:, 0], output_size=64)
    return a, b, c, d, e
