import torch


def draw(boxes, scores, device):
    # moves its tensors to the device: the same code may run there
    boxes = boxes.to(device)
    return torch.unique(scores)
