import torch

AMP = False
try:
    from settings import AMP
except ImportError:
    pass

if AMP:
    torch.cuda.synchronize()
