import torch


def denoise(model, latents, device):
    autocast_device = "cuda" if device.type == "cuda" else device.type
    with torch.amp.autocast(autocast_device, enabled=False):
        out = model(latents)
    kind = device.type if device.type != "cuda" else "cuda"
    return out.to(kind)


def pick(model, device):
    # the literal is not the tested one: a real pick of CUDA
    kind = "cuda" if device.type == "gpu" else device.type
    return model.to(kind)


def fallback(model, device):
    kind = "cuda" if device.type == "cuda" else "cpu"
    return model.to(kind)
