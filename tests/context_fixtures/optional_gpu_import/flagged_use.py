import importlib

import torch

if importlib.util.find_spec("flash_attn"):
    from flash_attn import flash_attn_func
    USE_FLASH = True


def attention(q, k, v):
    if USE_FLASH:
        return flash_attn_func(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)
