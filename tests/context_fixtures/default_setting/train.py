import torch

torch.backends.cudnn.benchmark = False  # expect: TRN261


def main():
    return torch.zeros(1)
