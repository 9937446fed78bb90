import torch
import triton

# Library code: the import is the blocker and everything after it is the port, so nothing here is guarded.
DEVICE = torch.cuda.current_device()
