import torch


def linear_schedule(steps):
    return torch.linspace(1e-4, 2e-2, steps, dtype=torch.float64)


def bin_weights(sizes):
    w = torch.tensor(sizes, dtype=torch.float64)
    return w / w.sum()


def rotary(pos, dim):
    scale = torch.arange(0, dim, 2, dtype=torch.float64) / dim
    return pos.to(scale.dtype).unsqueeze(-1) * scale.to(pos.device)


def stamp(rank_value, device):
    t = torch.tensor([rank_value], dtype=torch.float64)
    return t.to(device)


class Head(torch.nn.Module):
    def forward(self, x):
        acc = torch.zeros(x.shape[0], dtype=torch.float64)
        return acc + x.sum(-1)


TABLE = torch.arange(8, dtype=torch.float64)


def shared_time(broadcast):
    t = torch.tensor(1.0, dtype=torch.float64)
    broadcast(t)
    return t


def lengths(outputs):
    return torch.tensor([o.count_nonzero() for o in outputs], dtype=torch.float64)
