import torch
from torch import nn


def cosine_schedule(steps):
    x = torch.linspace(0, steps, steps + 1, dtype=torch.float64)
    return torch.clip(1 - x[1:] / x[:-1], 0, 0.999)


def linear_schedule(steps):
    return torch.linspace(1e-4, 0.02, steps, dtype=torch.float64)


def kept_schedule(steps):
    return torch.linspace(1e-4, 0.02, steps, dtype=torch.float64)


class Diffusion(nn.Module):
    def __init__(self, schedule, steps):
        super().__init__()
        if schedule == "cosine":
            betas = cosine_schedule(steps)
        else:
            make = linear_schedule
            betas = make(steps)
        n, = betas.shape
        self.num_steps = int(n)
        register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))
        register_buffer("betas", betas)
        register_buffer("alphas", torch.cumprod(1.0 - betas, dim=0))


class Kept(nn.Module):
    def __init__(self, steps):
        super().__init__()
        betas = kept_schedule(steps)
        register_buffer = lambda name, val: self.register_buffer(name, val)
        register_buffer("betas", betas)
        self.to("cuda")
