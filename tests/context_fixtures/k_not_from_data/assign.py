import torch


def assign(cost, ious, k_max, n):
    ks = torch.clamp(ious.sum(1).int(), min=1)
    _, a = torch.topk(cost[0], k=ks[0].item(), largest=False)
    counts = ks.tolist()
    _, b = cost[1].topk(counts[1])
    _, c = cost.topk(int(ks.max()) + 1)
    _, d = torch.topk(cost, k_max)
    _, e = cost.topk(k=5, dim=1)
    _, f = cost.topk(min(n, 10))
    return a, b, c, d, e, f


def hardest(losses, fraction):
    flat = torch.cat(losses).view(-1)
    top, _ = torch.topk(flat, int(fraction * flat.numel()))
    return top
