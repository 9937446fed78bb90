import torch


def expected_value(metric):
    expected = torch.tensor([1], dtype=torch.double)
    assert metric.compute() == expected


# look-alikes: a float64 value returned, or kept in a module buffer (moved with the module)


def rope(dim):
    freqs = torch.arange(0, dim, 2, dtype=torch.float64)
    return freqs


class Rotary(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
        self.register_buffer("inv", inv)
