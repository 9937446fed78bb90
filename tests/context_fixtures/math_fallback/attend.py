import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]


def attend(q, k, v):
    with sdpa_kernel(BACKENDS):
        return F.scaled_dot_product_attention(q, k, v)


# look-alikes: CUDA kernels only


def fast(q, k, v):
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION]):
        return F.scaled_dot_product_attention(q, k, v)


def by_name(name):
    choices = {"math": SDPBackend.MATH, "flash_attention": SDPBackend.FLASH_ATTENTION}
    return choices[name]


def cuda_only(name):
    choices = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
    return choices[name]
