import torch
import torch.nn as nn


class CrossLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads)

    def forward(self, tgt, memory, memory_mask=None, memory_key_padding_mask=None):
        out = self.attn(tgt, memory, memory, attn_mask=memory_mask,
                        key_padding_mask=memory_key_padding_mask)[0]
        return tgt + out


class Decoder(nn.Module):
    def __init__(self, dim, heads, layers):
        super().__init__()
        self.cross = nn.ModuleList()
        for _ in range(layers):
            self.cross.append(CrossLayer(dim, heads))

    def forward(self, queries, memory, masks):
        attn_mask = (masks.sigmoid() < 0.5).flatten(2)
        for i in range(len(self.cross)):
            queries = self.cross[i](queries, memory, memory_mask=attn_mask, memory_key_padding_mask=None)
        return queries
