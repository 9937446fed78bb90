import torch

collect_ignore = []
if not torch.cuda.is_available():
    collect_ignore.append("test_gpu.py")
