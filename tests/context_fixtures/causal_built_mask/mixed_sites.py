"""A block built with a causal mask at one site and a caller's mask at another: not known to be causal."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width, mask=None):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4)
        self.mask = mask

    def forward(self, x):
        return self.attn(x, x, x, attn_mask=self.mask)[0]


def build(width, n, custom):
    causal = torch.full((n, n), float("-inf")).triu(1)
    return Block(width, causal), Block(width, mask=custom)


class Unbuilt(nn.Module):
    def __init__(self, width, mask):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4)
        self.mask = mask

    def forward(self, x):
        return self.attn(x, x, x, attn_mask=self.mask)[0]


class Written(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4)
        self.mask = torch.full((n, n), float("-inf")).triu(1)
        self.mask[:, :2] = 0

    def forward(self, x):
        return self.attn(x, x, x, attn_mask=self.mask)[0]


class Defaulted(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4)

    def forward(self, x, mask=None):
        if mask is None:
            mask = torch.ones(x.size(0), x.size(0), dtype=torch.bool).triu(1)
        return self.attn(x, x, x, attn_mask=mask)[0]
