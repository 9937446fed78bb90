import torch

from settings import *

FAST = False

if FAST:
    torch.cuda.synchronize()
