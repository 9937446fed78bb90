import torch


def fast():
    torch.backends.cudnn.benchmark = True  # expect: TRN261


def exact():
    torch.backends.cudnn.benchmark = False  # expect: TRN261
