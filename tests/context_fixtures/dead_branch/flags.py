import torch

USE_APEX = False
SYNC_DEBUG = 0
_HELPER: object = None

try:
    import some_optional_thing
    HAS_FUSED = False
except ImportError:
    HAS_FUSED = False

if USE_APEX:
    torch.cuda.synchronize()
print("a")
if not USE_APEX:
    torch.cuda.empty_cache()
else:
    torch.cuda.ipc_collect()
print("b")
if USE_APEX is False:
    torch.cuda.synchronize()
print("c")


def step():
    if SYNC_DEBUG:
        torch.cuda.synchronize()
    if HAS_FUSED and _HELPER:
        torch.cuda.empty_cache()
    return torch.cuda.current_device() if _HELPER else 0
