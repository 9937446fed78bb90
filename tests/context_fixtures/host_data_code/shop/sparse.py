import torch


class SparseTensor:
    def __init__(self, feats, coords):
        self.feats, self.coords = feats, coords

    def __add__(self, other):
        return SparseTensor(self.feats + other.feats, self.coords)

    def __getitem__(self, idx):
        if idx.dtype == torch.bool:
            idx = idx.nonzero().squeeze(1)
        return SparseTensor(self.feats[idx], self.coords[idx])
