import torch


def first_gpu():
    return "0" if torch.cuda.is_available() else ""
