import torch


def step(model, x, device):
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
        return model(x)
