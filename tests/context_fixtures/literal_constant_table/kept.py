import torch

NOISE = torch.randn(3)
FROM_TENSOR = torch.tensor(NOISE, dtype=torch.float64)


def table():
    return torch.tensor([0.5, 0.5], dtype=torch.float64)
