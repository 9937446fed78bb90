import torch


def first_gpu():
    if torch.cuda.is_available():
        gpu = "0"
    else:
        gpu = ""
    return gpu
