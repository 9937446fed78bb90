import torch

from torchao.float8.config import Float8LinearConfig
from torchao.float8.float8_scaling_utils import hp_tensor_to_float8_dynamic
import mamba_ssm


class Float8Linear(torch.nn.Linear):
    config: Float8LinearConfig
