import torch


class Viewer:
    def __init__(self, device):
        self._device = device
        self._dtype = torch.float32 if device.type == "mps" else torch.float64


class Accumulator:
    def __init__(self):
        self._accum = torch.float64  # expect: TRN121

    def add(self, x):
        return x.to(self._accum)


class Public:
    def __init__(self):
        self.precision = torch.float64  # expect: TRN121


class Named:
    def __init__(self):
        self._scale_dtype = torch.float64  # expect: TRN121

    def scale(self, x):
        return x.to(getattr(self, "_scale_dtype"))
