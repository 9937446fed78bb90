import torch
import torch.nn as nn
import torch.nn.functional as F


def lower_bool(q, k, v, n):
    keep = torch.ones(n, n, dtype=torch.bool).tril()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


def lower_cast(q, k, v, n):
    keep = torch.tril(torch.ones(n, n)).bool()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep.to(q.device))


def lower_float(q, k, v, n):
    ones = torch.tril(torch.ones(n, n))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=ones)


def below_only(q, k, v, n):
    strict = torch.ones(n, n, dtype=torch.bool).tril(-1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=strict)


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4)
        self.register_buffer("keep", torch.ones(n, n, dtype=torch.bool).tril())

    def forward(self, x):
        return self.attn(x, x, x, attn_mask=self.keep)
