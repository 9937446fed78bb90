import torch

try:
    from apex.normalization import FusedLayerNorm as LayerNorm
except ImportError:
    LayerNorm = torch.nn.LayerNorm

try:
    import xformers.ops as xops
except ImportError as e:
    raise ImportError("this model needs xformers") from e

try:
    import torchao
except ImportError:
    torchao = None

import flash_attn

try:
    from mamba_ssm.ops import selective_scan_fn
except ImportError:
    print("mamba kernels are not installed")

try:
    from apex.optimizers import FusedAdam as Adam
except ImportError:
    from deepspeed.ops.adam import FusedAdam as Adam


def build(dim, x, dt):
    # the optional names are used: an import nothing uses is `unused-import`'s business
    quantized = torchao.quantization if torchao is not None else None
    return LayerNorm(dim), Adam, selective_scan_fn(x, dt), quantized, xops, flash_attn
