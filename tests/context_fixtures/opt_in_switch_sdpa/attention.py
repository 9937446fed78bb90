import math

import torch
import torch.nn.functional as F


class SelfAttention(torch.nn.Module):
    def __init__(self, dim, use_sdpa: bool = False):
        super().__init__()
        self.dim = dim
        self.use_sdpa = use_sdpa

    def forward(self, q, k, v, mask):
        if not self.use_sdpa:
            scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.dim)
            return torch.softmax(scores.masked_fill(mask, -1e4), dim=-1) @ v
        else:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.unsqueeze(1))


class FusedAttention(torch.nn.Module):
    def __init__(self, dim, use_sdpa: bool = True):
        super().__init__()
        self.use_sdpa = use_sdpa

    def forward(self, q, k, v, mask):
        if self.use_sdpa:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.unsqueeze(1))
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


class ConfiguredAttention(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.use_sdpa = cfg.use_sdpa

    def forward(self, q, k, v, mask):
        if self.use_sdpa:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.unsqueeze(1))
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


class RelPositionAttention(SelfAttention):
    def __init__(self, dim, pos_bias=True, use_sdpa: bool = False):
        super().__init__(dim, use_sdpa)
        self.pos_bias = pos_bias

    def forward(self, q, k, v, mask):
        if not self.use_sdpa:
            return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.unsqueeze(1))


class CrossAttention(SelfAttention):
    def forward(self, q, k, v, mask):
        if self.use_sdpa:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.unsqueeze(1))
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
