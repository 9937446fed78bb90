import torch
from torch.backends import cudnn


def main():
    torch.backends.cudnn.benchmark = False
    cudnn.enabled = True
    torch.backends.cuda.matmul.allow_tf32 = False


def strict():
    torch.backends.cudnn.deterministic = True  # expect: TRN261


def configure(args):
    torch.backends.cudnn.allow_tf32 = args.tf32  # expect: TRN261
