import torch


def _grid(ow: int, oh: int, dtype: torch.dtype, device: torch.device):
    return torch.empty(1, oh, ow, 3, dtype=dtype, device=device)


def perspective(img, ow, oh):
    grid = _grid(ow, oh, img.dtype, "cuda")
    return img[grid > 0]
