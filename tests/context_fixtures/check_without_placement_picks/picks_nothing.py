import sys
import time

import torch
from accelerate import Accelerator


def launch():
    rng_types = ["torch", "cuda", "generator"] if torch.cuda.is_available() else ["torch", "generator"]
    return Accelerator(rng_types=rng_types)


def pick_index():
    return 0 if torch.cuda.is_available() else -1  # a device index: a pick


class Timer:
    def __init__(self):
        self.is_cuda_available = torch.cuda.is_available()

    def start(self):
        if self.is_cuda_available:
            self.start_event = torch.cuda.Event(enable_timing=True)
        else:
            self.start_event = time.time()


class Placer:
    def __init__(self):
        self.on_gpu = torch.cuda.is_available()

    def start(self, model):
        if self.on_gpu:
            model.cuda()


if torch.cuda.is_available():
    device = "cuda"
elif sys.platform == "darwin" and torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

torch_dtype = torch.float32
if device == "mps":
    torch_dtype = torch.float16


def pick_used():
    if torch.cuda.is_available():
        where = "cuda"
    else:
        where = "cpu"
    if where == "cuda":
        torch.zeros(1).to(where)
