import torch
from torch.utils.data import Dataset


class Pairs(Dataset):
    def __getitem__(self, i):
        row = self.rows[i]
        return row[row > 0]


class Model(torch.nn.Module):
    def forward(self, x):
        return x[x > 0]
