import torch


class Config:
    def __init__(self):
        self._compute_dtype = torch.float64  # expect: TRN121

    def get(self, key):
        return getattr(self, "_" + key)
