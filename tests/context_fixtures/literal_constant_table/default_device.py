import torch

torch.set_default_device("cuda")
TABLE = torch.tensor([0.5, 0.5], dtype=torch.float64)
