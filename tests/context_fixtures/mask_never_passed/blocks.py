import torch.nn as nn


class Cross(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 4)

    def forward(self, q, kv, mask=None, pad=None):
        return self.attn(q, kv, kv, attn_mask=mask, key_padding_mask=pad)[0]


class Stack(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.blocks = nn.ModuleList()
        for _ in range(3):
            self.blocks.append(Cross(d))

    def forward(self, x, y, pad=None):
        for block in self.blocks:
            x = block(x, y, pad=pad)
        return x


class Top(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.stack = Stack(d)

    def forward(self, x, y):
        return self.stack(x, y)


class Padded(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.stack = Stack(d)

    def forward(self, x, y, lengths):
        return self.stack(x, y, pad=lengths[:, None] <= lengths.new_tensor(range(y.shape[0]))[None])
