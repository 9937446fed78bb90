import torch


class MixedPrecision:
    def __init__(self, precision, device, scaler=None):
        self.precision = precision
        self.scaler = scaler if scaler is not None else torch.amp.GradScaler(device=device)
