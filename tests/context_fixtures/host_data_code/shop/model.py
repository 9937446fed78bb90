import torch
from torch.utils.data import Dataset


class Baskets(Dataset):
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        return torch.unique(self.items[i])

    def __len__(self):
        return len(self.items)


def collate_baskets(batch):
    return torch.nested.nested_tensor(batch)


def score(logits):
    return torch.unique(logits.argmax(-1))
