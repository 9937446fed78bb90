import torch
from torch.utils._triton import has_triton

# Library code: the branch behind a check by name may be the only implementation there is, so it stays a finding.
if has_triton():
    DEVICE_INDEX = torch.cuda.current_device()
