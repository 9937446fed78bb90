import torch
from transformers.utils import is_flash_attn_2_available

if is_flash_attn_2_available():
    from flash_attn import flash_attn_func


class LlamaFlashAttention2(torch.nn.Module):
    def forward(self, q, k, v):
        return flash_attn_func(q, k, v, causal=True)
