import torch

try:
    from torch_xla.experimental.custom_kernel import flash_attention
except ImportError:
    # patched into torch_xla on the TPU container
    pass


def attend(q, k, v, use_tpu_flash_attention=False):
    if use_tpu_flash_attention:
        return flash_attention(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)
