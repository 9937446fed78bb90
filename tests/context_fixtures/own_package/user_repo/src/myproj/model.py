from torchao.float8 import convert_to_float8_training
from mamba_ssm import Mamba
