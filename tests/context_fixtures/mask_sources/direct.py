import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 4)

    def forward(self, x, pad=None, causal=None):
        return self.attn(x, x, x, key_padding_mask=pad, attn_mask=causal)[0]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(64) for _ in range(2)])
        self.head = Block(64)

    def forward(self, x, lengths):
        pad = make_pad(lengths)
        for i in range(2):
            x = self.blocks[i](x, pad)
        return self.head(x, causal=None)


def run(x):
    return Block(64)(x, pad=x.eq(0))
