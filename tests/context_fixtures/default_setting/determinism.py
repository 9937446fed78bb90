import torch


def enable_determinism(seed):
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True  # expect: TRN261
    torch.backends.cudnn.benchmark = False  # expect: TRN261


def fast_matmul():
    torch.backends.cuda.matmul.allow_tf32 = True  # expect: TRN261
    torch.backends.cudnn.allow_tf32 = True  # expect: TRN261
