import torch
from torch.cuda.amp import GradScaler


def train(use_amp):
    off = GradScaler(enabled=False)
    also_off = torch.amp.GradScaler(enabled=False)
    maybe = GradScaler(enabled=use_amp)
    on = torch.amp.GradScaler()
    with torch.cuda.amp.autocast(enabled=False):
        pass
    return off, also_off, maybe, on


def train_on(device, dtype):
    # enabled only on CUDA: disabled on every Neuron machine (ENN-PyTorch, fresh73)
    scaler = torch.amp.GradScaler(enabled=device.type == "cuda" and dtype == torch.float16)
    return scaler


class Trainer:
    def __init__(self, device, use_amp=True):
        self.use_amp = use_amp and device.type == "cuda"
        # a named switch stays a finding: the switch is the port's to revisit
        self.scaler = torch.cuda.amp.GradScaler(enabled=self.use_amp)
