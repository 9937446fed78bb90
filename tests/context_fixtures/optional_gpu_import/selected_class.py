import importlib

import torch

if importlib.util.find_spec("apex"):
    from apex.normalization import FusedRMSNorm


class FastNorm(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = FusedRMSNorm(dim)


Norm = FastNorm if importlib.util.find_spec("apex") else torch.nn.RMSNorm
