"""A text tower whose blocks take their mask from the constructor; the mask is built once, causal."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width, heads, mask=None):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, heads)
        self.mask = mask

    def forward(self, x):
        self.mask = self.mask.to(dtype=x.dtype, device=x.device) if self.mask is not None else None
        return self.attn(x, x, x, need_weights=False, attn_mask=self.mask)[0]


class Stack(nn.Module):
    def __init__(self, width, depth, heads, mask=None):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(width, heads, mask) for _ in range(depth)])


class TwoTowers(nn.Module):
    def __init__(self, width, length):
        super().__init__()
        self.length = length
        self.image = Stack(width, 4, 8)
        self.text = Stack(width, 4, 8, mask=self.causal())

    def causal(self):
        m = torch.empty(self.length, self.length)
        m.fill_(float("-inf"))
        m.triu_(1)
        return m
