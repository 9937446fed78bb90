import torch
import torch.nn.functional as F


def scale_with_boxes(images, targets, size):
    scale = torch.tensor([size / images.shape[-1]], device=targets.device, dtype=torch.float64)
    return F.interpolate(images, size=size, mode="bilinear"), targets * scale
