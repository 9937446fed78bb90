import os

import torch

USE_SYNC = False
if os.environ.get("SYNC"):
    USE_SYNC = True

try:
    import some_optional_thing
    HAS_FUSED = True
except ImportError:
    HAS_FUSED = False

if USE_SYNC:
    torch.cuda.synchronize()
print("a")
if HAS_FUSED:
    torch.cuda.empty_cache()
