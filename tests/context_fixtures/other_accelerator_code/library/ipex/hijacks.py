import torch


def hijack_cuda():
    torch.cuda.synchronize = torch.xpu.synchronize
    torch.cuda.empty_cache()
