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
