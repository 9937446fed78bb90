import torch


def init_step(value, device, dtype):
    return torch.tensor(value, device=device, dtype=dtype)


def state(step, weights):
    counter = init_step(step, device="cpu", dtype=torch.float64)
    table = torch.zeros(4, dtype=torch.float64, device="cpu")
    moved = torch.zeros(4, dtype=torch.float64).cpu()
    on_device = torch.zeros(4, dtype=torch.float64, device=weights.device)
    return counter, table, moved, on_device
