import torch


def run(fn):
    saved = torch.backends.cudnn.benchmark
    if torch.backends.cuda.matmul.allow_tf32:
        print("tf32 on")
    torch.backends.cudnn.benchmark = True
    with torch.backends.cudnn.flags(enabled=False):
        out = fn()
    torch.backends.cudnn.benchmark = saved
    return out
