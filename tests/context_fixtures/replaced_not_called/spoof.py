import torch
import torch.cuda.memory as cm
from torch.cuda.amp import GradScaler


def spoof():
    torch.cuda.get_device_name = lambda i: "fake"
    cm.max_memory_allocated = lambda *a: 0
    torch.cuda.amp = object()
    del torch.cuda.synchronize


class Pretend:
    def __enter__(self):
        self._saved = (torch.cuda.is_available, torch.cuda.device_count)
        torch.cuda.is_available = lambda: True

    def __exit__(self, *exc):
        torch.cuda.is_available, torch.cuda.device_count = self._saved


def real():
    torch.cuda.synchronize()
    name = torch.cuda.get_device_name(0)
    torch.backends.cudnn.benchmark = True
    scaler = GradScaler(enabled=False)
    scaler2 = GradScaler(enabled=use_amp)
    s3 = torch.amp.GradScaler(enabled=False)
    with torch.autocast("cuda", enabled=False):
        pass
    with torch.cuda.amp.autocast(enabled=False):
        pass
    return name
