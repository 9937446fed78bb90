import torch.nn as nn

from mamba_ssm.ops.selective_scan_interface import selective_scan_fn
import causal_conv1d


class Mamba(nn.Module):
    pass
