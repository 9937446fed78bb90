import torch


def per_prompt(image_pe, queries, prompts):
    batch = torch.cat((queries, prompts), dim=1)
    # look-alikes: counts read off a shape are ints, even when read off a torch tensor
    a = torch.repeat_interleave(image_pe, batch.shape[0], dim=0)
    b = image_pe.repeat_interleave(batch.size(0), dim=0)
    n = batch.shape[0] * 2
    c = image_pe.repeat_interleave(n, dim=0)
    # a tensor of counts built from the shape is still a tensor
    counts = torch.full((batch.shape[0],), 2)
    d = image_pe.repeat_interleave(counts, dim=0)
    return a, b, c, d
