import torch
import torch.nn as nn
import torch.nn.functional as F


def future_mask(n):
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


class Decoder(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.register_buffer("blocked", torch.ones(n, n, dtype=torch.bool).triu(1), persistent=False)
        self.register_buffer("shifted", torch.full((n, n), float("-inf")).triu(0), persistent=False)
        self.register_buffer("wide", torch.full((n, 2 * n), float("-inf")).triu(1), persistent=False)

    def forward(self, x, pad):
        n = x.shape[1]
        a = self.attn(x, x, x, attn_mask=self.blocked)[0]
        b = self.attn(x, x, x, attn_mask=future_mask(n))[0]
        c = self.attn(x, x, x, attn_mask=future_mask(n) + pad)[0]
        d = self.attn(x, x, x, attn_mask=self.blocked[:n, :n])[0]
        e = self.attn(x, x, x, attn_mask=self.shifted)[0]
        f = self.attn(x, x, x, attn_mask=self.wide)[0]
        return a + b + c + d + e + f


def sdpa(q, k, v, n):
    additive = future_mask(n)
    boolean = torch.ones(n, n, dtype=torch.bool).triu(1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=additive) + \
        F.scaled_dot_product_attention(q, k, v, attn_mask=boolean)


def seq2seq(src, tgt):
    model = nn.Transformer(d_model=64, nhead=4)
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
    out = model(src, tgt, tgt_mask=tgt_mask)
    padded = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
    padded.masked_fill_(tgt == 0, float("-inf"))
    return out, model(src, tgt, tgt_mask=padded)
