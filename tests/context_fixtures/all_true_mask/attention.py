import torch
import torch.nn.functional as F

dense = torch.ones(4, 1, 8, 8, dtype=torch.bool)


def plain(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=dense)


def adapter(q, k, v):
    amask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device)
    full = torch.full((8, 8), True)
    return F.scaled_dot_product_attention(q, k, v, amask) + F.scaled_dot_product_attention(q, k, v, attn_mask=full)


def causal(q, k, v):
    m = torch.ones(8, 8, dtype=torch.bool)
    m[:, 4:] = False
    tri = torch.ones(8, 8, dtype=torch.bool).tril()
    add = torch.ones(8, 8)
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=tri)
    c = F.scaled_dot_product_attention(q, k, v, attn_mask=add)
    return a + b + c
