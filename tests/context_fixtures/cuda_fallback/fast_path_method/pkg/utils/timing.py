import torch


def peak_bytes():
    return torch.cuda.max_memory_allocated()
