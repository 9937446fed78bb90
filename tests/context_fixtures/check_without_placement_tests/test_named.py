import torch

named = torch.cuda.is_available()
__all__ = ["named"]
