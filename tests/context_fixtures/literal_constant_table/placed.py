import torch

ON_DEVICE = torch.tensor([0.5, 0.5], dtype=torch.float64, device="cuda")
