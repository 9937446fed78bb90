import torch


def setup(use_tf32):
    if torch.cuda.is_available():
        torch.backends.cuda.matmul.allow_tf32 = use_tf32
    if not torch.cuda.is_available():
        torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = use_tf32
