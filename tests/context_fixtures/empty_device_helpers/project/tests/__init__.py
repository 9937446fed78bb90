import os

import torch


def _host():
    has_cuda = torch.cuda.is_available()
    return has_cuda, torch.device("cuda" if has_cuda else "cpu")


def first_gpu():
    has_cuda, _ = _host()
    if has_cuda:
        gpu = os.environ.get("WORKER_GPU", "0")
    else:
        gpu = ""
    return gpu


def gpu_list():
    if not torch.cuda.is_available():
        return "-1"
    return ",".join(str(i) for i in range(torch.cuda.device_count()))


def pinned_gpu():
    return "0"
