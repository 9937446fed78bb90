import torch

MOVED = torch.tensor([0.5, 0.5], dtype=torch.float64).to("cuda:0")
